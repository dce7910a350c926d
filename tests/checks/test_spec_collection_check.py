"""``spec_collection``: the base's spec tests, by id, are still collected (issue 39, cases 2 and 6).

Real git, real pytest collecting at the base (exported from git) and in the
worker's worktree, the installed CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_testing import git, repository_state
from run_evidence_testing import (
    CALC,
    PLAN,
    PLAN_PATH,
    TESTS,
    calc_project,
    failures,
    validate,
    verdict,
)

WITHOUT_MUL = TESTS.replace("\n\ndef test_mul():\n    assert mul(2, 3) == 6\n", "")


def spec_results(report: dict[str, object]) -> list[tuple[str, bool, str]]:
    results = report["results"]
    assert isinstance(results, list)
    return [
        (r["target"], r["passed"], r["message"]) for r in results if r["type"] == "spec_collection"
    ]


def _main_checkout(project: Path) -> dict[str, bytes]:
    state = repository_state(project)
    return {
        key: value
        for key, value in state.items()
        if not key.startswith(str(project.parent / "wt-calc"))
    }


def test_case_2_a_deleted_spec_test_fails_naming_it(project: Path) -> None:
    worktree = calc_project(project)
    (worktree / "tests" / "test_calc.py").write_text(WITHOUT_MUL, encoding="utf-8")
    before = _main_checkout(project)
    report = verdict(validate(project))
    assert report["recommendation"] != "PROCEED"
    ((target, passed, message),) = spec_results(report)
    assert (target, passed) == ("python -m pytest -q tests", False)
    assert "tests/test_calc.py::test_mul" in message
    assert "1 of the 2 spec tests of main" in message
    (result,) = [r for r in report["results"] if r["type"] == "spec_collection"]
    assert result["locations"][0]["path"] == "tests/test_calc.py"
    assert result["locations"][0]["line"] == 8
    # The base was collected from git objects: no checkout, no ref, no file of the user's moved.
    # (the verify command itself writes .pytest_cache in the worktree)
    assert _main_checkout(project) == before
    cached = list((project / ".forge" / "cache" / "spec-collection").glob("*.json"))
    assert len(cached) == 1


def test_case_6_a_conftest_dropping_the_test_fails(project: Path) -> None:
    worktree = calc_project(project)
    (worktree / "tests" / "conftest.py").write_text(
        "def pytest_collection_modifyitems(config, items):\n"
        "    items[:] = [i for i in items if 'mul' not in i.name]\n",
        encoding="utf-8",
    )
    report = verdict(validate(project))
    assert report["recommendation"] != "PROCEED"
    assert ("spec_collection", "python -m pytest -q tests") in [f[:2] for f in failures(report)]


@pytest.mark.parametrize(
    "option", ["--deselect tests/test_calc.py::test_mul", "-k 'not mul'", "-p no:randomly"]
)
def test_addopts_that_deselect_fail_and_harmless_ones_pass(project: Path, option: str) -> None:
    worktree = calc_project(project)
    (worktree / "src" / "calc.py").write_text(CALC, encoding="utf-8")
    (worktree / "pytest.ini").write_text(f"[pytest]\naddopts = {option}\n", encoding="utf-8")
    report = verdict(validate(project))
    ((_, passed, message),) = spec_results(report)
    assert passed == ("randomly" in option), message


@pytest.mark.parametrize(
    ("files", "why"),
    [
        (
            {"tests/test_calc.py": TESTS.replace("def test_mul", "def test_multiplication")},
            "renamed with its body",
        ),
        (
            {
                "tests/test_calc.py": WITHOUT_MUL,
                "tests/test_mul.py": "from src.calc import mul\n\n\n"
                "def test_mul_small():\n    assert mul(2, 3) == 6\n",
            },
            "moved to another file with its body",
        ),
        (
            {
                "tests/test_calc.py": "import pytest\n\n" + WITHOUT_MUL + "\n\n"
                "@pytest.mark.parametrize(('a', 'b', 'c'), [(2, 3, 6), (0, 5, 0)])\n"
                "def test_mul(a, b, c):\n    assert mul(a, b) == c\n"
            },
            "parametrized",
        ),
        (
            {"tests/test_calc.py": TESTS + "\n\ndef test_mul_zero():\n    assert mul(0, 3) == 0\n"},
            "a test added",
        ),
    ],
)
def test_honest_twins_rename_move_parametrize_add_pass(
    project: Path, files: dict[str, str], why: str
) -> None:
    worktree = calc_project(project)
    (worktree / "src" / "calc.py").write_text(CALC, encoding="utf-8")
    for name, text in files.items():
        (worktree / name).write_text(text, encoding="utf-8")
    done = validate(project)
    report = verdict(done)
    assert failures(report) == [], why
    ((_, passed, message),) = spec_results(report)
    assert passed and "all 2 spec tests of main" in message, message
    assert report["recommendation"] == "PROCEED"


def test_a_test_renamed_and_changed_is_missing(project: Path) -> None:
    worktree = calc_project(project)
    renamed = TESTS.replace(
        "def test_mul():\n    assert mul(2, 3) == 6", "def test_m():\n    assert mul(2, 3)"
    )
    (worktree / "tests" / "test_calc.py").write_text(renamed, encoding="utf-8")
    ((_, passed, message),) = spec_results(verdict(validate(project)))
    assert not passed and "test_mul" in message


def test_spec_changes_in_the_plan_allow_the_named_test_to_go(project: Path) -> None:
    plan = json.loads(json.dumps(PLAN))
    plan["modules"][0]["specChanges"] = ["tests/test_calc.py::test_mul"]
    worktree = calc_project(project)
    (project / PLAN_PATH).write_text(json.dumps(plan), encoding="utf-8")
    git(project, "commit", "-qam", "orchestrator: test_mul may go")
    git(worktree, "rebase", "-q", "main")
    (worktree / "src" / "calc.py").write_text(CALC, encoding="utf-8")
    (worktree / "tests" / "test_calc.py").write_text(WITHOUT_MUL, encoding="utf-8")
    ((_, passed, message),) = spec_results(verdict(validate(project)))
    assert passed, message


def test_a_base_that_cannot_be_collected_is_skipped_never_passed(project: Path) -> None:
    worktree = calc_project(project)
    # The base's tests import a module only the work has: pytest cannot collect them there.
    (project / "tests" / "test_calc.py").write_text(
        "from src.extra import X\n" + TESTS, encoding="utf-8"
    )
    git(project, "commit", "-qam", "tests need src/extra")
    git(worktree, "rebase", "-q", "main")
    (worktree / "src" / "extra.py").write_text("X = 1\n", encoding="utf-8")
    report = verdict(validate(project))
    (result,) = [r for r in report["results"] if r["type"] == "spec_collection"]
    assert result["skipped"] is True
    assert result["message"].startswith("cannot collect the spec tests at main")


def test_a_verify_without_pytest_has_no_result(project: Path) -> None:
    calc_project(project)
    done = validate(project)
    assert spec_results(verdict(done))
    plan = json.loads(json.dumps(PLAN))
    plan["modules"][0]["verify"] = ["python -c 'import src.calc'"]
    (project / PLAN_PATH).write_text(json.dumps(plan), encoding="utf-8")
    assert spec_results(verdict(validate(project))) == []
