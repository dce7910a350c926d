"""The issue 39 project: module ``calc`` owns ``src/calc.py``, may change ``tests/**``,
verifies with ``python -m pytest -q tests``; a worker in ``../wt-calc`` breaks ``mul``.

Tests of the run's evidence (a run that did not finish, tests missing from the
collection, the plan edited by a worker, special-cased code, claims) start from
it, make one move, and read forge's verdict through the installed CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from forge_testing import BIN_DIR, commit, forge_executable, git

CALC = """\
def add(a, b):
    return a + b


def mul(a, b):
    return a * b
"""
#: ``mul`` broken so that ``test_mul`` fails (2 * 3 + 1 is 7, not 6).
BROKEN_CALC = CALC.replace("return a * b", "return a * b + 1")
TESTS = """\
from src.calc import add, mul


def test_add():
    assert add(2, 3) == 5


def test_mul():
    assert mul(2, 3) == 6
"""
VERIFY = "python -m pytest -q tests"
PLAN: dict[str, Any] = {
    "modules": [
        {
            "id": "calc",
            "title": "Calc",
            "objective": "Add and multiply.",
            "files": ["src/calc.py"],
            "mayChange": ["tests/**"],
            "verify": [VERIFY],
            "doneWhen": "python -m pytest -q tests passes.",
        }
    ]
}
PLAN_PATH = ".forge/plans/p.json"


def calc_project(project: Path) -> Path:
    """``project`` as a git repository on main (plan committed), and the worker's worktree.

    The worktree (``../wt-calc``, branch ``forge/calc``) has the broken ``mul``
    committed; it is returned.
    """
    git(project, "init", "-q")
    commit(
        project,
        {
            ".gitignore": ".forge/*\n!.forge/plans/\n__pycache__/\n.pytest_cache/\n",
            PLAN_PATH: json.dumps(PLAN, indent=2) + "\n",
            "src/calc.py": CALC,
            "tests/test_calc.py": TESTS,
        },
        "base",
    )
    worktree = project.parent / "wt-calc"
    git(project, "worktree", "add", "-q", "-b", "forge/calc", str(worktree), "main")
    commit(worktree, {"src/calc.py": BROKEN_CALC}, "calc: work")
    return worktree


def environment() -> dict[str, str]:
    """The tests' environment with the venv's ``python`` (and pytest) first on PATH."""
    return {
        **os.environ,
        "PATH": f"{BIN_DIR}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def validate(
    project: Path, *extra: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``forge validate --plan p.json --module calc --cwd ../wt-calc --base main --json``."""
    return subprocess.run(
        [
            forge_executable(),
            "validate",
            "--plan",
            PLAN_PATH,
            "--module",
            "calc",
            "--cwd",
            str(project.parent / "wt-calc"),
            "--base",
            "main",
            "--json",
            *extra,
        ],
        cwd=cwd or project,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def verdict(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The JSON report of a ``validate`` run (its stderr shown when it is not JSON)."""
    try:
        report: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        raise AssertionError(f"not a report: {done.stdout!r} {done.stderr!r}") from None
    return report


def failures(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(type, target, message) of each failing result."""
    return [(r["type"], r["target"], r["message"]) for r in report["results"] if not r["passed"]]
