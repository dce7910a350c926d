"""``status.json`` as the server keeps it (patched, stamped or rebuilt) against a rebuild.

The server rewrites the status after every call without reading every
history again when it can (a validate patches its module's line, a read only
stamps the time and the tool). Whatever it does, the file must say what a
rebuild from the histories, the session and the plan would say.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from mcp_client import call, connect

from forge.state.status_file import Status, StatusCounts, build_status, write_status
from forge.state.status_lines import ModuleStatus
from forge.store.forge_dir import ForgeDir

pytestmark = pytest.mark.anyio


def _comparable(status: dict[str, Any]) -> dict[str, Any]:
    """The status without the times of writing (each call's own clock reading)."""
    kept = {k: v for k, v in status.items() if k not in ("updatedAt", "startedAt")}
    # A patched line is stamped when its attempt is recorded, a rebuilt one reads the
    # attempt's own timestamp: the same moment, read twice.
    kept["modules"] = [{**m, "updatedAt": m["updatedAt"] is not None} for m in status["modules"]]
    return kept


def _assert_as_rebuilt(project: Path, after: str) -> None:
    forge_dir = ForgeDir(project)
    written = json.loads(forge_dir.status.read_text(encoding="utf-8"))
    rebuilt = build_status(forge_dir, run_id=written["runId"], last_tool=written["lastTool"])
    assert _comparable(written) == _comparable(rebuilt.to_wire()), after
    # Byte for byte as pydantic serialises the whole model.
    full = Status.model_validate(written).model_dump_json(by_alias=True, indent=2) + "\n"
    assert forge_dir.status.read_bytes() == full.encode("utf-8"), after


def _plan(titles: list[str], objective: str) -> dict[str, Any]:
    return {
        "objective": objective,
        "modules": [
            {
                "id": f"m{i}",
                "title": title,
                "objective": title,
                "files": [f"m{i}.py"],
                "verify": ["true"],
                "doneWhen": "it works",
            }
            for i, title in enumerate(titles, 1)
        ],
    }


async def test_status_after_a_mixed_sequence_equals_a_rebuild(project: Path) -> None:
    plans = project / ".forge/plans"
    plans.mkdir(parents=True)
    (plans / "login.json").write_text(
        json.dumps(_plan(["Model", "API", "UI", "Docs"], "Ship login")), encoding="utf-8"
    )
    (project / "m1.py").write_text("x = 1\n", encoding="utf-8")
    calls: list[tuple[str, dict[str, Any]]] = [
        ("session_state", {"action": "save", "runId": "r1", "state": {"currentPhase": "plan"}}),
        ("validate", {"moduleId": "m1", "runId": "r1", "files": ["m1.py"]}),
        ("forge_logs", {"runId": "r1", "limit": 2}),
        ("validate", {"moduleId": "m2", "runId": "r1", "files": ["missing.py"]}),
        ("iteration_state", {"moduleId": "m2", "runId": "r1", "action": "get"}),
        ("validate_plan", {}),
        ("memory_recall", {"query": "login"}),
        ("validate", {"moduleId": "m2", "runId": "r1", "files": ["m1.py"]}),
        (
            "iteration_state",
            {"moduleId": "m3", "runId": "r1", "action": "update", "update": {"status": "running"}},
        ),
        ("session_state", {"action": "list"}),
        ("session_state", {"action": "load", "runId": "r1"}),
        ("iteration_state", {"moduleId": "m2", "runId": "r1", "action": "reset"}),
        # A history outside the run (no runId): the run's line falls back to it.
        (
            "iteration_state",
            {"moduleId": "m4", "action": "update", "update": {"status": "failed", "score": 0.2}},
        ),
        (
            "iteration_state",
            {"moduleId": "m3", "runId": "r1", "action": "update", "update": {"status": "passed"}},
        ),
        (
            "iteration_state",
            {
                "moduleId": "extra",
                "runId": "r1",
                "action": "update",
                "update": {"status": "failed"},
            },
        ),
        (
            "session_state",
            {
                "action": "save",
                "runId": "r1",
                "state": {"currentPhase": "review", "moduleStatuses": {"m2": "running"}},
            },
        ),
        ("iteration_state", {"moduleId": "m2", "runId": "r1", "action": "reset"}),
        ("validate", {"moduleId": "elsewhere", "runId": "r1", "files": ["m1.py"]}),
        ("validate_plan", {"plan": _plan(["Inline"], "Not on disk")}),
        ("forge_logs", {"runId": "no-such-run"}),
        ("memory_save", {"pattern": "use ruff", "category": "convention"}),
    ]
    async with connect(project) as client:
        for tool, arguments in calls:
            await call(client, tool, arguments)
            _assert_as_rebuilt(project, f"{tool} {arguments}")
        # The planner rewrites its plan, then asks for it to be checked: the
        # status must show the new plan, though validate_plan changes no progress.
        (plans / "login.json").write_text(
            json.dumps(_plan(["Model", "API v2", "UI", "Docs", "Deploy"], "Ship login v2")),
            encoding="utf-8",
        )
        await call(client, "validate_plan", {})
        _assert_as_rebuilt(project, "validate_plan after the plan changed")
        # A newer plan file takes over the status of a run whose snapshot names none.
        newer = plans / "newer.json"
        newer.write_text(json.dumps(_plan(["Only"], "Newer")), encoding="utf-8")
        stamp = forge_dir_mtime(project) + 1
        os.utime(newer, (stamp, stamp))
        await call(client, "validate_plan", {})
        _assert_as_rebuilt(project, "validate_plan after a newer plan appeared")
    status = json.loads((project / ".forge/status.json").read_text(encoding="utf-8"))
    assert status["objective"] == "Newer" and status["lastTool"] == "validate_plan"


async def test_a_session_that_names_no_run_keeps_the_status_as_a_rebuild_would(
    project: Path,
) -> None:
    """No call names a run: the status shows run-less histories, or the newest snapshot's run
    once one appears, and a call that changes no progress only stamps what a rebuild would show."""
    plans = project / ".forge/plans"
    plans.mkdir(parents=True)
    (plans / "login.json").write_text(
        json.dumps(_plan(["Model", "API"], "Ship login")), encoding="utf-8"
    )
    (project / "m1.py").write_text("x = 1\n", encoding="utf-8")
    async with connect(project) as client:
        for tool, arguments in [
            ("validate_plan", {}),
            ("validate", {"moduleId": "m1", "files": ["m1.py"]}),
            ("validate_plan", {}),
            ("forge_logs", {"limit": 1}),
            ("validate", {"moduleId": "m2", "files": ["missing.py"]}),
            ("validate_plan", {}),
            ("validate", {"moduleId": "outside", "files": ["m1.py"]}),
            (
                "iteration_state",
                {"moduleId": "m1", "action": "update", "update": {"status": "blocked"}},
            ),
            ("iteration_state", {"moduleId": "m2", "action": "reset"}),
        ]:
            await call(client, tool, arguments)
            _assert_as_rebuilt(project, f"{tool} {arguments}")
        status = json.loads((project / ".forge/status.json").read_text(encoding="utf-8"))
        assert [(m["id"], m["state"]) for m in status["modules"]] == [
            ("m1", "failed"),
            ("m2", "pending"),
        ]
        # Another process saves a session: a rebuild now shows that run, so a plan
        # check must not merely stamp the run-less status.
        state = project / ".forge/state"
        state.mkdir(parents=True, exist_ok=True)
        (state / "other.json").write_text(
            json.dumps({"runId": "other", "currentPhase": "execution"}), encoding="utf-8"
        )
        await call(client, "validate_plan", {})
        _assert_as_rebuilt(project, "validate_plan after another process saved a session")
        status = json.loads((project / ".forge/status.json").read_text(encoding="utf-8"))
        assert status["runId"] == "other" and status["currentPhase"] == "execution"
        # The plan changes: the stamp would keep the old modules.
        (plans / "login.json").write_text(
            json.dumps(_plan(["Model", "API", "Docs"], "Ship login v2")), encoding="utf-8"
        )
        await call(client, "validate_plan", {})
        _assert_as_rebuilt(project, "validate_plan after the plan changed")
        status = json.loads((project / ".forge/status.json").read_text(encoding="utf-8"))
        assert status["objective"] == "Ship login v2" and status["counts"]["total"] == 3


def forge_dir_mtime(project: Path) -> float:
    """When ``status.json`` was last written."""
    return (project / ".forge/status.json").stat().st_mtime


def test_the_file_is_pydantic_s_json_of_the_status_however_it_was_assembled(
    tmp_path: Path,
) -> None:
    """Lines reused from the last write, new ones, none at all: the same bytes as one dump."""
    forge_dir = ForgeDir(tmp_path)
    forge_dir.ensure()
    line = ModuleStatus(
        id="m1",
        title='Ünïcode "quoted" \\ title\twith a tab',
        state="running",
        status=None,
        attempts=0,
        score=None,
        updated_at=None,
    )
    empty = Status(
        updated_at="2026-11-23T09:00:00.000Z",
        started_at=None,
        run_id="r1",
        plan_path=None,
        objective="Ünïcode",
        current_phase=None,
        last_tool="validate",
        counts=StatusCounts(total=0, done=0, running=0, failed=0, pending=0),
        modules=[],
    )
    two = empty.model_copy(
        update={
            "modules": [line, line.model_copy(update={"id": "m2", "score": 0.5})],
            "counts": StatusCounts(total=2, done=0, running=2, failed=0, pending=0),
        }
    )
    stamped = two.model_copy(update={"last_tool": "forge_logs"})
    patched = stamped.model_copy(
        update={"modules": [two.modules[0], line.model_copy(update={"id": "m2", "state": "done"})]}
    )
    for status in (empty, two, stamped, patched, empty):
        write_status(forge_dir, status)
        expected = status.model_dump_json(by_alias=True, indent=2) + "\n"
        assert forge_dir.status.read_bytes() == expected.encode("utf-8")
