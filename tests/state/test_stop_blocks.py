"""What ``forge hook`` remembers between a worker's stops (``.forge/hook/``), through the real hook.

The record follows the rules of every file under ``.forge/``: a corrupt one is
no record (the stop is judged afresh), and no link is followed to reach it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from forge_testing import run_hook, stop

WORKER = {"FORGE_MODULE_ID": "api", "FORGE_RUN_ID": "run-1"}


def _project(root: Path, *, total: int) -> None:
    """Module ``api`` passes when ``total()`` returns 2."""
    plan = {
        "modules": [
            {
                "id": "api",
                "title": "API",
                "objective": "total() returns 2",
                "files": ["api.py"],
                "verify": [f"{sys.executable} -B -c 'import api; assert api.total() == 2'"],
                "doneWhen": "the verify command passes",
            }
        ]
    }
    (root / ".forge" / "plans").mkdir(parents=True)
    (root / ".forge" / "plans" / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    (root / "api.py").write_text(f"def total():\n    return {total}\n", encoding="utf-8")


def _attempts(root: Path) -> int:
    path = root / ".forge" / "iterations" / "run-1" / "api.json"
    return len(json.loads(path.read_text(encoding="utf-8"))["attempts"]) if path.exists() else 0


def test_a_block_is_recorded_and_a_repeat_with_nothing_changed_is_let_through(
    project: Path,
) -> None:
    _project(project, total=1)
    first, _ = run_hook(stop(project), cwd=project, env=WORKER)
    assert first is not None and first["decision"] == "block"
    record = json.loads((project / ".forge/hook/run-1/api.json").read_text(encoding="utf-8"))
    assert set(record) == {"fingerprint", "summary", "blockedAt", "escalated"}
    assert record["escalated"] is False and "module api fails" in record["summary"]
    again, _ = run_hook(stop(project, active=True), cwd=project, env=WORKER)
    assert again is not None and "nothing changed since" in again["systemMessage"]
    assert _attempts(project) == 1


def test_a_corrupt_record_is_no_record_and_the_stop_is_judged_again(project: Path) -> None:
    _project(project, total=1)
    run_hook(stop(project), cwd=project, env=WORKER)
    record = project / ".forge/hook/run-1/api.json"
    for attempt, text in enumerate(("{not json", json.dumps({"fingerprint": 7})), start=2):
        record.write_text(text, encoding="utf-8")
        decision, stderr = run_hook(stop(project, active=True), cwd=project, env=WORKER)
        assert decision is not None and "nothing changed since" not in str(decision), stderr
        assert _attempts(project) == attempt  # validated again: a new attempt


def test_a_passing_stop_follows_no_link_to_forget_the_record(project: Path) -> None:
    """``.forge/hook`` made a link to a folder outside: the file there is never deleted."""
    _project(project, total=2)
    outside = project.parent / "outside"
    (outside / "run-1").mkdir(parents=True)
    kept = outside / "run-1" / "api.json"
    kept.write_text("{}", encoding="utf-8")
    (project / ".forge" / "hook").symlink_to(outside, target_is_directory=True)
    run_hook(stop(project), cwd=project, env=WORKER)
    assert kept.read_text(encoding="utf-8") == "{}"
