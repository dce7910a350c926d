"""Test-runner summaries: what a verify command's tests did, and a run of no test failing.

pytest, unittest, ``node --test`` and cargo test run for real here; jest,
vitest and mocha are installed from npm by the slow test at the end; go test
output is recorded text (no Go toolchain here), as is one sample of each other
runner, for the parser alone.
"""

from __future__ import annotations

import functools
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from forge.checks.command_check import CHECK_ID
from forge.models import TestCounts
from forge.runtime.processes import TAIL_BYTES
from forge.test_runs.command_run import run_command
from forge.test_runs.counts import describe
from forge.test_runs.summary import MAX_LINE_BYTES, SummaryScanner, combine

if TYPE_CHECKING:
    from forge_testing import RunForge

#: The ``command`` check's way of running a verify command.
run_verify = functools.partial(run_command, result_type=CHECK_ID)
PYTHON = shlex.quote(sys.executable)
PYTEST = f"{PYTHON} -m pytest -q -p no:cacheprovider"
UNITTEST = f"{PYTHON} -m unittest"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

PYTEST_SUITE = """\
import pytest

def test_one():
    assert 1 + 1 == 2

def test_two():
    assert "a".upper() == "A"

@pytest.mark.skip(reason="not today")
def test_three():
    assert False
"""

ALL_SKIPPED_PYTEST = """\
import pytest

@pytest.mark.skip
def test_one():
    assert False

@pytest.mark.skipif(True, reason="never")
def test_two():
    assert False
"""

UNITTEST_SUITE = """\
import unittest

class Arithmetic(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)

    def test_sub(self):
        self.assertEqual(2 - 1, 1)

    @unittest.skip("not today")
    def test_mul(self):
        self.fail()

    @unittest.expectedFailure
    def test_div(self):
        self.assertEqual(1 / 1, 2)
"""

ALL_SKIPPED_UNITTEST = """\
import unittest

class Skipped(unittest.TestCase):
    @unittest.skip("later")
    def test_one(self):
        self.fail()

    @unittest.skip("later")
    def test_two(self):
        self.fail()
"""

NODE_SUITE = """\
import test from "node:test";
import assert from "node:assert";

test("adds", () => assert.equal(1 + 1, 2));
test("subtracts", () => assert.equal(2 - 1, 1));
test("multiplies", { skip: "not today" }, () => assert.fail());
test.todo("divides");
"""

ALL_SKIPPED_NODE = """\
import test from "node:test";

test("one", { skip: true }, () => {});
test("two", { skip: true }, () => {});
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def counts(
    runner: str, passed: int, failed: int = 0, skipped: int = 0, errors: int = 0
) -> TestCounts:
    return TestCounts(runner=runner, passed=passed, failed=failed, skipped=skipped, errors=errors)


# --- real runs: pytest, unittest, node --test ------------------------------------


def test_a_passing_pytest_suite_passes_with_its_counts(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": PYTEST_SUITE})
    result = run_verify(PYTEST, tmp_path, timeout=60)
    assert result.passed, result.message
    assert result.tests == counts("pytest", passed=2, skipped=1)
    assert result.message.endswith("ms: 2 passed, 1 skipped (pytest)"), result.message


def test_pytest_with_every_test_skipped_ran_no_test(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": ALL_SKIPPED_PYTEST})
    result = run_verify(PYTEST, tmp_path, timeout=60)
    assert result.exit_code == 0
    assert result.passed is False
    assert result.message == "ran no test: 0 passed, 2 skipped (pytest)"
    assert result.tests == counts("pytest", passed=0, skipped=2)


def test_pytest_that_collected_nothing_ran_no_test(tmp_path: Path) -> None:
    result = run_verify(PYTEST, tmp_path, timeout=60)
    assert result.exit_code == 5  # pytest's own "no tests collected"
    assert result.message == "ran no test: no test found (pytest)"
    assert result.tests == counts("pytest", passed=0)


def test_pytest_that_deselected_everything_ran_no_test(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": PYTEST_SUITE})
    result = run_verify(f"{PYTEST} -k nothing_matches_this", tmp_path, timeout=60)
    assert result.passed is False
    assert result.message == "ran no test: no test found (pytest)"


def test_failures_behind_or_true_still_fail(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": PYTEST_SUITE + "\ndef test_four():\n    assert 1 == 2\n"})
    result = run_verify(f"{PYTEST} || true", tmp_path, timeout=60)
    assert result.exit_code == 0
    assert result.passed is False
    assert result.message == (
        "tests failed but the command exited 0: 2 passed, 1 failed, 1 skipped (pytest)"
    )


def test_a_failing_run_keeps_its_exit_code_and_shows_its_counts(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": "def test_bad():\n    assert 1 == 2\n"})
    result = run_verify(PYTEST, tmp_path, timeout=60)
    assert result.exit_code == 1
    assert result.passed is False
    assert result.message.startswith("exit 1 in ")
    assert result.message.endswith(": 0 passed, 1 failed (pytest)")


def test_pytest_errors_and_expected_failures(tmp_path: Path) -> None:
    suite = """\
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("no database")

def test_uses_it(broken):
    pass

@pytest.mark.xfail
def test_known_bug():
    assert False

def test_fine():
    pass
"""
    write(tmp_path, {"test_x.py": suite})
    result = run_verify(PYTEST, tmp_path, timeout=60)
    assert result.tests == counts("pytest", passed=1, skipped=1, errors=1)
    assert result.message.endswith(": 1 passed, 1 skipped, 1 error (pytest)")


def test_a_passing_unittest_suite_passes_with_its_counts(tmp_path: Path) -> None:
    write(tmp_path, {"test_arith.py": UNITTEST_SUITE})
    result = run_verify(UNITTEST, tmp_path, timeout=60)
    assert result.passed, result.message
    # An expected failure did not run as a test that can pass: it counts as skipped.
    assert result.tests == counts("unittest", passed=2, skipped=2)


def test_unittest_with_every_test_skipped_ran_no_test(tmp_path: Path) -> None:
    write(tmp_path, {"test_skipped.py": ALL_SKIPPED_UNITTEST})
    result = run_verify(UNITTEST, tmp_path, timeout=60)
    assert result.exit_code == 0
    assert result.message == "ran no test: 0 passed, 2 skipped (unittest)"


def test_unittest_that_found_nothing_ran_no_test(tmp_path: Path) -> None:
    # Python 3.11 exits 0 here ("Ran 0 tests ... OK"); 3.12 exits 5 ("NO TESTS RAN").
    result = run_verify(UNITTEST, tmp_path, timeout=60)
    assert result.passed is False
    assert result.message == "ran no test: no test found (unittest)"


def test_unittest_failures_and_errors(tmp_path: Path) -> None:
    suite = UNITTEST_SUITE + (
        "\n    def test_wrong(self):\n        self.assertEqual(1, 2)\n"
        "\n    def test_raises(self):\n        raise KeyError('x')\n"
    )
    write(tmp_path, {"test_arith.py": suite})
    result = run_verify(UNITTEST, tmp_path, timeout=60)
    assert result.exit_code == 1
    assert result.tests == counts("unittest", passed=2, failed=1, skipped=2, errors=1)


@needs_node
def test_a_passing_node_test_suite_passes_with_its_counts(tmp_path: Path) -> None:
    write(tmp_path, {"math.test.mjs": NODE_SUITE})
    result = run_verify("node --test", tmp_path, timeout=60)
    assert result.passed, result.message
    assert result.tests == counts("node:test", passed=2, skipped=2)


@needs_node
def test_node_test_in_a_folder_without_tests_ran_no_test(tmp_path: Path) -> None:
    (tmp_path / "index.mjs").write_text("export const x = 1;\n", encoding="utf-8")
    result = run_verify("node --test", tmp_path, timeout=60)
    assert result.exit_code == 0
    assert result.passed is False
    assert result.message == "ran no test: no test found (node:test)"


@needs_node
def test_node_test_with_every_test_skipped_ran_no_test(tmp_path: Path) -> None:
    write(tmp_path, {"skipped.test.mjs": ALL_SKIPPED_NODE})
    result = run_verify("node --test --test-reporter=spec", tmp_path, timeout=60)
    assert result.exit_code == 0
    assert result.message == "ran no test: 0 passed, 2 skipped (node:test)"


CARGO_TOML = '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n'
RUST_TESTS = """\
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    #[test]
    fn adds() {
        assert_eq!(super::add(1, 2), 3);
    }

    #[test]
    #[ignore]
    fn later() {}
}
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo is not installed")
def test_cargo_test_sums_its_test_binaries(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    write(tmp_path, {"Cargo.toml": CARGO_TOML, "src/lib.rs": RUST_TESTS})
    # Unit tests and doc-tests print a summary each; the doc-tests ran none.
    result = run_verify("cargo test --offline -q", tmp_path, timeout=300)
    assert result.passed, (result.message, result.stderr)
    assert result.tests == counts("cargo test", passed=1, skipped=1)
    ignored = RUST_TESTS.replace(
        "    #[test]\n    fn adds", "    #[test]\n    #[ignore]\n    fn adds"
    )
    write(tmp_path, {"src/lib.rs": ignored})
    result = run_verify("cargo test --offline -q", tmp_path, timeout=300)
    assert result.exit_code == 0
    assert result.message == "ran no test: 0 passed, 2 skipped (cargo test)"


# --- the output a summary is read from ----------------------------------------------


def test_the_summary_counts_after_it_scrolled_out_of_the_tail(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": ALL_SKIPPED_PYTEST})
    result = run_verify(f"{PYTEST}; seq 1 100000", tmp_path, timeout=60)
    assert "skipped" not in result.stdout and result.stdout_bytes > 40 * TAIL_BYTES
    assert result.message == "ran no test: 0 passed, 2 skipped (pytest)"


def test_summaries_on_both_streams_and_of_two_runners_add_up(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": PYTEST_SUITE, "test_arith.py": UNITTEST_SUITE})
    result = run_verify(f"{PYTEST} && {UNITTEST} && {PYTEST}", tmp_path, timeout=60)
    assert result.passed, result.message
    # pytest also collects the unittest file: 4 passed, 3 skipped per pytest run.
    assert result.tests == counts("pytest + unittest", passed=10, skipped=8)


def test_one_runner_that_ran_nothing_fails_a_command_running_two(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": PYTEST_SUITE})
    result = run_verify(f"{PYTEST} && mkdir -p empty && cd empty && {UNITTEST}", tmp_path, 60)
    assert result.exit_code == 0
    assert result.message == "ran no test: no test found (unittest)"


def test_output_without_a_summary_is_judged_by_its_exit_code(tmp_path: Path) -> None:
    passing = run_verify("echo 'all good'; echo 'tests are fine' >&2", tmp_path, timeout=10)
    assert passing.passed and passing.tests is None
    assert passing.message.startswith("exit 0 in ") and passing.message.endswith(" ms")
    failing = run_verify("echo 'Ran the build'; exit 3", tmp_path, timeout=10)
    assert failing.passed is False and failing.tests is None
    assert failing.message.startswith("exit 3 in ")


def scan(output: bytes, chunk_size: int | None = None) -> list[TestCounts]:
    scanner = SummaryScanner()
    size = chunk_size or max(len(output), 1)
    for start in range(0, len(output), size):
        scanner.feed(output[start : start + size])
    scanner.close()
    return combine([scanner])


def test_chunks_split_anywhere_read_the_same(tmp_path: Path) -> None:
    write(tmp_path, {"test_math.py": PYTEST_SUITE, "test_arith.py": UNITTEST_SUITE})
    output = subprocess.run(
        f"{PYTEST} -v; {UNITTEST} -v 2>&1",
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        check=False,
    ).stdout
    whole = scan(output)
    assert whole == [counts("pytest", passed=4, skipped=3), counts("unittest", 2, skipped=2)]
    for size in (1, 2, 7, 64, 1000):
        assert scan(output, size) == whole, size


def test_colours_carriage_returns_and_a_last_line_without_newline() -> None:
    output = (
        b"\x1b[32m\x1b[1m3 passed\x1b[0m\x1b[32m in 0.01s\x1b[0m\n"
        b"running 1/2\rrunning 2/2\r=== 1 passed in 0.02s ===\n"
        b"Summary: 4 passed, 0 failed"
    )
    assert scan(output, 5) == [counts("pytest", passed=4), counts("tests", passed=4)]


def test_overlong_lines_are_skipped_whole_and_reading_goes_on() -> None:
    long_line = b"x" * (3 * MAX_LINE_BYTES) + b" 7 passed, 1 failed\n"
    output = long_line + b"2 passed, 0 failed\n" + b"y" * (5 * MAX_LINE_BYTES)
    for size in (100, MAX_LINE_BYTES + 1, len(output)):
        assert scan(output, size) == [counts("tests", passed=2)], size


RECORDED = {
    "go test -v": (
        "=== RUN   TestParse\n--- PASS: TestParse (0.00s)\n=== RUN   TestTable\n"
        "=== RUN   TestTable/empty\n    --- PASS: TestTable/empty (0.00s)\n"
        "--- PASS: TestTable (0.00s)\n=== RUN   TestSlow\n    slow_test.go:9: short mode\n"
        "--- SKIP: TestSlow (0.00s)\n=== RUN   TestBad\n    bad_test.go:5: got 1\n"
        "--- FAIL: TestBad (0.00s)\nFAIL\nFAIL\texample.com/m/parse\t0.004s\n"
        "?   \texample.com/m/cmd\t[no test files]\nFAIL\n",
        counts("go test", passed=2, failed=1, skipped=1),
    ),
    "go test, no test files": (
        "?   \texample.com/m\t[no test files]\n"
        "ok  \texample.com/m/util\t0.002s [no tests to run]\n",
        counts("go test", passed=0),
    ),
    "go test without -v counts nothing": (
        "?   \texample.com/m\t[no test files]\nok  \texample.com/m/util\t(cached)\n",
        None,
    ),
    "cargo test": (
        "running 3 tests\ntest a ... ok\ntest b ... ignored\ntest c ... ok\n\n"
        "test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; "
        "finished in 0.00s\n\n     Running tests/api.rs\n\nrunning 1 test\ntest d ... FAILED\n\n"
        "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; "
        "finished in 0.01s\n\n   Doc-tests m\n\nrunning 0 tests\n\n"
        "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
        "finished in 0.00s\n",
        counts("cargo test", passed=2, failed=1, skipped=1),
    ),
    "mocha": (
        "\n  parser\n    ✔ parses\n    - later\n    1) breaks\n\n\n"
        "  1 passing (6ms)\n  1 pending\n  1 failing\n\n  1) parser\n       breaks:\n",
        counts("mocha", passed=1, failed=1, skipped=1),
    ),
    "mocha, nothing run": ("\n\n  0 passing (2ms)\n\n", counts("mocha", passed=0)),
    "jest": (
        "Test Suites: 1 failed, 1 passed, 2 total\n"
        "Tests:       1 failed, 1 skipped, 1 todo, 5 passed, 8 total\n"
        "Snapshots:   0 total\nTime:        0.721 s\nRan all test suites.\n",
        counts("jest", passed=5, failed=1, skipped=2),
    ),
    "jest, no tests": (
        "No tests found, exiting with code 0\n",
        counts("jest", passed=0),
    ),
    "vitest": (
        "\x1b[2m Test Files \x1b[22m \x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m\x1b[90m (1)\x1b[39m\n"
        "\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[31m1 failed\x1b[39m\x1b[22m\x1b[2m | \x1b[22m"
        "\x1b[1m\x1b[32m3 passed\x1b[39m\x1b[22m\x1b[2m | \x1b[22m\x1b[33m1 skipped\x1b[39m"
        "\x1b[2m | \x1b[22m\x1b[90m1 todo\x1b[39m\x1b[90m (6)\x1b[39m\n"
        "\x1b[2m   Start at \x1b[22m 06:27:48\n",
        counts("vitest", passed=3, failed=1, skipped=2),
    ),
    "vitest, no test files": (
        "\n RUN  v4.1.12 /app\n\nNo test files found, exiting with code 0\n",
        counts("vitest", passed=0),
    ),
    "pytest, collection errors": (
        "ERROR tests/test_a.py\n!!! Interrupted: 2 errors during collection !!!\n"
        "======================== 1 warning, 2 errors in 0.31s ========================\n",
        counts("pytest", passed=0, errors=2),
    ),
    "pytest, nothing collected but a warning": (
        "1 warning in 0.01s\n",
        counts("pytest", passed=0),
    ),
    "plain line": (
        "Checked 12 cases: 10 passed, 2 failed, 1 skipped.\n",
        counts("tests", 10, 2, 1),
    ),
    "not a summary": (
        "Compiled 3 files; 0 errors\nServer OK\nok, done; all tests look fine\n"
        "FAILED to fetch; retrying\nRan the migration in 3.2s\n",
        None,
    ),
}


@pytest.mark.parametrize("runner", sorted(RECORDED))
def test_recorded_output_of_each_runner(runner: str) -> None:
    output, expected = RECORDED[runner]
    found = scan(output.encode())
    assert found == ([expected] if expected else [])
    assert scan(output.encode(), 3) == found


def test_describe_names_what_is_not_zero() -> None:
    assert describe(counts("pytest", 12, skipped=1)) == "12 passed, 1 skipped (pytest)"
    assert describe(counts("jest", 0, 2, 0, 3)) == "0 passed, 2 failed, 3 errors (jest)"


# --- configuration ---------------------------------------------------------------


def validate_json(run_forge: RunForge, *commands: str) -> tuple[int, list[dict[str, object]]]:
    args = [arg for command in commands for arg in ("--command", command)]
    completed = run_forge("validate", *args, "--json")
    return completed.returncode, json.loads(completed.stdout)["results"]


def test_the_cli_reports_counts_and_fails_a_run_of_no_test(
    run_forge: RunForge, project: Path
) -> None:
    write(project, {"test_math.py": ALL_SKIPPED_PYTEST})
    code, results = validate_json(run_forge, PYTEST)
    assert code == 1
    assert results[0]["tests"] == {
        "runner": "pytest",
        "passed": 0,
        "failed": 0,
        "skipped": 2,
        "errors": 0,
    }
    assert results[0]["message"] == "ran no test: 0 passed, 2 skipped (pytest)"
    text = run_forge("validate", "--command", PYTEST)
    assert "ran no test: 0 passed, 2 skipped (pytest)" in text.stdout


def test_junit_and_sarif_carry_the_counts(run_forge: RunForge, project: Path) -> None:
    import xml.etree.ElementTree as ET

    from forge_testing import assert_valid_sarif

    write(project, {"test_math.py": PYTEST_SUITE, "test_skipped.py": ALL_SKIPPED_UNITTEST})
    skipped_only = f"{UNITTEST} test_skipped"
    commands = ["--command", PYTEST, "--command", skipped_only]
    junit = run_forge("validate", *commands, "--format", "junit")
    assert junit.returncode == 1, junit.stderr
    cases = {case.get("name"): case for case in ET.fromstring(junit.stdout).iter("testcase")}
    properties = {
        name: {p.get("name"): p.get("value") for p in case.iter("property")}
        for name, case in cases.items()
    }
    assert properties[PYTEST] == {
        "tests.runner": "pytest",
        "tests.passed": "2",
        "tests.failed": "0",
        "tests.skipped": "3",
        "tests.errors": "0",
    }
    failure = cases[skipped_only].find("failure")
    assert failure is not None
    assert failure.get("message") == "ran no test: 0 passed, 2 skipped (unittest)"

    sarif = run_forge("validate", *commands, "--format", "sarif")
    log = json.loads(sarif.stdout)
    assert_valid_sarif(log)
    [notification] = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notification["message"]["text"].endswith("ran no test: 0 passed, 2 skipped (unittest)")
    assert notification["properties"]["tests"] == {
        "runner": "unittest",
        "passed": 0,
        "failed": 0,
        "skipped": 2,
        "errors": 0,
    }


def test_min_tests_requires_more_than_one(run_forge: RunForge, project: Path) -> None:
    write(project, {"test_math.py": PYTEST_SUITE})
    (project / "pyproject.toml").write_text("[tool.forge]\nmin-tests = 3\n", encoding="utf-8")
    code, results = validate_json(run_forge, PYTEST)
    assert code == 1
    assert results[0]["message"] == (
        "ran 2 tests, fewer than min-tests = 3: 2 passed, 1 skipped (pytest)"
    )
    (project / "pyproject.toml").write_text("[tool.forge]\nmin-tests = 2\n", encoding="utf-8")
    assert validate_json(run_forge, PYTEST)[0] == 0


def test_min_tests_zero_turns_the_rule_off(run_forge: RunForge, project: Path) -> None:
    write(project, {"test_math.py": ALL_SKIPPED_PYTEST})
    (project / "pyproject.toml").write_text("[tool.forge]\nmin-tests = 0\n", encoding="utf-8")
    code, results = validate_json(run_forge, PYTEST)
    assert code == 0, results
    assert results[0]["tests"]["skipped"] == 2  # type: ignore[index]


def test_an_exempt_command_is_judged_by_its_exit_code(run_forge: RunForge, project: Path) -> None:
    write(project, {"test_math.py": ALL_SKIPPED_PYTEST})
    other = "echo 'Summary: 0 passed, 0 failed'"
    (project / "pyproject.toml").write_text(
        f'[tool.forge]\ntests-exempt = ["* -m pytest *", {json.dumps(other)}]\n',
        encoding="utf-8",
    )
    code, results = validate_json(run_forge, PYTEST, other, "echo '0 passed, 1 failed'")
    assert code == 1
    assert [result["passed"] for result in results] == [True, True, False]
    assert results[0]["tests"] is not None  # still reported
    assert (
        results[2]["message"] == "tests failed but the command exited 0: 0 passed, 1 failed (tests)"
    )


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        ("min-tests = -1", "min-tests"),
        ('min-tests = "many"', "min-tests"),
        ('tests-exempt = "pytest"', "tests-exempt"),
    ],
)
def test_bad_settings_are_a_usage_error(
    run_forge: RunForge, project: Path, setting: str, says: str
) -> None:
    (project / "pyproject.toml").write_text(f"[tool.forge]\n{setting}\n", encoding="utf-8")
    completed = run_forge("validate", "--command", "true")
    assert completed.returncode == 2
    assert says in completed.stderr and len(completed.stderr.strip().splitlines()) == 1


@pytest.mark.anyio
async def test_the_mcp_validate_result_carries_the_counts(project: Path) -> None:
    from forge_testing import forge_executable
    from mcp import Client
    from mcp_client import call, stdio_parameters

    write(project, {"test_math.py": PYTEST_SUITE, "test_skipped.py": ALL_SKIPPED_UNITTEST})
    skipped_only = f"{UNITTEST} test_skipped"
    params = stdio_parameters(project, forge_executable(), "serve")
    async with Client(params) as client:
        report = await call(
            client, "validate", {"moduleId": "m1", "commands": [PYTEST, skipped_only]}
        )
    first, second = report["results"]
    assert first["passed"] is True
    assert first["tests"] == {
        "runner": "pytest",
        "passed": 2,
        "failed": 0,
        "skipped": 3,
        "errors": 0,
    }
    assert second["passed"] is False
    assert second["message"] == "ran no test: 0 passed, 2 skipped (unittest)"
    assert report["recommendation"] == "RETRY"


# --- jest, vitest and mocha from the npm registry -----------------------------------

JS_PACKAGES = ("jest@30", "vitest@4", "mocha@12")


@pytest.fixture(scope="module")
def js_runners(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with jest, vitest and mocha installed from npm; skips without npm or network."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    root = tmp_path_factory.mktemp("js-runners")
    (root / "package.json").write_text('{"name": "runners", "private": true}\n', encoding="utf-8")
    try:
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", *JS_PACKAGES],
            cwd=root,
            capture_output=True,
            check=True,
            timeout=600,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"npm install failed (no network?): {exc}")
    return root


def js_project(runners: Path, name: str, files: dict[str, str]) -> Path:
    project = runners / name
    project.mkdir()
    (project / "package.json").write_text(f'{{"name": "{name}"}}\n', encoding="utf-8")
    return write(project, files)


JEST_SUITE = """\
test("adds", () => expect(1 + 1).toBe(2));
test("subtracts", () => expect(2 - 1).toBe(1));
test.skip("multiplies", () => expect(1).toBe(2));
test.todo("divides");
"""

VITEST_SUITE = 'import { test, expect } from "vitest";\n' + JEST_SUITE

MOCHA_SUITE = """\
const assert = require("node:assert");
describe("math", () => {
  it("adds", () => assert.equal(1 + 1, 2));
  it.skip("multiplies", () => assert.fail());
});
"""


@pytest.mark.slow
def test_jest_vitest_and_mocha_from_npm(js_runners: Path) -> None:
    bin_dir = js_runners / "node_modules" / ".bin"
    jest, vitest, mocha = (shlex.quote(str(bin_dir / name)) for name in ("jest", "vitest", "mocha"))

    cases = [
        ("jest", {"math.test.js": JEST_SUITE}, f"{jest} --ci", True, counts("jest", 2, skipped=2)),
        (
            "jest-skipped",
            {"math.test.js": "test.skip('a', () => {});\ntest.skip('b', () => {});\n"},
            f"{jest} --ci",
            "ran no test: 0 passed, 2 skipped (jest)",
            counts("jest", 0, skipped=2),
        ),
        (
            "jest-empty",
            {"index.js": "module.exports = 1;\n"},
            f"{jest} --ci --passWithNoTests",
            "ran no test: no test found (jest)",
            counts("jest", 0),
        ),
        (
            "jest-failing",
            {"math.test.js": JEST_SUITE + "test('breaks', () => expect(1).toBe(2));\n"},
            f"{jest} --ci || true",
            "tests failed but the command exited 0: 2 passed, 1 failed, 2 skipped (jest)",
            counts("jest", 2, failed=1, skipped=2),
        ),
        (
            "vitest",
            {"math.test.mjs": VITEST_SUITE},
            f"{vitest} run",
            True,
            counts("vitest", 2, skipped=2),
        ),
        (
            "vitest-empty",
            {"index.mjs": "export const x = 1;\n"},
            f"{vitest} run --passWithNoTests",
            "ran no test: no test found (vitest)",
            counts("vitest", 0),
        ),
        ("mocha", {"test/math.js": MOCHA_SUITE}, mocha, True, counts("mocha", 1, skipped=1)),
    ]
    for name, files, command, verdict, expected in cases:
        project = js_project(js_runners, name, {})
        for file, text in files.items():
            (project / file).parent.mkdir(parents=True, exist_ok=True)
            (project / file).write_text(text, encoding="utf-8")
        result = run_verify(command, project, timeout=120)
        assert result.tests == expected, (name, result.message, result.stdout, result.stderr)
        if verdict is True:
            assert result.passed, (name, result.message)
        else:
            assert result.passed is False and result.message == verdict, (name, result.message)
