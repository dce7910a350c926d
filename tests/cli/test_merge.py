"""``forge merge check``: the merge preview from the command line, in real repositories."""

from __future__ import annotations

import json
from pathlib import Path

from forge_testing import (
    RunForge,
    commit,
    git,
    one_line_error,
    python_repo,
    repository_state,
    worker_commit,
    write_plan,
)
from forge_testing import plan_module as module


def test_a_conflict_is_reported_with_the_file_and_both_modules(
    project: Path, run_forge: RunForge
) -> None:
    repo = python_repo(project)
    write_plan(repo, [module("left", ["config.py"]), module("right", ["config.py"])])
    worker_commit(repo, "left", {"config.py": "NAME = 'app'\nLIMIT = 20\n"})
    worker_commit(repo, "right", {"config.py": "NAME = 'app'\nLIMIT = 30\n"})
    before = repository_state(repo)
    done = run_forge("merge", "check")
    assert done.returncode == 1, done.stderr
    assert repository_state(repo) == before
    assert "CONFLICT config.py: left and right both change it" in done.stdout
    assert "FAILED: 1 conflict(s), 0 integration break(s)" in done.stdout


def test_an_integration_break_names_both_modules_text_and_json(
    project: Path, run_forge: RunForge
) -> None:
    repo = python_repo(project)
    write_plan(repo, [module("rename", ["api.py", "app.py"]), module("use", ["stats.py"])])
    worker_commit(
        repo,
        "rename",
        {
            "api.py": "def sum_total(items):\n    return sum(items)\n",
            "app.py": "from api import sum_total\n\nprint(sum_total([1, 2]))\n",
        },
    )
    worker_commit(repo, "use", {"stats.py": "from api import total\n"})
    before = repository_state(repo)
    text = run_forge("merge", "check", "--base", "main")
    as_json = run_forge("merge", "check", "--json")
    assert repository_state(repo) == before
    assert text.returncode == as_json.returncode == 1, text.stderr
    assert "BREAK    contract_check api.py -> stats.py" in text.stdout
    assert "[modules rename, use]" in text.stdout
    assert "stats.py:1:" in text.stdout
    report = json.loads(as_json.stdout)
    [broken] = report["integrationBreaks"]
    assert broken["modules"] == ["rename", "use"]
    assert report["order"] == ["rename", "use"]


def test_modules_that_fit_pass_and_arguments_are_checked(
    project: Path, run_forge: RunForge
) -> None:
    repo = python_repo(project)
    write_plan(repo, [module("one", ["one.py"]), module("two", ["two.py"], dependsOn=["one"])])
    worker_commit(repo, "one", {"one.py": "ONE = 1\n"})
    # two's work is built on one's branch: one's commit in it is not two's change.
    two = repo.parent / "two-work"
    git(repo, "worktree", "add", "-q", "-b", "two-work", str(two), "forge/one")
    commit(two, {"two.py": "from one import ONE\n\nTWO = ONE + 1\n"}, "two: work")
    done = run_forge("merge", "check", "--layer", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "merge order: one" in done.stdout and "PASSED: 1 modules merge cleanly" in done.stdout
    both = run_forge("merge", "check", "--branch", "two=two-work", "--no-checks")
    assert both.returncode == 0, both.stdout
    assert "two: two-work (argument)" in both.stdout
    assert "expected ID=REF" in one_line_error(run_forge("merge", "check", "--branch", "two"))
    assert "layer: Input should be greater than or equal to 1" in one_line_error(
        run_forge("merge", "check", "--layer", "0")
    )
    assert "no module nope in the plan" in one_line_error(
        run_forge("merge", "check", "--module", "nope")
    )
    assert "an action is required: check" in one_line_error(run_forge("merge"))


def test_outside_git_the_preview_is_a_usage_error(project: Path, run_forge: RunForge) -> None:
    write_plan(project, [module("a", ["a.py"])])
    assert "is not in a git repository" in one_line_error(run_forge("merge", "check"))


def test_a_run_plan_that_cannot_be_read_is_named_not_taken_for_no_plan(
    project: Path, run_forge: RunForge
) -> None:
    repo = python_repo(project)
    write_plan(repo, [module("one", ["one.py"]), module("two", ["two.py"], dependsOn=["one"])])
    worker_commit(repo, "one", {"one.py": "ONE = 1\n"})
    newest = repo / ".forge" / "plans" / "zz-broken.json"
    newest.write_text('{"modules": [', encoding="utf-8")
    for args in ([], ["--branch", "one=forge/one"]):
        error = one_line_error(run_forge("merge", "check", "--no-checks", *args))
        assert f"cannot read the plan {newest}" in error, args
        assert "forge plan check" in error
    given = run_forge("merge", "check", "--plan", ".forge/plans/plan.json", "--no-checks")
    assert given.returncode == 0, given.stdout + given.stderr


def test_a_project_in_a_subfolder_lists_every_file_from_its_own_root(
    project: Path, run_forge: RunForge
) -> None:
    git(project, "init", "-q")
    app = project / "app"
    commit(project, {"app/one.py": "ONE = 0\n", ".gitignore": ".forge/\n"}, "base")
    write_plan(app, [module("one", ["one.py"])])
    worktree = worker_commit(project, "one", {"app/one.py": "ONE = 1\n"})
    (worktree / "app" / "notes.txt").write_text("not yet committed\n", encoding="utf-8")
    done = run_forge("merge", "check", "--json", cwd=app, env={"FORGE_CWD": str(app)})
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    [one] = report["modules"]
    assert (one["changedFiles"], one["uncommitted"]) == (["one.py"], ["notes.txt"])


def test_the_projects_own_checkout_is_no_modules_work_whatever_its_folder_is_called(
    project: Path, run_forge: RunForge
) -> None:
    # The project's folder ends in -api: it is where work merges into, not module api's.
    repo = project / "shop-api"
    repo.mkdir()
    python_repo(repo)
    write_plan(repo, [module("api", ["api.py"])])
    run = {"cwd": repo, "env": {"FORGE_CWD": str(repo)}}
    error = one_line_error(run_forge("merge", "check", "--no-checks", **run))
    assert "no branch or worktree found for api" in error
    git(repo, "branch", "work-1", "main")
    worktree = project / "wt-api"
    git(repo, "worktree", "add", "-q", str(worktree), "work-1")
    commit(worktree, {"api.py": "def total(items):\n    return sum(items) + 0\n"}, "api: work")
    done = run_forge("merge", "check", "--no-checks", **run)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "MERGED   api: work-1 (worktree), 1 changed file" in done.stdout


def test_a_branch_named_like_a_project_folder_is_the_branch(
    project: Path, run_forge: RunForge
) -> None:
    # Module api's work is on branch "docs"; the project also has a docs/ folder,
    # which is in the checkout the work merges into, not a worker's worktree.
    repo = python_repo(project)
    write_plan(repo, [module("api", ["api.py"], branch="docs")])
    worker_commit(repo, "api", {"api.py": "def total(items):\n    return sum(items) + 0\n"})
    git(repo, "branch", "docs", "forge/api")
    commit(repo, {"docs/index.md": "# Docs\n"}, "docs")
    for args in ([], ["--branch", "api=docs"]):
        done = run_forge("merge", "check", "--no-checks", *args)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "api: docs (" in done.stdout and "1 changed file" in done.stdout, done.stdout
    error = one_line_error(run_forge("merge", "check", "--branch", "api=.", "--no-checks"))
    assert "branches.api: . is in the project's own checkout" in error
