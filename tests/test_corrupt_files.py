"""Corrupt state through the MCP tools: a clear message, the bad bytes kept aside, the tool still works.

Each case damages one file the way a crash, a full disk or a careless hand
edit would (truncated, garbage bytes, valid JSON of the wrong shape, a bad
line among good ones), then drives the tools that read and write it.
Nothing is ever deleted: what forge cannot read is moved aside as
``<name>.corrupt-<timestamp>`` with every byte it had, and the reply says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_client import call, call_error, connect

pytestmark = pytest.mark.anyio

TRUNCATED_HISTORY = b'{"moduleId": "m1", "runId": "r", "attempts": [{"attempt": 1, "timest'
GARBAGE = b"\x00\xff\xfe binary \x89PNG\r\n\x1a\n"


def only_corrupt_copy(path: Path) -> Path:
    """The one ``<name>.corrupt-<timestamp>`` copy next to ``path``."""
    (moved,) = path.parent.glob(f"{path.name}.corrupt-*")
    stamp = moved.name.rsplit("corrupt-", 1)[1]
    assert len(stamp) == len("20261121T104400123456Z") and stamp.endswith("Z"), stamp
    return moved


# --- attempt history (iteration_state, validate) ----------------------------------------


@pytest.mark.parametrize(
    "damage",
    [TRUNCATED_HISTORY, GARBAGE, b'["a list", "not a history"]'],
    ids=["truncated", "garbage", "wrong-shape"],
)
async def test_a_corrupt_history_is_reported_then_moved_aside_by_the_next_update(
    project: Path, damage: bytes
) -> None:
    history = project / ".forge/iterations/r/m1.json"
    history.parent.mkdir(parents=True)
    history.write_bytes(damage)
    async with connect(project) as client:
        state = await call(
            client, "iteration_state", {"moduleId": "m1", "runId": "r", "action": "get"}
        )
        assert state["attempts"] == [] and len(state["notices"]) == 1
        assert (
            str(history) in state["notices"][0]
            and "moved aside on the next write" in state["notices"][0]
        )
        assert history.read_bytes() == damage  # get changes nothing

        update = {"status": "failed", "issues": ["x"], "score": 0.5}
        updated = await call(
            client,
            "iteration_state",
            {"moduleId": "m1", "runId": "r", "action": "update", "update": update},
        )
        assert updated["attempt"] == 1
        (notice,) = updated["notices"]
        moved = only_corrupt_copy(history)
        assert f"moved aside to {moved.name}" in notice
        assert moved.read_bytes() == damage  # every byte kept

        again = await call(
            client, "iteration_state", {"moduleId": "m1", "runId": "r", "action": "get"}
        )
    assert [a["attempt"] for a in again["attempts"]] == [1] and again["notices"] == []


async def test_validate_moves_a_corrupt_history_aside_and_counts_from_one(project: Path) -> None:
    history = project / ".forge/iterations/r/m1.json"
    history.parent.mkdir(parents=True)
    history.write_bytes(GARBAGE)
    async with connect(project) as client:
        args = {"moduleId": "m1", "runId": "r", "commands": ["true"]}
        report = await call(client, "validate", args)
        second = await call(client, "validate", args)
    assert report["attempt"] == 1 and second["attempt"] == 2
    (notice,) = report["notices"]
    assert "corrupt" in notice and only_corrupt_copy(history).name in notice
    assert second["notices"] == []


# --- session snapshots (session_state) ------------------------------------------------------


@pytest.mark.parametrize(
    "damage", [b'{"runId": "r", "currentPha', GARBAGE], ids=["truncated", "garbage"]
)
async def test_a_corrupt_session_is_an_error_once_then_the_tool_works(
    project: Path, damage: bytes
) -> None:
    state_dir = project / ".forge/state"
    state_dir.mkdir(parents=True)
    (state_dir / "good.json").write_text(
        json.dumps({"currentPhase": "execution", "lastUpdatedAt": "2026-11-20T00:00:00.000Z"}),
        encoding="utf-8",
    )
    snapshot = state_dir / "r.json"
    snapshot.write_bytes(damage)
    async with connect(project) as client:
        listed = await call(client, "session_state", {"action": "list"})
        assert [s["runId"] for s in listed["sessions"]] == ["good"]  # the good one still listed
        assert len(listed["notices"]) == 1 and "r.json" in listed["notices"][0]

        message = await call_error(client, "session_state", {"action": "load", "runId": "r"})
        moved = only_corrupt_copy(snapshot)
        assert "corrupt" in message and moved.name in message
        assert moved.read_bytes() == damage and not snapshot.exists()

        assert await call(client, "session_state", {"action": "load", "runId": "r"}) == {
            "found": False,
            "runId": "r",
        }
        saved = await call(
            client,
            "session_state",
            {"action": "save", "runId": "r", "state": {"currentPhase": "review"}},
        )
        assert saved["saved"] is True
        loaded = await call(client, "session_state", {"action": "load", "runId": "r"})
        listed = await call(client, "session_state", {"action": "list"})
    assert loaded["found"] is True and loaded["currentPhase"] == "review"
    assert [s["runId"] for s in listed["sessions"]] == ["r", "good"] and listed["notices"] == []


# --- plans (validate_plan) ------------------------------------------------------------------


async def test_a_truncated_plan_is_a_schema_error_and_stays_where_it_is(project: Path) -> None:
    # A plan is the planner's (or a person's) file, not forge's state: forge
    # reports exactly where it breaks and leaves it in place to be fixed.
    plans = project / ".forge/plans"
    plans.mkdir(parents=True)
    plan = plans / "p.json"
    damage = b'{"modules": [{"id": "m1", "title": "T", "objective": "O", "files": ["a.py"'
    plan.write_bytes(damage)
    async with connect(project) as client:
        report = await call(client, "validate_plan", {})
        inline = await call(
            client,
            "validate_plan",
            {
                "plan": {
                    "modules": [
                        {
                            "id": "m1",
                            "title": "T",
                            "objective": "O",
                            "files": ["a.py"],
                            "verify": ["true"],
                            "doneWhen": "ok",
                        }
                    ]
                }
            },
        )
    assert report["valid"] is False
    (error,) = report["errors"]
    assert error["type"] == "schema" and "line 1" in error["message"], error
    assert plan.read_bytes() == damage and list(plans.iterdir()) == [plan]
    assert inline["valid"] is True  # the tool keeps working


# --- memory (memory_save, memory_recall) -----------------------------------------------------


async def test_bad_memory_lines_are_skipped_then_moved_aside_and_good_ones_kept(
    project: Path,
) -> None:
    memory = project / ".forge/memory/project.jsonl"
    memory.parent.mkdir(parents=True)
    good = [
        {
            "id": "mem_1",
            "timestamp": "2026-11-01T00:00:00.000Z",
            "pattern": "pytest runs the tests",
            "category": "test_command",
            "confidence": 0.9,
            "tags": [],
        },
        {
            "id": "mem_2",
            "timestamp": "2026-11-02T00:00:00.000Z",
            "pattern": "ruff formats the code",
            "category": "convention",
            "confidence": 0.8,
            "tags": [],
        },
    ]
    lines = [
        json.dumps(good[0]).encode(),
        GARBAGE.replace(b"\n", b" "),
        b'{"id": "mem_x", "pattern": "torn',
        b'{"not": "a memory entry"}',
        json.dumps(good[1]).encode(),
    ]
    original = b"\n".join(lines) + b"\n"
    memory.write_bytes(original)
    async with connect(project) as client:
        recalled = await call(client, "memory_recall", {"query": "pytest ruff tests code"})
        assert {m["id"] for m in recalled["memories"]} == {"mem_1", "mem_2"}
        (notice,) = recalled["notices"]
        assert "3 unreadable lines (2, 3, 4)" in notice and "skipped" in notice
        assert memory.read_bytes() == original  # recall is read-only

        saved = await call(
            client, "memory_save", {"pattern": "mypy checks types", "category": "convention"}
        )
        assert saved["saved"] is True
        (notice,) = saved["notices"]
        moved = only_corrupt_copy(memory)
        assert f"moved aside to {moved.name}" in notice and "2 good entries kept" in notice
        assert moved.read_bytes() == original  # every byte kept, the bad lines included

        duplicate = await call(
            client, "memory_save", {"pattern": "PYTEST  runs the tests", "category": "test_command"}
        )
        recalled = await call(client, "memory_recall", {"query": "pytest ruff mypy"})
    assert duplicate["duplicate"] is True and duplicate["notices"] == []
    assert {m["id"] for m in recalled["memories"]} == {"mem_1", "mem_2", saved["id"]}
    assert recalled["notices"] == []
    stored = memory.read_bytes().splitlines()
    assert stored[:2] == [lines[0], lines[4]]  # good lines kept verbatim, in order
    assert [json.loads(line)["id"] for line in stored] == ["mem_1", "mem_2", saved["id"]]


async def test_a_memory_file_without_its_last_newline_is_not_fused_with_the_next_save(
    project: Path,
) -> None:
    memory = project / ".forge/memory/project.jsonl"
    memory.parent.mkdir(parents=True)
    entry = {"id": "mem_1", "pattern": "edited by hand", "category": "convention"}
    memory.write_text(json.dumps(entry), encoding="utf-8")  # no trailing newline
    async with connect(project) as client:
        saved = await call(
            client, "memory_save", {"pattern": "saved after", "category": "convention"}
        )
    assert saved["notices"] == []
    assert [json.loads(line)["id"] for line in memory.read_text("utf-8").splitlines()] == [
        "mem_1",
        saved["id"],
    ]


# --- logs (forge_logs) --------------------------------------------------------------------------


async def test_bad_log_lines_are_skipped_and_counted_and_a_torn_tail_is_set_aside(
    project: Path,
) -> None:
    log = project / ".forge/logs/r.jsonl"
    log.parent.mkdir(parents=True)
    event = {
        "timestamp": "2026-11-21T00:00:00.000Z",
        "runId": "r",
        "phase": "execution",
        "moduleId": "m1",
        "event": "started",
        "severity": "info",
        "data": {},
    }
    original = (
        json.dumps(event).encode()
        + b"\n"
        + GARBAGE.replace(b"\n", b" ")
        + b"\n"
        + json.dumps({**event, "event": "finished"}).encode()
        + b"\n"
        + b'{"timestamp": "20'
    )
    log.write_bytes(original)
    async with connect(project) as client:
        result = await call(client, "forge_logs", {"runId": "r", "phase": "execution"})
    assert [e["event"] for e in result["entries"]] == ["started", "finished"]
    (notice,) = result["notices"]
    assert "1 unreadable line (2) skipped" in notice
    # The torn last line (a writer killed mid-line) was set aside before the
    # call's own tool_call event was appended, so nothing fused with it; the
    # lines before it are left as they were, the bad line 2 included.
    torn = b'{"timestamp": "20'
    assert log.read_bytes().startswith(original.removesuffix(torn))
    assert b"tool_call" in log.read_bytes().removeprefix(original.removesuffix(torn))
    (aside,) = log.parent.glob("r.jsonl.corrupt-*")
    assert aside.read_bytes() == torn
