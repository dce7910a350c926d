"""``file_check`` judges what merges: a listed file git ignores fails (real git, the real CLI)."""

from __future__ import annotations

import json
from pathlib import Path

from forge_testing import RunForge, commit, git, plan_module, worker_commit, write_plan

#: A stock Python .gitignore's head (GitHub's template), forge's state, the plan kept.
PYTHON_GITIGNORE = (
    "# Byte-compiled / optimized / DLL files\n__pycache__/\n*.py[cod]\n\n"
    "# Distribution / packaging\nbuild/\ndist/\nlib/\nlib64/\n\n"
    ".forge/*\n!.forge/plans/\n"
)


def planned(project: Path, gitignore: str) -> Path:
    """``project`` on main with the money module's plan committed under that .gitignore."""
    git(project, "init", "-q")
    write_plan(project, [plan_module("money", ["shop/lib/money.py"], mayChange=["shop/**"])])
    commit(project, {".gitignore": gitignore, "shop/__init__.py": ""}, "base")
    return project


def file_results(project: Path, worktree: Path, run_forge: RunForge) -> tuple[int, dict[str, dict]]:
    done = run_forge(
        "validate", "--plan", ".forge/plans/plan.json", "--module", "money",
        "--cwd", str(worktree), "--base", "main", "--json",
    )  # fmt: skip
    report = json.loads(done.stdout)
    return done.returncode, {r["target"]: r for r in report["results"] if r["type"] == "file_check"}


MONEY = "def cents(amount):\n    return round(amount * 100)\n"
#: The worker's commit: the package's init takes the new module's function (git add -A).
WORK = {"shop/lib/money.py": MONEY, "shop/__init__.py": "from shop.lib.money import cents\n"}


def test_a_listed_file_git_ignores_fails_naming_the_rule(
    project: Path, run_forge: RunForge
) -> None:
    planned(project, PYTHON_GITIGNORE)
    wt = worker_commit(project, "money", WORK)
    assert git(wt, "ls-files", "shop/lib") == ""  # git add -A left it out
    code, results = file_results(project, wt, run_forge)
    assert code == 1
    result = results["shop/lib/money.py"]
    assert result["passed"] is False
    assert result["message"].startswith(
        "git ignores it (.gitignore:8: lib/): it can never be merged"
    )


def test_the_same_file_under_an_anchored_rule_is_committed_and_passes(
    project: Path, run_forge: RunForge
) -> None:
    planned(project, PYTHON_GITIGNORE.replace("\nlib/\n", "\n/lib/\n"))
    wt = worker_commit(project, "money", WORK)
    code, results = file_results(project, wt, run_forge)
    assert code == 0, results
    assert results["shop/lib/money.py"] == {
        **results["shop/lib/money.py"],
        "passed": True,
        "message": "exists",
    }


def test_a_file_not_committed_yet_passes_and_says_so(project: Path, run_forge: RunForge) -> None:
    planned(project, "/.forge/*\n!/.forge/plans/\n")
    wt = worker_commit(project, "money", {"shop/other.py": "X = 1\n"})
    (wt / "shop" / "lib").mkdir()
    (wt / "shop" / "lib" / "money.py").write_text(MONEY, encoding="utf-8")
    code, results = file_results(project, wt, run_forge)
    assert code == 0
    assert results["shop/lib/money.py"]["passed"] is True
    assert results["shop/lib/money.py"]["message"] == (
        "exists, not committed: commit it, or the merge lacks this version"
    )
    git(wt, "add", "-A")
    git(wt, "commit", "-qm", "money")
    (wt / "shop" / "lib" / "money.py").write_text(MONEY + "# more\n", encoding="utf-8")
    code, results = file_results(project, wt, run_forge)
    assert (code, results["shop/lib/money.py"]["message"]) == (
        0,
        "exists, changed since the last commit: commit it, or the merge lacks this version",
    )


def test_without_a_base_an_ignored_file_is_only_checked_on_disk(
    project: Path, run_forge: RunForge
) -> None:
    planned(project, PYTHON_GITIGNORE)
    wt = worker_commit(project, "money", WORK)
    done = run_forge(
        "validate", "--plan", ".forge/plans/plan.json", "--module", "money",
        "--cwd", str(wt), "--json",
    )  # fmt: skip
    (result,) = [r for r in json.loads(done.stdout)["results"] if r["type"] == "file_check"]
    assert (result["passed"], result["message"]) == (True, "exists")
