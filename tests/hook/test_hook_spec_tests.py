"""``forge hook`` on PostToolUse: an edit that removes, switches off or weakens a spec test.

Real Claude Code ``Edit``/``Write`` events on stdin, the installed ``forge``
deciding, in a git repository whose ``main`` holds the spec tests; the worker
(``FORGE_MODULE_ID=calc``) works on a branch forked from it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from forge_testing import commit, forge_executable, git

CALC = "def mul(a, b):\n    return a * b\n"
TESTS = """\
from src.calc import mul


def test_mul():
    assert mul(2, 3) == 6
"""
PLAN = {
    "modules": [
        {
            "id": "calc",
            "title": "Calc",
            "objective": "Multiplication works.",
            "files": ["src/calc.py"],
            "mayChange": ["tests/**"],
            "verify": ["python -m pytest -q tests"],
            "doneWhen": "The tests pass.",
        }
    ]
}
WORKER = {"FORGE_MODULE_ID": "calc"}


@pytest.fixture
def calc(project: Path) -> Path:
    """The project on branch ``work``, forked from ``main`` which holds the spec tests."""
    git(project, "init", "-q", "-b", "main")
    commit(
        project,
        {
            ".gitignore": ".forge/\n",
            ".forge/plans/p.json": json.dumps(PLAN),
            "src/calc.py": CALC,
            "tests/test_calc.py": TESTS,
        },
        "base",
    )
    git(project, "checkout", "-q", "-b", "work")
    return project


def edit(cwd: Path, path: Path, old: str, new: str) -> dict[str, Any]:
    """Claude Code's PostToolUse event after its Edit tool replaced ``old`` by ``new``."""
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace(old, new), encoding="utf-8")
    return {
        "session_id": "5f1c0a3e-8f0b-4c52-9d0e-1a2b3c4d5e6f",
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "acceptEdits",
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {
            "file_path": str(path),
            "old_string": old,
            "new_string": new,
            "replace_all": False,
        },
        "tool_response": {
            "filePath": str(path),
            "oldString": old,
            "newString": new,
            "originalFile": original,
            "structuredPatch": [],
            "userModified": False,
            "replaceAll": False,
        },
    }


def run_hook(event: dict[str, Any], cwd: Path) -> dict[str, Any] | None:
    """Feed ``event`` to ``forge hook`` as the worker; its decision (None: allowed silently)."""
    completed = subprocess.run(
        [forge_executable(), "hook"],
        input=json.dumps(event),
        cwd=cwd,
        env={**os.environ, **WORKER},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout.strip()
    return json.loads(out) if out else None


@pytest.mark.parametrize(
    ("old", "new", "finding"),
    [
        ("== 6", "is not None", "test_mul: `assert mul(2, 3) == 6` weakened to"),
        ("== 6", "== 5", "test_mul: expected 6 changed to 5"),
        ("def test_mul", "import pytest\n\n\n@pytest.mark.skip\ndef test_mul", "@pytest.mark.skip"),
    ],
)
def test_an_edit_that_weakens_a_spec_test_is_blocked_at_once(
    calc: Path, old: str, new: str, finding: str
) -> None:
    tests = calc / "tests" / "test_calc.py"
    decision = run_hook(edit(calc, tests, old, new), calc)
    assert decision is not None and decision["decision"] == "block", decision
    assert "tests/test_calc.py" in decision["reason"] and finding in decision["reason"]


def test_an_edit_that_strengthens_a_spec_test_is_allowed(calc: Path) -> None:
    tests = calc / "tests" / "test_calc.py"
    event = edit(calc, tests, "== 6\n", "== 6\n    assert mul(3, 3) == 9\n")
    assert run_hook(event, calc) is None
