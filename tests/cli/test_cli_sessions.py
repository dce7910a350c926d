"""``forge sessions list|show``: the orchestrator's snapshots, read without side effects."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forge_testing import RunForge


def write_session(project: Path, run_id: str, updated: str, **state: object) -> None:
    folder = project / ".forge" / "state"
    folder.mkdir(parents=True, exist_ok=True)
    snapshot = {"runId": run_id, "lastUpdatedAt": updated, **state}
    (folder / f"{run_id}.json").write_text(json.dumps(snapshot), encoding="utf-8")


def test_list_most_recent_first(run_forge: RunForge, project: Path) -> None:
    write_session(project, "run-1", "2026-01-01T00:00:00.000Z", currentPhase="planning")
    write_session(
        project,
        "run-2",
        "2026-02-01T00:00:00.000Z",
        currentPhase="execution",
        moduleStatuses={"a": "passed", "b": "running"},
        completedModules=["a"],
    )
    listed = run_forge("sessions")
    assert listed.returncode == 0
    assert [line.split() for line in listed.stdout.splitlines()] == [
        ["RUN", "PHASE", "DONE", "UPDATED"],
        ["run-2", "execution", "1/2", "2026-02-01T00:00:00.000Z"],
        ["run-1", "planning", "0/0", "2026-01-01T00:00:00.000Z"],
    ]
    result = json.loads(run_forge("sessions", "list", "--json").stdout)
    assert [s["runId"] for s in result["sessions"]] == ["run-2", "run-1"]


def test_show_and_json(run_forge: RunForge, project: Path) -> None:
    write_session(
        project,
        "run-2",
        "2026-02-01T00:00:00.000Z",
        planPath=".forge/plans/p.json",
        moduleStatuses={"a": "passed", "b": "running"},
        retryCounts={"b": 2},
        custom=1,
    )
    shown = run_forge("sessions", "show", "run-2")
    assert shown.returncode == 0
    lines = shown.stdout.splitlines()
    assert lines[:2] == ["run        run-2", "plan       .forge/plans/p.json"]
    assert ["b", "running", "2"] in [line.split() for line in lines]
    assert lines[-1] == "other keys: custom (--json shows them)"
    state = json.loads(run_forge("sessions", "show", "run-2", "--json").stdout)
    assert (state["found"], state["custom"]) == (True, 1)
    # Looking is read-only: no event lands in the run's log.
    assert not (project / ".forge" / "logs" / "run-2.jsonl").exists()


def test_unknown_session_exit_1_and_bad_id_exit_2(run_forge: RunForge) -> None:
    missing = run_forge("sessions", "show", "nope")
    assert missing.returncode == 1
    assert (
        missing.stderr == "forge sessions: no session 'nope': forge sessions list shows the runs\n"
    )
    assert json.loads(run_forge("sessions", "show", "nope", "--json").stdout) == {
        "found": False,
        "runId": "nope",
    }
    bad = run_forge("sessions", "show", "../etc")
    assert bad.returncode == 2
    assert bad.stderr.startswith("forge sessions: error: RUN_ID '../etc' is not a valid id")


def test_no_sessions(run_forge: RunForge) -> None:
    completed = run_forge("sessions")
    assert completed.returncode == 0
    assert completed.stdout.startswith("No sessions yet")
