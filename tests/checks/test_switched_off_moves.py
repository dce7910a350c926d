"""``switched_off`` and ``spec_tests`` on honest edits: tests moved with their skips, new
tests skipped on a condition. A real git repository (the base committed, the work in the
tree) and the installed CLI.

A skip counts only when it switches off a test that exists at the base (a spec test,
wherever it moved to) and that was not skipped the same way there. A new test skipped on a
condition (the platform, a module that may be missing) is honest; an unconditional skip of
a new test, or of a moved spec test, still fails.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from forge_testing import commit, git

if TYPE_CHECKING:
    from forge_testing import RunForge

PY_BASE = """\
import sys

import pytest


def test_read():
    assert read("a") == "a"


@pytest.mark.skipif(sys.platform == "win32", reason="posix paths")
def test_posix_path():
    assert path("/a") == "/a"


@pytest.mark.skip(reason="flaky on CI for years")
def test_flaky():
    assert fetch() == 1
"""
PY_LEFT = """\
def test_read():
    assert read("a") == "a"
"""
#: test_posix_path and test_flaky moved to a new file with their markers, one renamed.
PY_MOVED = """\
import sys

import pytest


@pytest.mark.skipif(sys.platform == "win32", reason="posix paths")
def test_posix_path():
    assert path("/a") == "/a"


@pytest.mark.skip(reason="flaky on CI for years")
def test_fetch_is_flaky():
    assert fetch() == 1
"""
#: New tests skipped on a condition, in the existing file and in a new one.
PY_NEW_IN_OLD_FILE = (
    PY_BASE
    + """

@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_symlink():
    assert link("a") == "a"
"""
)
PY_NEW_FILE = """\
import sys
import unittest

import pytest

yaml = pytest.importorskip("yaml")


@pytest.mark.skipif(not hasattr(sys, "getwindowsversion"), reason="windows only")
def test_drive_letters():
    assert drive("C:/a") == "C"


@pytest.mark.xfail(sys.version_info < (3, 12), reason="needs 3.12's parser")
def test_new_syntax():
    assert parse("type X = int")


class TestYaml(unittest.TestCase):
    @unittest.skipUnless(hasattr(yaml, "CLoader"), "needs libyaml")
    def test_fast_load(self):
        self.assertEqual(yaml.load("a: 1", Loader=yaml.CLoader), {"a": 1})
"""


def _switched_off(
    run_forge: RunForge, project: Path, base: dict[str, str], work: dict[str, str | None]
) -> dict[str, Any]:
    """``forge validate --files <work's files> --base HEAD``: the switched_off results by file."""
    git(project, "init", "-q", "-b", "main")
    commit(project, base, "base")
    for name, text in work.items():
        path = project / name
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    listed = [name for name, text in work.items() if text is not None]
    completed = run_forge("validate", "--files", *listed, "--base", "HEAD", "--json")
    assert completed.returncode in {0, 1}, completed.stderr
    report = json.loads(completed.stdout)
    return {r["target"]: r for r in report["results"] if r["type"] == "switched_off"}


def test_tests_moved_to_a_new_file_with_their_skips_pass(
    run_forge: RunForge, project: Path
) -> None:
    work = {"tests/test_io.py": PY_LEFT, "tests/test_paths.py": PY_MOVED}
    results = _switched_off(run_forge, project, {"tests/test_io.py": PY_BASE}, work)
    assert set(results) == {"tests/test_io.py", "tests/test_paths.py"}
    assert all(r["passed"] for r in results.values()), results


def test_a_moved_spec_test_newly_skipped_fails(run_forge: RunForge, project: Path) -> None:
    moved = PY_MOVED + '\n\n@pytest.mark.skip(reason="later")\ndef test_read():\n'
    moved += '    assert read("a") == "a"\n'
    work = {"tests/test_io.py": "", "tests/test_paths.py": moved}
    results = _switched_off(run_forge, project, {"tests/test_io.py": PY_BASE}, work)
    result = results["tests/test_paths.py"]
    assert not result["passed"]
    assert result["message"] == "1 test switched off: test_read: @pytest.mark.skip added"
    assert [(p["line"], p["column"]) for p in result["locations"]] == [(16, 2)]


def test_a_moved_and_renamed_spec_test_newly_skipped_fails(
    run_forge: RunForge, project: Path
) -> None:
    moved = PY_MOVED + "\n\n@pytest.mark.skipif(True, reason='later')\ndef test_reads_a_file():\n"
    moved += '    assert read("a") == "a"\n'
    work = {"tests/test_io.py": "", "tests/test_paths.py": moved}
    results = _switched_off(run_forge, project, {"tests/test_io.py": PY_BASE}, work)
    result = results["tests/test_paths.py"]
    assert result["message"] == (
        "1 test switched off: test_reads_a_file: @pytest.mark.skipif added"
    )


def test_a_moved_spec_test_emptied_fails_and_a_new_test_without_assertion_passes(
    run_forge: RunForge, project: Path
) -> None:
    moved = PY_MOVED + '\n\ndef test_read():\n    read("a")\n\n\ndef test_smoke():\n    read("b")\n'
    work = {"tests/test_io.py": "", "tests/test_paths.py": moved}
    results = _switched_off(run_forge, project, {"tests/test_io.py": PY_BASE}, work)
    assert results["tests/test_paths.py"]["message"] == (
        "1 test switched off: test_read has no assertion"
    )


def test_new_tests_skipped_on_a_condition_pass(run_forge: RunForge, project: Path) -> None:
    work = {"tests/test_io.py": PY_NEW_IN_OLD_FILE, "tests/test_yaml.py": PY_NEW_FILE}
    results = _switched_off(run_forge, project, {"tests/test_io.py": PY_BASE}, work)
    assert all(r["passed"] for r in results.values()), results


def test_a_spec_test_newly_skipped_on_a_condition_still_fails(
    run_forge: RunForge, project: Path
) -> None:
    skipped = PY_BASE.replace(
        "def test_read", '@pytest.mark.skipif(sys.platform == "linux", reason="")\ndef test_read'
    )
    results = _switched_off(
        run_forge, project, {"tests/test_io.py": PY_BASE}, {"tests/test_io.py": skipped}
    )
    assert results["tests/test_io.py"]["message"] == (
        "1 test switched off: test_read: @pytest.mark.skipif added"
    )


def test_a_new_test_skipped_unconditionally_still_fails(run_forge: RunForge, project: Path) -> None:
    new = PY_BASE + '\n\n@pytest.mark.skip(reason="later")\ndef test_write():\n    assert write()\n'
    results = _switched_off(
        run_forge, project, {"tests/test_io.py": PY_BASE}, {"tests/test_io.py": new}
    )
    assert results["tests/test_io.py"]["message"] == (
        "1 test switched off: test_write: @pytest.mark.skip added"
    )


JS_BASE = """\
const { test } = require("node:test");
const assert = require("node:assert");
const { read, path } = require("../src/io");

test("reads", () => {
  assert.strictEqual(read("a"), "a");
});

test("posix paths", { skip: process.platform === "win32" }, () => {
  assert.strictEqual(path("/a"), "/a");
});

test.skip("flaky", () => {
  assert.strictEqual(fetch(), 1);
});
"""
JS_LEFT = JS_BASE[: JS_BASE.index('test("posix paths"')]
JS_MOVED = """\
const { test } = require("node:test");
const assert = require("node:assert");
const { path } = require("../src/io");

test("posix paths", { skip: process.platform === "win32" }, () => {
  assert.strictEqual(path("/a"), "/a");
});

test.skip("flaky", () => {
  assert.strictEqual(fetch(), 1);
});
"""
VITEST_BASE = """\
import { describe, expect, it, test } from "vitest";
import { link, read } from "../src/io";

test("reads", () => {
  expect(read("a")).toBe("a");
});
"""
VITEST_NEW = (
    VITEST_BASE
    + """
test.skipIf(process.platform === "win32")("symlinks", () => {
  expect(link("a")).toBe("a");
});

describe.runIf(process.env.NETWORK)("remote", () => {
  it("fetches", () => {
    expect(read("http://x")).toBe("x");
  });
});
"""
)


def test_js_tests_moved_with_their_skips_pass(run_forge: RunForge, project: Path) -> None:
    work = {"test/io.test.js": JS_LEFT, "test/paths.test.js": JS_MOVED}
    results = _switched_off(run_forge, project, {"test/io.test.js": JS_BASE}, work)
    assert set(results) == set(work)
    assert all(r["passed"] for r in results.values()), results


def test_a_moved_js_spec_test_newly_skipped_fails(run_forge: RunForge, project: Path) -> None:
    moved = JS_MOVED + '\ntest.skip("reads", () => {\n  assert.strictEqual(read("a"), "a");\n});\n'
    work = {"test/io.test.js": None, "test/paths.test.js": moved}
    results = _switched_off(run_forge, project, {"test/io.test.js": JS_BASE}, work)
    assert results["test/paths.test.js"]["message"] == (
        "1 test switched off: reads: test.skip added"
    )


def test_new_js_tests_skipped_on_a_condition_pass(run_forge: RunForge, project: Path) -> None:
    node_new = JS_BASE + (
        '\ntest("symlinks", { skip: process.platform === "win32" }, () => {\n'
        '  assert.strictEqual(read("l"), "a");\n});\n'
    )
    base = {"test/io.test.js": JS_BASE, "test/calc.test.ts": VITEST_BASE}
    work = {"test/io.test.js": node_new, "test/calc.test.ts": VITEST_NEW}
    results = _switched_off(run_forge, project, base, work)
    assert set(results) == set(work)
    assert all(r["passed"] for r in results.values()), results


@pytest.mark.parametrize(
    ("work", "message"),
    [
        (
            VITEST_BASE.replace('test("reads"', 'test.skipIf(true)("reads"'),
            "1 test switched off: reads: test.skipIf(...) added",
        ),
        (
            VITEST_BASE.replace('test("reads"', 'test.skipIf(process.env.CI)("reads"'),
            "1 test switched off: reads: test.skipIf(...) added",
        ),
    ],
)
def test_a_js_spec_test_newly_skipped_if_fails(
    run_forge: RunForge, project: Path, work: str, message: str
) -> None:
    base = {"test/calc.test.ts": VITEST_BASE}
    results = _switched_off(run_forge, project, base, {"test/calc.test.ts": work})
    assert results["test/calc.test.ts"]["message"] == message


# --- spec_tests: a plan module whose test files sit in mayChange, not in files -----------

CALC = "def mul(a, b):\n    return a * b\n"
CALC_TESTS = """\
import sys

import pytest

from src.calc import mul


def test_mul():
    assert mul(2, 3) == 6


def test_mul_by_zero():
    assert mul(2, 0) == 0
"""
PLAN = {
    "modules": [
        {
            "id": "calc",
            "title": "Calc",
            "objective": "Multiplication works.",
            "files": ["src/calc.py"],
            "mayChange": ["tests/**"],
            "verify": ["python -m pytest -q -p no:cacheprovider tests"],
            "doneWhen": "The tests pass.",
        }
    ]
}


def _spec_tests(run_forge: RunForge, project: Path, work: dict[str, str]) -> list[Any]:
    """``forge validate --plan P --module calc --base main``: the spec_tests results."""
    git(project, "init", "-q", "-b", "main")
    plan = project / ".forge" / "plans" / "p.json"
    plan.parent.mkdir(parents=True)
    plan.write_text(json.dumps(PLAN), encoding="utf-8")
    files = {".gitignore": ".forge/\n", "src/calc.py": CALC, "tests/test_calc.py": CALC_TESTS}
    commit(project, files, "base")
    git(project, "checkout", "-q", "-b", "work")
    for name, text in work.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    args = ["validate", "--plan", ".forge/plans/p.json", "--module", "calc", "--base", "main"]
    completed = run_forge(*args, "--json", env={"PATH": path})
    assert completed.returncode in {0, 1}, completed.stderr
    return [r for r in json.loads(completed.stdout)["results"] if r["type"] == "spec_tests"]


def test_a_new_spec_file_test_skipped_on_a_condition_passes_spec_tests(
    run_forge: RunForge, project: Path
) -> None:
    new = CALC_TESTS + (
        '\n\n@pytest.mark.skipif(sys.platform == "win32", reason="posix")\n'
        "def test_mul_big():\n    assert mul(10**6, 10**6) == 10**12\n"
    )
    results = _spec_tests(run_forge, project, {"tests/test_calc.py": new})
    assert results and all(r["passed"] for r in results), results


def test_a_spec_test_moved_out_of_the_spec_files_and_skipped_fails_spec_tests(
    run_forge: RunForge, project: Path
) -> None:
    left = CALC_TESTS.replace("def test_mul():\n    assert mul(2, 3) == 6\n\n\n", "")
    moved = "import pytest\n\nfrom src.calc import mul\n\n\n@pytest.mark.skip\n"
    moved += "def test_mul():\n    assert mul(2, 3) == 6\n"
    work = {"tests/test_calc.py": left, "tests/test_mul.py": moved}
    results = _spec_tests(run_forge, project, work)
    failing = [
        (r["target"], p["line"], p["message"])
        for r in results
        if not r["passed"]
        for p in r["locations"]
    ]
    assert failing == [("tests/test_mul.py", 6, "turned_off: test_mul: @pytest.mark.skip added")]
