"""``lane_check``: a worker in its own worktree changes only its module's files (real git, real CLI)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_testing import RunForge, commit, git, repository_state
from mcp_client import call, connect

pytestmark = pytest.mark.anyio

PLAN = {
    "modules": [
        {
            "id": "api",
            "title": "API",
            "objective": "Serve the API.",
            "files": ["src/api.py"],
            "verify": ["test -f src/api.py"],
            "doneWhen": "The API module exists.",
            "mayChange": ["tests/**"],
            "disallowed_changes": ["src/legacy.py"],
        },
        {
            "id": "db",
            "title": "Database",
            "objective": "Store things.",
            "files": ["src/db.py"],
            "verify": ["test -f src/db.py"],
            "doneWhen": "The db module exists.",
        },
    ]
}


@pytest.fixture
def repo(project: Path) -> Path:
    """The project as a git repository with the plan, and a worktree for module api."""
    git(project, "init", "-q")
    (project / ".forge" / "plans").mkdir(parents=True)
    (project / ".forge" / "plans" / "plan.json").write_text(json.dumps(PLAN), encoding="utf-8")
    commit(
        project,
        {
            "pyproject.toml": '[tool.forge]\ngenerated = ["snapshots/**"]\n',
            "src/api.py": "def serve():\n    return 1\n",
            "src/db.py": "def store():\n    return 1\n",
            "src/legacy.py": "OLD = 1\n",
            "package-lock.json": "{}\n",
            ".gitignore": ".forge/\n",
        },
        "base",
    )
    git(project, "worktree", "add", "-q", "-b", "forge/api", str(project.parent / "wt-api"))
    return project


def worktree(repo: Path) -> Path:
    return repo.parent / "wt-api"


def lane_results(report: dict[str, object]) -> list[tuple[str, bool, str]]:
    results = report["results"]
    assert isinstance(results, list)
    return [(r["target"], r["passed"], r["message"]) for r in results if r["type"] == "lane_check"]


def test_a_worker_that_edits_another_modules_file_fails_with_both_names(
    repo: Path, run_forge: RunForge
) -> None:
    wt = worktree(repo)
    commit(wt, {"src/api.py": "def serve():\n    return 2\n"}, "api work")
    (wt / "src" / "db.py").write_text("def store():\n    return 2\n", encoding="utf-8")
    (wt / "tests").mkdir()
    (wt / "tests" / "test_api.py").write_text("def test():\n    pass\n", encoding="utf-8")
    (wt / "package-lock.json").write_text('{"lockfileVersion": 3}\n', encoding="utf-8")
    (wt / "snapshots").mkdir()
    (wt / "snapshots" / "api.txt").write_text("generated\n", encoding="utf-8")
    (wt / "README.md").write_text("notes\n", encoding="utf-8")
    before = repository_state(repo)
    done = run_forge(
        "validate", "--plan", ".forge/plans/plan.json", "--module", "api", "--cwd", str(wt),
        "--base", "main", "--json",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    lanes = lane_results(report)
    assert [(target, passed) for target, passed, _ in lanes] == [
        ("README.md", False),
        ("src/db.py", False),
    ]
    readme, db = (message for _, _, message in lanes)
    assert "outside module api's lane (its files and mayChange)" in readme
    assert "not committed" in db
    assert "module api's lane; it belongs to module db" in db
    assert repository_state(repo) == before


def test_disallowed_changes_fail_a_committed_change_and_the_lane_passes_otherwise(
    repo: Path, run_forge: RunForge
) -> None:
    wt = worktree(repo)
    commit(wt, {"src/api.py": "def serve():\n    return 2\n"}, "api work")
    args = ["validate", "--plan", ".forge/plans/plan.json", "--module", "api", "--cwd", str(wt)]
    passing = run_forge(*args, "--base", "main", "--json")
    assert passing.returncode == 0, passing.stdout
    (lane,) = lane_results(json.loads(passing.stdout))
    assert lane[:2] == ("(lane)", True)
    assert "1 changed file since" in lane[2]
    commit(wt, {"src/legacy.py": "OLD = 2\n"}, "touch legacy")
    failing = run_forge(*args, "--base", "main")
    assert failing.returncode == 1
    assert (
        "src/legacy.py: changed (committed), but module api's "
        "disallowed_changes forbid it (src/legacy.py): revert it"
    ) in failing.stdout
    assert "FAIL lane_check" in failing.stdout
    # Without a base there is nothing to compare against: no lane result at all.
    plain = run_forge(*args, "--json")
    assert lane_results(json.loads(plain.stdout)) == []


async def test_the_mcp_validate_tool_enforces_the_lane_of_the_runs_plan(repo: Path) -> None:
    wt = worktree(repo)
    (wt / "src" / "db.py").write_text("changed = True\n", encoding="utf-8")
    async with connect(repo) as client:
        report = await call(
            client,
            "validate",
            {"moduleId": "api", "runId": "r1", "cwd": str(wt), "baseRef": "main",
             "files": ["src/api.py"]},
        )  # fmt: skip
    assert report["passed"] is False
    [(target, passed, message)] = lane_results(report)
    assert (target, passed) == ("src/db.py", False)
    assert "belongs to module db" in message


def test_the_projects_own_checkout_has_no_lane(repo: Path, run_forge: RunForge) -> None:
    # Where every module's work meets (a plan run with --all, a CI job), no module
    # owns the working dir: another module's change there is no stray.
    (repo / "src" / "db.py").write_text("changed = True\n", encoding="utf-8")
    done = run_forge(
        "validate", "--plan", ".forge/plans/plan.json", "--module", "api", "--base", "main",
        "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout
    assert lane_results(json.loads(done.stdout)) == []


def test_bracket_globs_read_as_git_reads_them_in_plan_check_and_the_lane(
    repo: Path, run_forge: RunForge
) -> None:
    # A reversed range ("[z-a]") matches its first character and an unclosed
    # class ("[!]..." : a "]" first is a member) nothing, as in .gitignore.
    plan = json.loads(json.dumps(PLAN))
    plan["modules"][0]["mayChange"] = ["tests/**", "[!]notes.md", "[!z-a]x.md"]
    plan["modules"][0]["disallowed_changes"] = ["src/legacy.py", "[z-a]*.py"]
    (repo / ".forge" / "plans" / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    checked = run_forge("plan", "check", ".forge/plans/plan.json")
    assert checked.returncode == 0, checked.stdout
    wt = worktree(repo)
    commit(wt, {"src/api.py": "def serve():\n    return 2\n", "yx.md": "y\n"}, "api work")
    args = ["validate", "--plan", ".forge/plans/plan.json", "--module", "api", "--cwd", str(wt)]
    done = run_forge(*args, "--base", "main", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    [(target, passed, message)] = lane_results(json.loads(done.stdout))
    assert (target, passed) == ("(lane)", True)
    assert "2 changed files since" in message
    commit(wt, {"zoo.py": "Z = 1\n"}, "stray")
    failing = run_forge(*args, "--base", "main")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "disallowed_changes forbid it ([z-a]*.py)" in failing.stdout


def test_a_change_outside_a_project_in_a_subfolder_is_shown_outside_it(
    tmp_path: Path, run_forge: RunForge
) -> None:
    """The project is sub/ of its repository: a change to other/x.py was shown as
    ``other/x.py``, a path inside the project (sub/other/x.py), which misled."""
    repo = tmp_path / "repo"
    sub = repo / "sub"
    (sub / ".forge" / "plans").mkdir(parents=True)
    (sub / ".forge" / "plans" / "plan.json").write_text(json.dumps(PLAN), encoding="utf-8")
    git(repo, "init", "-q")
    commit(
        repo,
        {
            "sub/.gitignore": ".forge/\n",
            "sub/src/api.py": "def serve():\n    return 1\n",
            "sub/src/db.py": "def store():\n    return 1\n",
            "other/x.py": "X = 1\n",
        },
        "base",
    )
    wt = tmp_path / "wt-api"
    git(repo, "worktree", "add", "-q", "-b", "forge/api", str(wt))
    commit(wt, {"other/x.py": "X = 2\n", "top.py": "T = 1\n"}, "strays")
    (wt / "sub" / "src" / "db.py").write_text("changed = True\n", encoding="utf-8")
    args = ["validate", "--plan", ".forge/plans/plan.json", "--module", "api", "--base", "main"]
    args += ["--cwd", str(wt / "sub")]
    env = {"FORGE_CWD": str(sub)}
    done = run_forge(*args, "--json", cwd=sub, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    lanes = lane_results(json.loads(done.stdout))
    assert [(target, passed) for target, passed, _ in lanes] == [
        ("../other/x.py", False),
        ("src/db.py", False),
        ("../top.py", False),
    ]  # in the repository's path order
    outside = "changed (committed) outside the project (sub/ of its repository), so outside"
    assert lanes[0][2].startswith(outside) and lanes[2][2].startswith(outside)
    assert "belongs to module db" in lanes[1][2]
    shown = [
        line.split(None, 2)[2]
        for line in run_forge(*args, cwd=sub, env=env).stdout.splitlines()
        if line.startswith("FAIL lane_check ")
    ]
    assert shown[0].startswith(f"../other/x.py: {outside}")
    assert shown[1].startswith("src/db.py: changed (not committed)")
    assert shown[2].startswith(f"../top.py: {outside}")
