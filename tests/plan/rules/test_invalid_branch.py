"""The ``invalid_branch`` rule: a module's ``branch`` git would read as an option."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from forge_testing import RunForge, git, one_line_error, python_repo, worker_commit, write_plan
from forge_testing import plan_module as module

Make = Callable[..., dict[str, object]]


def test_a_branch_starting_with_a_dash_is_an_error(
    project: Path, run_forge: RunForge, make_module: Make
) -> None:
    plan = {
        "modules": [
            make_module("api", branch="--output=/tmp/owned"),
            make_module("web", branch="forge/web"),
            make_module("cli", branch="./-cli"),  # a folder of that name, said the safe way
        ]
    }
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = run_forge("plan", "check", "plan.json")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        'plan.json: error: module "api": branch "--output=/tmp/owned" starts with "-", so '
        "git would read it as an option: give the branch, tag or commit (or ./--output=/tmp/owned "
        "for a folder)  [invalid_branch]",
        "1 plan checked: 1 invalid (1 error, 0 warnings)",
    ]
    report = json.loads(run_forge("plan", "check", "plan.json", "--json").stdout)
    [error] = report["plans"][0]["errors"]
    assert (error["modules"], error["field"]) == (["api"], "branch")


def test_merge_check_never_hands_such_a_branch_to_git(project: Path, run_forge: RunForge) -> None:
    repo = python_repo(project)
    write_plan(repo, [module("api", ["api.py"], branch="--output=owned.txt")])
    worker_commit(repo, "api", {"api.py": "def total(items):\n    return sum(items) + 0\n"})
    error = one_line_error(run_forge("merge", "check", "--no-checks"))
    assert "the plan's api.branch: '--output=owned.txt' is not a revision" in error
    given = run_forge("merge", "check", "--no-checks", "--branch", "api=-p")
    assert "branches.api: '-p' is not a revision" in one_line_error(given)
    assert not (repo / "owned.txt").exists()
    assert git(repo, "status", "--porcelain") == ""


def test_a_branch_with_a_line_break_is_refused_in_one_escaped_line(
    project: Path, run_forge: RunForge, make_module: Make
) -> None:
    """validate refuses a plan with an error in one line: the branch was quoted raw, so a
    newline split the error and an escape sequence in it reached the terminal."""
    branch = "-x\ny\x1b[31m"
    plan = {"modules": [make_module("api", branch=branch)]}
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    error = one_line_error(run_forge("validate", "--plan", "plan.json", "--module", "api"))
    assert "\x1b" not in error
    assert r'branch "-x\ny\x1b[31m" starts with "-"' in error
