"""Session snapshots: the orchestrator's own state, saved per run so a run can resume.

``.forge/state/<runId>.json`` holds whatever JSON object the orchestrator
saved (expected keys: runId, planPath, currentPhase, moduleStatuses,
retryCounts, completedModules, startedAt) plus ``lastUpdatedAt``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ConfigDict, Field

from forge.errors import CorruptFileError, UsageError
from forge.models import WireModel
from forge.store.forge_dir import ForgeDir, utc_now
from forge.store.json_files import peek_json, read_json, write_json
from forge.store.safe_open import state_files

#: Largest state object accepted, serialised as JSON.
MAX_STATE_BYTES = 1024 * 1024


class SessionSaved(WireModel):
    """``session_state`` save."""

    saved: bool = True
    run_id: str
    last_updated_at: str


class SessionLoaded(WireModel):
    """``session_state`` load: ``{found: true, runId, ...state}`` or ``{found: false, runId}``."""

    # The saved state's own keys are passed through as they were saved.
    model_config = ConfigDict(extra="allow")

    found: bool


class SessionSummary(WireModel):
    """One row of ``session_state`` list."""

    run_id: str
    last_updated_at: str | None
    current_phase: str | None
    completed_count: int
    total_count: int


class SessionList(WireModel):
    """``session_state`` list: every saved session, most recently updated first."""

    sessions: list[SessionSummary]
    notices: list[str] = Field(default_factory=list)


def save_session(forge_dir: ForgeDir, run_id: str, state: dict[str, Any]) -> SessionSaved:
    """Stamp ``lastUpdatedAt`` and replace the run's snapshot atomically."""
    path = forge_dir.session(run_id)
    stamped = {**state, "lastUpdatedAt": utc_now()}
    size = len(json.dumps(stamped, ensure_ascii=False).encode("utf-8"))
    if size > MAX_STATE_BYTES:
        raise UsageError(
            f"state is {size} bytes; the limit is {MAX_STATE_BYTES} (1 MB): "
            "keep ids and statuses in it, not outputs"
        )
    write_json(path, stamped)
    return SessionSaved(run_id=run_id, last_updated_at=stamped["lastUpdatedAt"])


def load_session(forge_dir: ForgeDir, run_id: str) -> SessionLoaded:
    """The saved state with ``found: true``, or ``{found: false, runId}``.

    A snapshot that is not valid JSON is moved aside and reported as an error
    (:class:`CorruptFileError`) rather than passed off as "not found".
    """
    state = read_json(forge_dir.session(run_id))
    if state is None:
        return SessionLoaded.model_validate({"found": False, "runId": run_id})
    if not isinstance(state, dict):
        raise CorruptFileError(
            f"{forge_dir.session(run_id)} holds {type(state).__name__}, not a JSON object"
        )
    # The snapshot's run is its file's name: a state saved without runId still says it.
    return SessionLoaded.model_validate({"runId": run_id, **state, "found": True})


def list_sessions(forge_dir: ForgeDir) -> SessionList:
    """Every snapshot, most recently updated first; unreadable ones are named in ``notices``."""
    rows: list[tuple[str, SessionSummary]] = []
    notices: list[str] = []
    folder = forge_dir.sessions
    for name in sorted(name for name, _ in state_files(folder, ".json")):
        path = folder / name
        state, problem = peek_json(path)
        if problem is not None or not isinstance(state, dict):
            notices.append(problem or f"{path} is not a JSON object; skipped")
            continue
        statuses = state.get("moduleStatuses")
        completed = state.get("completedModules")
        updated = state.get("lastUpdatedAt")
        phase = state.get("currentPhase")
        summary = SessionSummary(
            run_id=name.removesuffix(".json"),
            last_updated_at=updated if isinstance(updated, str) else None,
            current_phase=phase if isinstance(phase, str) else None,
            completed_count=len(completed) if isinstance(completed, list) else 0,
            total_count=len(statuses) if isinstance(statuses, dict) else 0,
        )
        rows.append((summary.last_updated_at or "", summary))
    rows.sort(key=lambda row: (row[0], row[1].run_id), reverse=True)
    return SessionList(sessions=[summary for _, summary in rows], notices=notices)
