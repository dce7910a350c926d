"""A Python project for the spec-test checks: module ``calc`` owns ``src/calc.py``, may
change ``tests/**`` and is verified by ``python -m pytest -q tests``; its ``mul`` bug is
what each gaming move hides. ``forge validate --plan P --module calc --base main`` judges it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge_testing import commit, git

if TYPE_CHECKING:
    from forge_testing import RunForge

CALC = """\
def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b
"""
BROKEN = CALC.replace("return a * b", "return a + b")  # mul(2, 3) == 5
TESTS = """\
import pytest

from src.calc import add, div, mul


def test_add():
    assert add(2, 3) == 5


def test_mul():
    assert mul(2, 3) == 6


def test_div_by_zero():
    with pytest.raises(ZeroDivisionError):
        div(1, 0)
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


def calc_project(project: Path) -> Path:
    """``project`` on branch ``work``, forked from ``main`` where the spec tests pass."""
    git(project, "init", "-q", "-b", "main")
    plan = project / ".forge" / "plans" / "p.json"
    plan.parent.mkdir(parents=True)
    plan.write_text(json.dumps(PLAN), encoding="utf-8")
    commit(
        project,
        {".gitignore": ".forge/\n", "src/calc.py": CALC, "tests/test_calc.py": TESTS},
        "base",
    )
    git(project, "checkout", "-q", "-b", "work")
    return project


def validate(run_forge: RunForge, project: Path, plan: dict[str, Any] | None = None) -> Any:
    """``forge validate --plan P --module calc --base main --json``: (exit code, report)."""
    if plan is not None:
        (project / ".forge" / "plans" / "p.json").write_text(json.dumps(plan), encoding="utf-8")
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    args = ["validate", "--plan", ".forge/plans/p.json", "--module", "calc", "--base", "main"]
    completed = run_forge(*args, "--json", env={"PATH": path})
    assert completed.returncode in {0, 1}, completed.stderr
    return completed.returncode, json.loads(completed.stdout)


def spec_results(report: Any) -> list[Any]:
    """The report's ``spec_tests`` results."""
    return [result for result in report["results"] if result["type"] == "spec_tests"]


def failing(report: Any) -> list[tuple[str, int, str]]:
    """(target, line, message) of each counted place of a failing ``spec_tests`` result."""
    return [
        (result["target"], place["line"], place["message"])
        for result in spec_results(report)
        if not result["passed"]
        for place in result["locations"]
        if not place.get("informational")
    ]


def write(project: Path, files: dict[str, str]) -> None:
    """The worker's edit, left uncommitted (forge judges committed and uncommitted alike)."""
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
