"""A module's line in ``.forge/status.json``: which modules a plan lists, and each one's state.

Each module's state comes from its attempt history in the run shown (never
another run's, nor a run-less one's), else the session snapshot's
``moduleStatuses``, else pending; a module a plan run skipped is skipped. Plans are read tolerantly here (a
plan that does not parse still shows its progress as far as it can); judging
plans is ``validate_plan``'s job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from forge.errors import StateError
from forge.models import WireModel
from forge.plan.loader import MAX_PLAN_BYTES
from forge.store.forge_dir import ForgeDir, utc_now
from forge.store.ids import is_valid_id, is_valid_run_id
from forge.store.json_files import decode_json
from forge.store.safe_open import newest, read_regular_file
from forge.validate.history import read_history

ModuleState = Literal["pending", "running", "done", "failed", "skipped"]


#: How an attempt's or a snapshot's status word counts in the totals.
STATE_OF: dict[str, ModuleState] = {
    "passed": "done",
    "done": "done",
    "complete": "done",
    "completed": "done",
    "running": "running",
    "in_progress": "running",
    "retrying": "running",
    "failed": "failed",
    "stagnant": "failed",
    "escalated": "failed",
    "blocked": "failed",
    # A module a plan run did not validate because a dependency did not pass:
    # not waiting to run (pending), not failed itself.
    "skipped": "skipped",
}


class ModuleStatus(WireModel):
    """One module's line in the status file."""

    id: str
    title: str
    state: ModuleState = Field(description="pending, running, done, failed or skipped.")
    status: str | None = Field(description="The last status reported (passed, escalated, ...).")
    attempts: int
    score: float | None = Field(description="Score of the latest attempt that had one.")
    updated_at: str | None = Field(description="Time of the latest attempt.")


def snapshot_statuses(session: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's ``moduleStatuses``: what the orchestrator says of each module."""
    statuses = session.get("moduleStatuses")
    return statuses if isinstance(statuses, dict) else {}


def module_status(module_id: str, *, attempts: int, passed: bool, score: float) -> ModuleStatus:
    """A module's line after a validate attempt: what :func:`build_status` would read back."""
    status = "passed" if passed else "failed"
    return ModuleStatus(
        id=module_id,
        title=module_id,
        state=STATE_OF[status],
        status=status,
        attempts=attempts,
        score=score,
        updated_at=utc_now(),
    )


def shown_plan(forge_dir: ForgeDir, wanted: object) -> tuple[str | None, dict[str, Any]]:
    path: Path | None = None
    if isinstance(wanted, str) and wanted:
        candidate = Path(wanted).expanduser()
        candidate = candidate if candidate.is_absolute() else forge_dir.project_root / candidate
        path = candidate if candidate.is_file() else None
    if path is None:
        path = newest(forge_dir.plans, ".json")
    if path is None:
        return None, {}
    plan = _read_plan(path)
    try:
        shown = path.relative_to(forge_dir.project_root).as_posix()
    except ValueError:
        shown = str(path)
    return shown, plan if isinstance(plan, dict) else {}


def _read_plan(path: Path) -> Any:
    """The plan's JSON, or ``None``: this runs after every call, so a plan too big
    to check (or a FIFO, or text forge cannot write back) is not read at all."""
    try:
        return decode_json(read_regular_file(path, MAX_PLAN_BYTES))
    except (OSError, StateError, ValueError, RecursionError):
        return None


def module_ids(
    forge_dir: ForgeDir, run_id: str | None, plan: dict[str, Any]
) -> list[tuple[str, str]]:
    modules = plan.get("modules")
    if isinstance(modules, list) and modules:
        found = []
        for module in modules:
            if isinstance(module, dict) and isinstance(module.get("id"), str):
                title = module.get("title")
                found.append((module["id"], title if isinstance(title, str) else module["id"]))
        return found
    # No plan: show whatever modules have an attempt history in this run.
    if run_id is not None and not is_valid_run_id(run_id):
        return []
    return [(i, i) for i in forge_dir.module_ids(run_id)]


def module_line(
    forge_dir: ForgeDir,
    run_id: str | None,
    module_id: str,
    title: str,
    reported: object,
    *,
    skipped: bool = False,
    recorded: bool = True,
) -> ModuleStatus:
    attempts: list[Any] = []
    last_status: str | None = None
    # ``recorded`` False: the run's folder has no history of the module, no need to look.
    if recorded and is_valid_id(module_id):
        history, _ = read_history(forge_dir, module_id, run_id)
        attempts, last_status = history.attempts, history.last_status
    if (last_status is None or skipped) and isinstance(reported, str):
        last_status = reported
    state: ModuleState = "pending"
    if last_status is not None:
        state = STATE_OF.get(last_status.lower(), "running" if attempts else "pending")
    elif attempts:
        state = "running"
    scores = [a.score for a in attempts if a.score is not None]
    return ModuleStatus(
        id=module_id,
        title=title,
        state=state,
        status=last_status,
        attempts=len(attempts),
        score=scores[-1] if scores else None,
        updated_at=attempts[-1].timestamp if attempts else None,
    )
