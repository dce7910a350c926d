"""``forge hook`` finds where an event happened once: the project, the module and its plan.

An edit's answer needs the editor's module (its neighbours, its lane) and the
owner of every planned file; both come from one reading of the plan, however
many of them the answer uses. Counted with the interpreter's own audit events
(``open``), in a fresh process running the real ``forge hook``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from forge_testing import post_tool_use

PLAN_NAME = "shop-plan-7.json"

#: Runs ``forge hook`` on the event in argv[1] and prints how often the plan was opened.
COUNTED = """
import io, json, sys
opened = []
def audit(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        name = args[0].decode() if isinstance(args[0], bytes) else args[0]
        if name.endswith(sys.argv[2]):
            opened.append(name)
sys.addaudithook(audit)
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from forge.cli import main
main(["hook"])
print(json.dumps(len(opened)), file=sys.stderr)
"""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _shop(root: Path) -> None:
    """Two modules: ``api`` (``api.py``, which may also change ``notes/``) and ``db``."""
    plan = {
        "modules": [
            {
                "id": "api",
                "title": "API",
                "objective": "total",
                "files": ["api.py", "app.py"],
                "mayChange": ["notes/*.md"],
                "verify": ["true"],
                "doneWhen": "true passes",
            },
            {
                "id": "db",
                "title": "DB",
                "objective": "store",
                "files": ["db.py"],
                "verify": ["true"],
                "doneWhen": "true passes",
            },
        ]
    }
    _write(root / ".forge" / "plans" / PLAN_NAME, json.dumps(plan))
    _write(root / "api.py", "def total():\n    return 1\n")
    _write(root / "app.py", "from api import total\n\nprint(total())\n")
    _write(root / "db.py", "def store():\n    return 1\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=root, check=True)
    _write(root / ".gitignore", ".forge/\n")
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=root, check=True)


def _plan_opens(event: dict[str, Any], cwd: Path, env: dict[str, str]) -> tuple[str, int]:
    """The hook's answer to ``event`` and how many times it opened the plan."""
    completed = subprocess.run(
        [sys.executable, "-I", "-c", COUNTED, json.dumps(event), PLAN_NAME],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return completed.stdout, json.loads(completed.stderr.strip().splitlines()[-1])


WORKER = {"FORGE_MODULE_ID": "api", "FORGE_RUN_ID": "run-1"}


def test_an_edit_in_a_module_reads_the_plan_once(project: Path) -> None:
    _shop(project)
    edited = _write(project / "api.py", "def total():\n    return 2\n")
    answer, opens = _plan_opens(
        post_tool_use(project, "Write", {"file_path": str(edited)}), project, WORKER
    )
    assert answer == ""  # its importer app.py still finds total()
    assert opens == 1


def test_an_edit_outside_the_lane_reads_the_plan_once_and_names_the_owner(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker in its own worktree (the session names it) edits the file module db owns."""
    monkeypatch.delenv("FORGE_CWD")
    _shop(project)
    worktree = project.parent / "wt-api"
    subprocess.run(
        ["git", "worktree", "add", "-q", str(worktree), "-b", "forge/api"], cwd=project, check=True
    )
    session = {
        "runId": "run-7",
        "planPath": f".forge/plans/{PLAN_NAME}",
        "worktrees": {"api": "../wt-api"},
    }
    _write(project / ".forge" / "state" / "run-7.json", json.dumps(session))
    other = _write(worktree / "db.py", "def store():\n    return 2\n")
    answer, opens = _plan_opens(
        post_tool_use(worktree, "Edit", {"file_path": str(other)}), worktree, {}
    )
    assert "outside module api's lane" in answer and "it belongs to module db" in answer
    assert opens == 1


def test_an_edit_of_no_module_reads_the_plan_once_for_the_owners(project: Path) -> None:
    """No worker: the plan still says which module owns an importer the edit breaks."""
    _shop(project)
    edited = _write(project / "api.py", "def amount():\n    return 2\n")
    answer, opens = _plan_opens(
        post_tool_use(project, "Write", {"file_path": str(edited)}), project, {}
    )
    assert "app.py" in answer and "total" in answer
    assert opens == 1


def test_an_edit_is_judged_when_the_plan_cannot_be_found(project: Path) -> None:
    """FORGE_PLAN naming a home that does not exist: no module, but the edit is still judged."""
    _shop(project)
    broken = _write(project / "api.py", "def total(:\n")
    answer, _ = _plan_opens(
        post_tool_use(project, "Write", {"file_path": str(broken)}),
        project,
        {**WORKER, "FORGE_PLAN": "~nosuchuser_forge_test/plan.json"},
    )
    assert '"decision": "block"' in answer and "api.py:1:" in answer
