"""The plan is the orchestrator's (issue 39, case 10): a worker's branch that edits it fails.

Real git, a worker's worktree, the installed CLI run from the project with
``--cwd ../wt-calc``: the verdict, and ``lane_check`` naming the plan fields changed.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from forge_testing import commit, forge_executable, git
from run_evidence_testing import (
    CALC,
    PLAN,
    PLAN_PATH,
    calc_project,
    environment,
    validate,
    verdict,
)

from forge.plan.plan_edits import changed_fields

WEAK_VERIFY = 'python -c "from src.calc import mul; assert mul(2, 3)"'


def lane(report: dict[str, Any]) -> list[tuple[str, bool, str]]:
    return [
        (r["target"], r["passed"], r["message"])
        for r in report["results"]
        if r["type"] == "lane_check"
    ]


def with_module(**fields: object) -> dict[str, Any]:
    plan: dict[str, Any] = json.loads(json.dumps(PLAN))
    plan["modules"][0].update(fields)
    return plan


def use_plan(project: Path, worktree: Path, plan: dict[str, Any]) -> None:
    """The orchestrator's plan on main, the worker's branch rebased onto it."""
    (project / PLAN_PATH).write_text(json.dumps(plan, indent=2), encoding="utf-8")
    git(project, "commit", "-qam", "orchestrator: plan")
    git(worktree, "rebase", "-q", "main")


@pytest.mark.parametrize("may_change", [["tests/**"], ["**"], ["tests/**", ".forge/**"]])
def test_case_10_a_weakened_plan_in_the_workers_branch_fails_naming_the_field(
    project: Path, may_change: list[str]
) -> None:
    worktree = calc_project(project)
    use_plan(project, worktree, with_module(mayChange=may_change))
    weakened = with_module(mayChange=may_change, verify=[WEAK_VERIFY])
    commit(worktree, {PLAN_PATH: json.dumps(weakened, indent=2)}, "plan: lighter verify")
    report = verdict(validate(project))
    assert report["recommendation"] != "PROCEED"
    found = [entry for entry in lane(report) if entry[0] == PLAN_PATH]
    assert len(found) == 1, lane(report)
    _, passed, message = found[0]
    assert not passed
    assert "the plan is the orchestrator's" in message
    assert "modules[calc].verify" in message
    assert "(committed)" in message


def test_an_uncommitted_plan_edit_and_a_new_plan_fail_too(project: Path) -> None:
    worktree = calc_project(project)
    (worktree / "src" / "calc.py").write_text(CALC, encoding="utf-8")
    (worktree / PLAN_PATH).write_text(
        json.dumps(with_module(objective="x", doneWhen="y")), encoding="utf-8"
    )
    (worktree / ".forge" / "plans" / "mine.json").write_text("{}", encoding="utf-8")
    git(worktree, "add", "-f", ".forge/plans/mine.json")
    report = verdict(validate(project))
    messages = {target: message for target, passed, message in lane(report) if not passed}
    assert "modules[calc].doneWhen, modules[calc].objective" in messages[PLAN_PATH]
    assert "(not committed)" in messages[PLAN_PATH]
    assert "(new file)" in messages[".forge/plans/mine.json"]
    assert report["recommendation"] != "PROCEED"


def test_honest_twins_no_plan_edit_or_a_lane_that_names_the_plan_pass(project: Path) -> None:
    worktree = calc_project(project)
    commit(worktree, {"src/calc.py": CALC}, "calc: fixed")
    report = verdict(validate(project))
    assert [passed for _, passed, _ in lane(report)] == [True]
    assert report["recommendation"] == "PROCEED"
    # A planning module whose lane names the plan file explicitly may edit it.
    use_plan(project, worktree, with_module(mayChange=["tests/**", PLAN_PATH]))
    commit(
        worktree,
        {PLAN_PATH: json.dumps(with_module(mayChange=["tests/**", PLAN_PATH], objective="z"))},
        "plan",
    )
    report = verdict(validate(project))
    assert [passed for _, passed, _ in lane(report)] == [True], lane(report)


def test_changed_fields_read_the_two_plans_by_module_id() -> None:
    old = {"objective": "a", "modules": [{"id": "m", "verify": ["x"]}, {"id": "n"}]}
    new = {"objective": "b", "modules": [{"id": "m", "verify": ["y"], "files": []}, {"id": "o"}]}
    found = changed_fields(json.dumps(old).encode(), json.dumps(new).encode())
    assert found == (
        "objective",
        "modules[m].files",
        "modules[m].verify",
        "modules[n] (removed)",
        "modules[o] (added)",
    )
    assert changed_fields(b"{}", b"not json") == ("(not a JSON object)",)
    assert changed_fields(None, b"{}") == ("(new file)",)
    assert changed_fields(b"{}", None) == ("(deleted)",)


def test_the_plan_the_call_reads_counts_wherever_it_lives(project: Path) -> None:
    worktree = calc_project(project)
    commit(
        project, {"plans/p.json": json.dumps(with_module(mayChange=["tests/**", "plans/**"]))}, "p"
    )
    git(worktree, "rebase", "-q", "main")
    weakened = with_module(mayChange=["tests/**", "plans/**"], verify=[WEAK_VERIFY])
    commit(worktree, {"plans/p.json": json.dumps(weakened)}, "plan: lighter verify")
    done = subprocess.run(
        [forge_executable(), "validate", "--plan", "plans/p.json", "--module", "calc",
         "--cwd", str(worktree), "--base", "main", "--json"],
        cwd=project, env=environment(), capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    report = verdict(done)
    messages = {target: message for target, passed, message in lane(report) if not passed}
    assert "modules[calc].verify" in messages["plans/p.json"]
    assert report["recommendation"] != "PROCEED"
