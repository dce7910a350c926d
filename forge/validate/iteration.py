"""``iteration_state``: an attempt history as an orchestrator reads, updates and resets it.

The files, the trend rules and the locking are :mod:`forge.validate.history`'s:
an update is recorded exactly as a validate attempt is. Apart from it so that
``forge validate`` and ``forge hook``, which record attempts but never answer
this tool, do not create its models.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field

from forge.errors import CorruptFileError
from forge.models import WireModel
from forge.store.json_files import peek_json
from forge.store.locks import remove
from forge.validate.history import Attempt, AttemptStatus, assess, load_history, record_attempt

#: Limits on one iteration_state update.
MAX_ISSUES = 200
MAX_ISSUE_LENGTH = 2_000
MAX_ROOT_CAUSE_LENGTH = 8_000


class IterationUpdate(WireModel):
    """What an orchestrator reports about an attempt it judged itself (``update``)."""

    status: AttemptStatus | None = Field(default=None, description="Outcome of the attempt.")
    issues: list[Annotated[str, Field(max_length=MAX_ISSUE_LENGTH)]] = Field(
        default_factory=list,
        max_length=MAX_ISSUES,
        description="Issues found; keep each one stable between attempts (it is the failure identity).",
    )
    score: float | None = Field(default=None, ge=0, le=1, description="Score 0..1.")
    root_cause: str | None = Field(
        default=None, max_length=MAX_ROOT_CAUSE_LENGTH, description="Root cause, if known."
    )


class IterationState(WireModel):
    """``iteration_state`` get: the attempts of one (runId, moduleId) and what they say."""

    module_id: str
    run_id: str | None = None
    attempts: list[Attempt] = Field(description="Every attempt, oldest first.")
    scores: list[float] = Field(description="The scores of the attempts that had one.")
    stagnant: bool
    same_as_prev: bool = False
    oscillating: bool = False
    velocity: float | None = None
    last_status: str | None = None
    last_root_cause: str | None = None
    notices: list[str] = Field(default_factory=list)


class IterationUpdated(WireModel):
    """``iteration_state`` update: the attempt appended and the stagnation flags after it."""

    updated: bool = True
    attempt: int = Field(description="Number of the attempt just appended.")
    stagnant: bool
    same_as_prev: bool
    oscillating: bool
    velocity: float | None
    module_id: str
    run_id: str | None = None
    notices: list[str] = Field(default_factory=list)


class IterationReset(WireModel):
    """``iteration_state`` reset: the history is gone."""

    reset: bool = True
    module_id: str
    run_id: str | None = None
    message: str


class ModuleReset(WireModel):
    """One history ``forge reset`` cleared, and how many attempts it held."""

    module_id: str
    run_id: str | None = None
    attempts: int = Field(ge=0, description="Attempts the history held before the reset.")


class ResetSummary(WireModel):
    """What ``forge reset`` cleared (``--json``)."""

    reset: list[ModuleReset]


def read_state(path: Path, *, module_id: str, run_id: str | None) -> IterationState:
    """The history at ``path`` as ``iteration_state`` get shows it; changes nothing."""
    stored, problem = peek_json(path)
    try:
        history = load_history(module_id, run_id, stored, strict=True)
    except CorruptFileError as exc:
        history = load_history(module_id, run_id, None)
        problem = f"{path} {exc}; it will be moved aside on the next write"
    trend = assess(history.attempts) if history.attempts else None
    return IterationState(
        module_id=module_id,
        run_id=run_id,
        attempts=history.attempts,
        scores=[a.score for a in history.attempts if a.score is not None],
        stagnant=trend.stagnant if trend else False,
        same_as_prev=trend.same_as_prev if trend else False,
        oscillating=trend.oscillating if trend else False,
        velocity=trend.velocity if trend else None,
        last_status=history.last_status,
        last_root_cause=history.last_root_cause,
        notices=[problem] if problem else [],
    )


def update_state(
    path: Path, *, module_id: str, run_id: str | None, update: IterationUpdate
) -> IterationUpdated:
    """Append the orchestrator's attempt and recompute the flags, as validate does."""
    _, trend, notices = record_attempt(
        path,
        module_id=module_id,
        run_id=run_id,
        source="update",
        score=update.score,
        passed=None if update.status is None else update.status == "passed",
        issues=update.issues,
        status=update.status,
        root_cause=update.root_cause,
    )
    return IterationUpdated(
        **trend.model_dump(exclude={"uncounted", "unjudged"}),
        module_id=module_id,
        run_id=run_id,
        notices=notices,
    )


def reset_state(path: Path, *, module_id: str, run_id: str | None) -> IterationReset:
    """Delete the history at ``path``: the next attempt is attempt 1 again."""
    existed = remove(path)
    where = f"{module_id} (run {run_id})" if run_id else module_id
    what = "cleared" if existed else "there was no history to clear"
    return IterationReset(
        module_id=module_id,
        run_id=run_id,
        message=f"Reset iteration state for {where}: {what}.",
    )
