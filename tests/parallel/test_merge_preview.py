"""The merge preview through the MCP tool: conflicts, integration breaks, stale work, untouched repo."""

from __future__ import annotations

from pathlib import Path

import pytest
from forge_testing import Worker, commit, forge_executable, git, repository_state, write_plan
from forge_testing import plan_module as module
from mcp import Client
from mcp_client import call, call_error, connect, stdio_parameters

pytestmark = pytest.mark.anyio


async def test_two_branches_that_each_pass_but_conflict_are_reported_with_the_file(
    repo: Path, worker: Worker
) -> None:
    write_plan(repo, [module("left", ["config.py"]), module("right", ["config.py", "extra.py"])])
    worker("left", {"config.py": "NAME = 'app'\nLIMIT = 20\n"})
    worker("right", {"config.py": "NAME = 'app'\nLIMIT = 30\n", "extra.py": "X = 1\n"})
    before = repository_state(repo)
    async with connect(repo) as client:
        report = await call(client, "merge_check", {})
    assert repository_state(repo) == before
    assert report["passed"] is False
    assert report["order"] == ["left", "right"]
    [conflict] = report["conflicts"]
    assert conflict["files"] == ["config.py"]
    assert conflict["modules"] == ["left", "right"]
    assert conflict["withBase"] is False
    assert conflict["kinds"] == ["CONFLICT (contents)"]
    assert "left and right both change it" in conflict["message"]
    merged = {m["moduleId"]: m["merged"] for m in report["modules"]}
    assert merged == {"left": True, "right": False}
    sources = {m["moduleId"]: (m["source"], m["ref"]) for m in report["modules"]}
    assert sources == {"left": ("worktree", "forge/left"), "right": ("worktree", "forge/right")}


async def test_a_renamed_export_another_branch_starts_using_is_an_integration_break(
    repo: Path, worker: Worker
) -> None:
    write_plan(repo, [module("rename", ["api.py", "app.py"]), module("use", ["stats.py"])])
    worker(
        "rename",
        {
            "api.py": "def sum_total(items):\n    return sum(items)\n",
            "app.py": "from api import sum_total\n\nprint(sum_total([1, 2]))\n",
        },
    )
    worker(
        "use",
        {"stats.py": "from api import total\n\n\ndef mean(xs):\n    return total(xs) / len(xs)\n"},
    )
    before = repository_state(repo)
    # Over stdio, against the installed forge serve, as an orchestrator calls it.
    async with Client(stdio_parameters(repo, forge_executable(), "serve")) as client:
        report = await call(client, "merge_check", {"baseRef": "main"})
    assert repository_state(repo) == before
    assert report["conflicts"] == [] and report["passed"] is False
    [broken] = report["integrationBreaks"]
    assert broken["type"] == "contract_check"
    assert broken["modules"] == ["rename", "use"]
    assert set(broken["files"]) == {"api.py", "stats.py"}
    assert "total" in broken["message"]
    assert [(place["path"], place["line"]) for place in broken["locations"]] == [("stats.py", 1)]
    assert report["checkedFiles"] >= 3
    assert (
        report["mergedCommit"] and git(repo, "cat-file", "-t", report["mergedCommit"]) == "commit"
    )


async def test_branches_that_fit_together_pass_and_stale_work_is_named(
    repo: Path, worker: Worker
) -> None:
    write_plan(repo, [module("one", ["one.py"]), module("two", ["two.py"], dependsOn=["one"])])
    worker("two", {"two.py": "from one import ONE\n\nTWO = ONE + 1\n"})
    worker("one", {"one.py": "ONE = 1\n"})
    commit(repo, {"README.md": "moved on\n"}, "main moves on")
    async with connect(repo) as client:
        report = await call(client, "merge_check", {"checks": True})
    assert report["passed"] is True, report
    assert report["order"] == ["one", "two"]  # dependency order, whatever was made first
    assert [(s["moduleId"], s["behind"]) for s in report["stale"]] == [("one", 1), ("two", 1)]
    assert "rebase it on the base" in report["stale"][0]["message"]
    assert report["integrationBreaks"] == []


async def test_work_is_found_from_arguments_the_plan_and_the_session(
    repo: Path, worker: Worker
) -> None:
    write_plan(
        repo,
        [
            module("a", ["a.py"], branch="topic/a"),
            module("b", ["b.py"]),
            module("c", ["c.py"]),
            module("d", ["d.py"]),  # not started: its work is nowhere yet
        ],
    )
    git(repo, "branch", "topic/a", "main")
    folder = worker("b", {"b.py": "B = 1\n"})
    git(repo, "branch", "-m", "forge/b", "renamed-b")  # no longer found by its name
    git(repo, "branch", "c-work", "main")
    (repo / ".forge" / "state").mkdir(parents=True)
    (repo / ".forge" / "state" / "r1.json").write_text(
        f'{{"runId": "r1", "worktrees": {{"b": "{folder}"}}}}', encoding="utf-8"
    )
    (folder / "b.py").write_text("B = 2\n", encoding="utf-8")  # not committed
    async with connect(repo) as client:
        report = await call(client, "merge_check", {"runId": "r1", "branches": {"c": "c-work"}})
        missing = await call_error(client, "merge_check", {"modules": ["c"]})
        unknown = await call_error(client, "merge_check", {"modules": ["zz"]})
        stray = await call_error(client, "merge_check", {"branches": {"zz": "main"}})
        bad_ref = await call_error(client, "merge_check", {"branches": {"a": "no-such-branch"}})
        both = await call_error(client, "merge_check", {"layer": 1, "modules": ["a"]})
        layer = await call_error(client, "merge_check", {"layer": 9})
        layer_one = await call_error(client, "merge_check", {"layer": 1, "runId": "r1"})
    found = {m["moduleId"]: (m["source"], m["ref"]) for m in report["modules"]}
    assert found == {
        "a": ("plan", "topic/a"),
        "b": ("session", str(folder)),
        "c": ("argument", "c-work"),
    }
    b = next(m for m in report["modules"] if m["moduleId"] == "b")
    assert b["uncommitted"] == ["b.py"]
    assert any("uncommitted" in notice for notice in report["notices"])
    assert "not previewed, no branch or worktree found: d" in report["notices"]
    assert "no branch or worktree found for c" in missing
    assert "no module zz in the plan: its modules are a, b, c, d" in unknown
    assert stray == unknown  # a branch for a module the plan does not have
    assert "branches.a: 'no-such-branch' is neither a commit" in bad_ref
    assert "give modules or a layer, not both" in both
    assert "layer 9: the plan has layers 1 to 1" in layer
    assert "no branch or worktree found for c, d" in layer_one  # named: all must be found


async def test_outside_git_the_tool_says_so_in_one_line(project: Path) -> None:
    async with connect(project) as client:
        message = await call_error(client, "merge_check", {"branches": {"a": "main"}})
    assert "is not in a git repository" in message


async def test_a_finding_one_branch_has_on_its_own_is_not_an_integration_break(
    repo: Path, worker: Worker
) -> None:
    write_plan(repo, [module("broken", ["bad.py"]), module("fine", ["good.py"])])
    worker("broken", {"bad.py": "from api import nothing_like_it\n"})
    worker("fine", {"good.py": "from api import total\n"})
    async with connect(repo) as client:
        report = await call(client, "merge_check", {})
    assert report["integrationBreaks"] == []
    assert report["passed"] is True
