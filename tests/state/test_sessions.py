"""Session snapshots: save, load, list order and counts, limits, corrupt files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_client import call, call_error, connect

pytestmark = pytest.mark.anyio


async def test_save_then_load_round_trips_the_state(project: Path) -> None:
    state = {
        "runId": "r1",
        "planPath": ".forge/plans/p.json",
        "currentPhase": "execution",
        "moduleStatuses": {"m1": "passed", "m2": "running"},
        "retryCounts": {"m2": 1},
        "completedModules": ["m1"],
        "startedAt": "2026-01-01T00:00:00Z",
        "custom": {"nested": [1, 2]},
    }
    async with connect(project) as client:
        saved = await call(
            client, "session_state", {"action": "save", "runId": "r1", "state": state}
        )
        loaded = await call(client, "session_state", {"action": "load", "runId": "r1"})
        missing = await call(client, "session_state", {"action": "load", "runId": "r9"})
    assert (saved["saved"], saved["runId"]) == (True, "r1")
    assert loaded == {"found": True, **state, "lastUpdatedAt": saved["lastUpdatedAt"]}
    assert missing == {"found": False, "runId": "r9"}
    on_disk = json.loads((project / ".forge/state/r1.json").read_text(encoding="utf-8"))
    assert on_disk["lastUpdatedAt"] == saved["lastUpdatedAt"]


async def test_list_is_most_recent_first_with_counts(project: Path) -> None:
    async with connect(project) as client:
        for run_id, done in (("a", 1), ("b", 0), ("c", 2)):
            state = {
                "currentPhase": f"phase-{run_id}",
                "moduleStatuses": {"m1": "x", "m2": "y", "m3": "z"},
                "completedModules": ["m1", "m2"][:done],
            }
            await call(client, "session_state", {"action": "save", "runId": run_id, "state": state})
        await call(client, "session_state", {"action": "save", "runId": "a", "state": {}})
        listed = await call(client, "session_state", {"action": "list"})
    rows = [
        (s["runId"], s["currentPhase"], s["completedCount"], s["totalCount"])
        for s in listed["sessions"]
    ]
    assert rows == [("a", None, 0, 0), ("c", "phase-c", 2, 3), ("b", "phase-b", 0, 3)]


async def test_state_over_1_mb_is_refused(project: Path) -> None:
    async with connect(project) as client:
        message = await call_error(
            client,
            "session_state",
            {"action": "save", "runId": "r", "state": {"blob": "x" * (1024 * 1024)}},
        )
    assert "limit is 1048576" in message
    assert not (project / ".forge/state/r.json").exists()


async def test_a_corrupt_snapshot_is_moved_aside_and_reported(project: Path) -> None:
    (project / ".forge/state").mkdir(parents=True)
    (project / ".forge/state/r.json").write_text("{not json", encoding="utf-8")
    async with connect(project) as client:
        listed = await call(client, "session_state", {"action": "list"})
        message = await call_error(client, "session_state", {"action": "load", "runId": "r"})
    assert listed["sessions"] == [] and "corrupt" in listed["notices"][0]
    assert "moved aside" in message
    assert [p.name.startswith("r.json.corrupt-") for p in (project / ".forge/state").iterdir()] == [
        True
    ]


async def test_session_events_go_to_the_run_log(project: Path) -> None:
    async with connect(project) as client:
        await call(
            client,
            "session_state",
            {"action": "save", "runId": "r", "state": {"currentPhase": "p"}},
        )
        await call(client, "session_state", {"action": "load", "runId": "r"})
        logs = await call(client, "forge_logs", {"runId": "r", "phase": "session"})
    assert [(e["event"], e["data"]) for e in logs["entries"]] == [
        ("session_save", {"currentPhase": "p"}),
        ("session_load", {"found": True}),
    ]
