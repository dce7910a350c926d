"""iteration_state: get, update and reset over the same history validate writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_client import call, connect

pytestmark = pytest.mark.anyio


async def test_get_of_an_unknown_module_is_empty_and_writes_nothing(project: Path) -> None:
    async with connect(project) as client:
        state = await call(client, "iteration_state", {"moduleId": "m1", "action": "get"})
    assert (state["attempts"], state["scores"], state["stagnant"]) == ([], [], False)
    assert not list((project / ".forge/iterations").iterdir())


async def test_update_appends_attempts_and_applies_validates_rules(project: Path) -> None:
    def update(**fields: object) -> dict[str, object]:
        return {"moduleId": "m1", "runId": "r", "action": "update", "update": fields}

    async with connect(project) as client:
        first = await call(
            client, "iteration_state", update(status="failed", issues=["x"], score=0.5)
        )
        second = await call(
            client,
            "iteration_state",
            update(status="failed", issues=["x"], score=0.5, rootCause="flaky clock"),
        )
        state = await call(
            client, "iteration_state", {"moduleId": "m1", "runId": "r", "action": "get"}
        )
    assert (first["updated"], first["attempt"], first["stagnant"]) == (True, 1, False)
    assert (second["attempt"], second["sameAsPrev"], second["stagnant"]) == (2, True, True)
    assert state["scores"] == [0.5, 0.5]
    assert (state["lastStatus"], state["lastRootCause"], state["stagnant"]) == (
        "failed",
        "flaky clock",
        True,
    )
    assert [a["issues"] for a in state["attempts"]] == [["x"], ["x"]]


async def test_updates_and_validates_share_one_history(project: Path) -> None:
    async with connect(project) as client:
        await call(client, "validate", {"moduleId": "m1", "runId": "r", "files": ["a.py"]})
        updated = await call(
            client,
            "iteration_state",
            {"moduleId": "m1", "runId": "r", "action": "update", "update": {"status": "running"}},
        )
        report = await call(client, "validate", {"moduleId": "m1", "runId": "r", "files": ["a.py"]})
        state = await call(
            client, "iteration_state", {"moduleId": "m1", "runId": "r", "action": "get"}
        )
    assert updated["attempt"] == 2 and report["attempt"] == 3
    assert [a["source"] for a in state["attempts"]] == ["validate", "update", "validate"]
    assert state["lastStatus"] == "failed"


async def test_reset_clears_the_history_of_that_run_only(project: Path) -> None:
    async with connect(project) as client:
        for run_id in ("r1", "r2"):
            await call(client, "validate", {"moduleId": "m1", "runId": run_id, "files": ["a.py"]})
        reset = await call(
            client, "iteration_state", {"moduleId": "m1", "runId": "r1", "action": "reset"}
        )
        again = await call(client, "validate", {"moduleId": "m1", "runId": "r1", "files": ["a.py"]})
        other = await call(
            client, "iteration_state", {"moduleId": "m1", "runId": "r2", "action": "get"}
        )
    assert reset["reset"] is True and reset["message"].startswith("Reset iteration state for m1")
    assert again["attempt"] == 1
    assert len(other["attempts"]) == 1


async def test_get_leaves_a_corrupt_history_in_place(project: Path) -> None:
    path = project / ".forge/iterations/r/m1.json"
    path.parent.mkdir(parents=True)
    path.write_text("{oops", encoding="utf-8")
    async with connect(project) as client:
        state = await call(
            client, "iteration_state", {"moduleId": "m1", "runId": "r", "action": "get"}
        )
        assert path.read_text(encoding="utf-8") == "{oops"
        assert state["attempts"] == [] and "corrupt" in state["notices"][0]
        report = await call(client, "validate", {"moduleId": "m1", "runId": "r", "files": ["a.py"]})
    assert report["attempt"] == 1 and "moved aside" in report["notices"][0]
