"""A run that ended before its summary is no pass (issue 39, case 7): real pytest, real CLI."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest
from forge_testing import npm_installed
from run_evidence_testing import CALC, PLAN_PATH, calc_project, failures, validate, verdict

from forge.checks.command_check import UNFINISHED
from forge.test_runs.command_run import run_command
from forge.test_runs.runners import expected_summaries

PYTHON = shlex.quote(sys.executable)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("python -m pytest -q tests", {"pytest": 1}),
        ("PYTHONPATH=src .venv/bin/python3 -m pytest", {"pytest": 1}),
        ("uv run pytest -x", {"pytest": 1}),
        ("timeout 60 pytest", {"pytest": 1}),
        ("coverage run -m pytest", {"pytest": 1}),
        ("pytest a && pytest b", {"pytest": 2}),
        ("pytest 2>&1 | tee log", {"pytest": 1}),
        ("pytest || true", {"pytest": 1}),
        ("npx jest", {"jest": 1}),
        ("npx vitest run", {"vitest": 1}),
        ("mocha test/", {"mocha": 1}),
        ("node --test", {"node": 1}),
        # Launchers read by the one reader spec_scope shares (forge.test_runs.command_line).
        ("xvfb-run -a npx mocha", {"mocha": 1}),
        ("npm exec -- vitest run", {"vitest": 1}),
        ("go test ./...", {"go": 1}),
        ("cargo test -q", {"cargo": 1}),
        # Where the summary may rightly be missing, nothing is expected.
        ("pytest -qq", {}),
        ("pytest -q -q", {}),
        ("pytest -p no:terminal", {}),
        ("pytest --collect-only -q", {}),
        ("pytest > log", {}),
        ("pytest | grep -c passed", {}),
        ("make test || pytest", {}),
        ("(pytest)", {}),
        ("if true; then pytest; fi", {}),
        ("echo $(pytest)", {}),
        ("npx jest --json", {}),
        ("jest 2>/dev/null", {}),
        ("mocha --reporter json", {}),
        ("node --test --test-reporter=dot", {}),
        ("go test -json ./...", {}),
        ("cargo test --no-run", {}),
        ("make test", {}),
        ("python -m unittest", {}),
    ],
)
def test_the_runners_a_command_line_starts(command: str, expected: dict[str, int]) -> None:
    assert dict(expected_summaries(command, Path("/nonexistent"))) == expected


def test_npm_test_is_read_through_package_json_and_its_arguments(tmp_path: Path) -> None:
    scripts = {"test": "npm run lint && mocha", "lint": "eslint .", "unit": "jest"}
    (tmp_path / "package.json").write_text(json.dumps({"scripts": scripts}), encoding="utf-8")
    assert dict(expected_summaries("npm test", tmp_path)) == {"mocha": 1}
    assert dict(expected_summaries("npm run unit", tmp_path)) == {"jest": 1}
    assert dict(expected_summaries("npm run unit -- --json", tmp_path)) == {}
    assert dict(expected_summaries("yarn jest", tmp_path)) == {"jest": 1}
    assert dict(expected_summaries("npm run lint", tmp_path)) == {}


def test_pytest_quiet_twice_counts_the_configs_addopts(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -q\n", encoding="utf-8")
    assert dict(expected_summaries("pytest -q", tmp_path)) == {}
    assert dict(expected_summaries("pytest", tmp_path)) == {"pytest": 1}
    (tmp_path / "pytest.ini").write_text("[pytest\n", encoding="utf-8")
    assert dict(expected_summaries("pytest", tmp_path)) == {}, "unreadable: unsure"


def test_a_mocha_config_naming_a_reporter_makes_the_summary_optional(tmp_path: Path) -> None:
    (tmp_path / ".mocharc.yml").write_text("reporter: json\n", encoding="utf-8")
    assert dict(expected_summaries("mocha", tmp_path)) == {}


def test_pytest_cut_short_by_os_exit_fails_and_its_honest_twin_passes(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text("def test_a():\n    assert True\n", encoding="utf-8")
    command = f"{PYTHON} -m pytest -q -p no:cacheprovider"
    honest = run_command(
        command,
        tmp_path,
        60,
        result_type="command",
        unfinished_message=UNFINISHED,
        summaries=expected_summaries(command, tmp_path),
    )
    assert honest.passed, honest.message
    (tmp_path / "conftest.py").write_text("import os\n\nos._exit(0)\n", encoding="utf-8")
    cut = run_command(
        command,
        tmp_path,
        60,
        result_type="command",
        unfinished_message=UNFINISHED,
        summaries=expected_summaries(command, tmp_path),
    )
    assert (cut.exit_code, cut.passed) == (0, False)
    assert cut.message.startswith(f"{UNFINISHED}: pytest printed none")
    # Without the expectation (an exempt command, a caller that knows no better) exit 0 decides.
    assert run_command(
        command,
        tmp_path,
        60,
        result_type="command",
        unfinished_message=UNFINISHED,
        summaries=Counter(),
    ).passed


def test_case_7_conftest_calling_os_exit_does_not_proceed(project: Path) -> None:
    worktree = calc_project(project)
    (worktree / "tests" / "conftest.py").write_text("import os\n\nos._exit(0)\n", encoding="utf-8")
    report = verdict(validate(project))
    assert report["recommendation"] != "PROCEED"
    assert ("command", "python -m pytest -q tests") in [f[:2] for f in failures(report)]
    (command,) = [f for f in failures(report) if f[0] == "command"]
    assert UNFINISHED in command[2]


def test_case_7_twin_an_honest_conftest_and_fixed_code_proceed(project: Path) -> None:
    worktree = calc_project(project)
    (worktree / "src" / "calc.py").write_text(CALC, encoding="utf-8")
    (worktree / "tests" / "conftest.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n", encoding="utf-8"
    )
    done = validate(project)
    report = verdict(done)
    assert failures(report) == [], done.stdout
    assert report["recommendation"] == "PROCEED"


NODE_SUITE = (
    'const test = require("node:test");\nconst assert = require("node:assert");\n'
    'test("adds", () => assert.equal(1 + 1, 2));\n'
)
MOCHA_SUITE = 'const assert = require("node:assert");\nit("adds", () => assert.equal(1 + 1, 2));\n'
EXIT_EARLY = "process.exit(0);\n"


def _judged(command: str, cwd: Path) -> tuple[bool, str]:
    done = run_command(
        command,
        cwd,
        120,
        result_type="command",
        unfinished_message=UNFINISHED,
        summaries=expected_summaries(command, cwd),
    )
    return done.passed, done.message


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_test_cut_short_by_a_required_setup_file_fails(tmp_path: Path) -> None:
    (tmp_path / "math.test.js").write_text(NODE_SUITE, encoding="utf-8")
    (tmp_path / "setup.js").write_text("globalThis.ready = true;\n", encoding="utf-8")
    scripts = {"test": "node --require ./setup.js --test"}
    (tmp_path / "package.json").write_text(json.dumps({"scripts": scripts}), encoding="utf-8")
    assert _judged("npm test", tmp_path)[0]
    (tmp_path / "setup.js").write_text(EXIT_EARLY, encoding="utf-8")
    passed, message = _judged("npm test", tmp_path)
    assert not passed and message.startswith(f"{UNFINISHED}: node printed none")


@pytest.mark.slow
def test_mocha_cut_short_by_process_exit_in_a_setup_file_fails(tmp_path: Path) -> None:
    mocha = shlex.quote(str(npm_installed("mocha@12") / "node_modules" / ".bin" / "mocha"))
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "math.js").write_text(MOCHA_SUITE, encoding="utf-8")
    (tmp_path / "setup.js").write_text("globalThis.ready = true;\n", encoding="utf-8")
    command = f"{mocha} --require ./setup.js"
    assert _judged(command, tmp_path)[0]
    (tmp_path / "setup.js").write_text(EXIT_EARLY, encoding="utf-8")
    passed, message = _judged(command, tmp_path)
    assert not passed and message.startswith(f"{UNFINISHED}: mocha printed none")


def test_a_pytest_run_with_subtests_has_its_summary_read(tmp_path: Path) -> None:
    """pytest 9 ends with "1 passed, 2 subtests passed in 0.01s": a summary, not its absence."""
    (tmp_path / "test_sub.py").write_text(
        "def test_each(subtests):\n"
        "    for n in (1, 2):\n"
        "        with subtests.test(n=n):\n"
        "            assert n\n",
        encoding="utf-8",
    )
    command = f"{PYTHON} -m pytest -q -p no:cacheprovider"
    done = run_command(
        command,
        tmp_path,
        60,
        result_type="command",
        unfinished_message=UNFINISHED,
        summaries=expected_summaries(command, tmp_path),
    )
    assert "subtests passed" in done.stdout, done.stdout
    assert done.passed, done.message
    assert done.tests is not None and done.tests.passed == 1


def test_an_acceptance_criterion_cut_short_fails_too(project: Path) -> None:
    worktree = calc_project(project)
    (worktree / "src" / "calc.py").write_text(CALC, encoding="utf-8")
    plan = json.loads((project / PLAN_PATH).read_text(encoding="utf-8"))
    plan["modules"][0]["verify"] = ["python -c 'import src.calc'"]
    plan["modules"][0]["acceptance_criteria"] = [
        {"check": "python -m pytest -q tests", "expected": "exit 0", "blocking": True}
    ]
    (project / PLAN_PATH).write_text(json.dumps(plan), encoding="utf-8")
    assert verdict(validate(project))["recommendation"] == "PROCEED"
    (worktree / "tests" / "conftest.py").write_text("import os\n\nos._exit(0)\n", encoding="utf-8")
    report = verdict(validate(project))
    assert report["recommendation"] != "PROCEED"
    (found,) = [f for f in failures(report) if f[0] == "acceptance"]
    assert UNFINISHED in found[2]


def test_pytest_addopts_from_the_line_or_the_environment_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert dict(expected_summaries("PYTEST_ADDOPTS=-q pytest -q", tmp_path)) == {}
    assert dict(expected_summaries("PYTEST_ADDOPTS=-v pytest -q", tmp_path)) == {"pytest": 1}
    monkeypatch.setenv("PYTEST_ADDOPTS", "--quiet")
    assert dict(expected_summaries("pytest -q", tmp_path)) == {}
