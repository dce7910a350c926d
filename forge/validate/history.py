"""Attempt history: every attempt at a module, and what the sequence of them says.

One file per (runId, moduleId), updated under a lock so parallel validate
calls and ``iteration_state`` updates never lose an attempt. The rules are
DESIGN.md's: a failure is ``type:target``; ``sameAsPrev``, ``oscillating``
(A, B, A), ``velocity`` over the last four scores, ``stagnant``, and the
PROCEED / RETRY / ESCALATE recommendation.

``iteration_state`` reads and writes the same files with the same rules:
:func:`read_state` (get), :func:`update_state` (update), :func:`reset_state`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from forge.errors import CorruptFileError
from forge.models import WireModel
from forge.store import peek_json, remove, update_json, utc_now
from forge.validate.report import Recommendation

AttemptStatus = Literal["running", "passed", "failed", "stagnant", "escalated", "blocked"]

#: How many attempts before the previous one an A-B-A oscillation may reach back.
OSCILLATION_WINDOW = 4
#: How many of the latest scores velocity is computed over.
VELOCITY_WINDOW = 4
#: Limits on one iteration_state update.
MAX_ISSUES = 200
MAX_ISSUE_LENGTH = 2_000
MAX_ROOT_CAUSE_LENGTH = 8_000


class Attempt(WireModel):
    """One attempt as stored on disk."""

    attempt: int
    timestamp: str
    source: Literal["validate", "update"] = "validate"
    status: AttemptStatus | None = None
    score: float | None = None
    passed: bool | None = None
    failures: list[str] = Field(default_factory=list)
    issues: list[str] = Field(default_factory=list)
    root_cause: str | None = None


class History(WireModel):
    """The attempt history file of one (runId, moduleId)."""

    module_id: str
    run_id: str | None = None
    attempts: list[Attempt] = Field(default_factory=list)
    last_status: str | None = None
    last_root_cause: str | None = None


class Trend(WireModel):
    """What the attempt sequence says after the latest attempt."""

    attempt: int
    same_as_prev: bool
    oscillating: bool
    velocity: float | None
    stagnant: bool


def failure_set(attempt: Attempt) -> frozenset[str]:
    """The failure identities of an attempt (check failures, or the issues of an update)."""
    return frozenset(attempt.failures or attempt.issues)


def assess(attempts: list[Attempt]) -> Trend:
    """Apply the stagnation rules to a non-empty attempt list (latest last)."""
    sets = [failure_set(a) for a in attempts]
    current = sets[-1]
    previous = sets[-2] if len(sets) >= 2 else None
    earlier = sets[-2 - OSCILLATION_WINDOW : -2]
    same_as_prev = bool(current) and current == previous
    oscillating = (
        bool(current) and previous is not None and current != previous and current in earlier
    )
    scores = [a.score for a in attempts if a.score is not None][-VELOCITY_WINDOW:]
    velocity = (scores[-1] - scores[0]) / (len(scores) - 1) if len(scores) >= 3 else None
    latest = attempts[-1]
    passed = latest.passed if latest.passed is not None else latest.status == "passed"
    stagnant = (
        same_as_prev or oscillating or (velocity is not None and velocity <= 0 and not passed)
    )
    return Trend(
        attempt=latest.attempt,
        same_as_prev=same_as_prev,
        oscillating=oscillating,
        velocity=None if velocity is None else round(velocity, 6),
        stagnant=stagnant,
    )


def recommend(*, passed: bool, trend: Trend, max_attempts: int) -> Recommendation:
    """PROCEED when passed; ESCALATE when stagnant or out of attempts; else RETRY."""
    if passed:
        return "PROCEED"
    if trend.stagnant or trend.attempt >= max_attempts:
        return "ESCALATE"
    return "RETRY"


def reason_for(*, passed: bool, trend: Trend, max_attempts: int) -> str:
    """Why :func:`recommend` says what it says, one sentence (every ESCALATE has one)."""
    if passed:
        return "every check passed"
    if trend.same_as_prev:
        return "the same failures as the previous attempt: change approach"
    if trend.oscillating:
        return "the failures of an earlier attempt are back (A, B, A): change approach"
    if trend.stagnant:
        return "no progress: the score has not risen over the last attempts"
    if trend.attempt >= max_attempts:
        return f"attempt {trend.attempt} of {max_attempts}: the attempt limit is reached"
    return f"attempt {trend.attempt} of {max_attempts}: fix the failing checks and validate again"


def load_history(
    module_id: str, run_id: str | None, stored: Any, *, strict: bool = False
) -> History:
    """Parse a stored history; ``None`` is an empty one.

    A file of the wrong shape (an older format, a hand edit) reads as empty,
    or with ``strict`` raises :class:`CorruptFileError` so that a writer moves
    it aside instead of silently replacing it.
    """
    if stored is None:
        return History(module_id=module_id, run_id=run_id)
    try:
        return History.model_validate(stored)
    except ValidationError as exc:
        if strict:
            raise CorruptFileError(
                f"is not an attempt history forge can read ({exc.error_count()} problems)"
            ) from None
        return History(module_id=module_id, run_id=run_id)


def record_attempt(
    path: Path,
    *,
    module_id: str,
    run_id: str | None,
    source: Literal["validate", "update"],
    score: float | None,
    passed: bool | None = None,
    failures: list[str] | None = None,
    issues: list[str] | None = None,
    status: AttemptStatus | None = None,
    root_cause: str | None = None,
) -> tuple[History, Trend, list[str]]:
    """Append one attempt to the history at ``path`` under its lock.

    Returns the new history, its trend and notices (a corrupt history file is
    moved aside and a new one started; the notice says where it went).
    """

    def change(stored: Any) -> dict[str, Any]:
        history = load_history(module_id, run_id, stored, strict=True)
        attempt = Attempt(
            attempt=len(history.attempts) + 1,
            timestamp=utc_now(),
            source=source,
            status=status,
            score=score,
            passed=passed,
            failures=sorted(set(failures or [])),
            issues=list(issues or []),
            root_cause=root_cause,
        )
        updated = history.model_copy(
            update={
                "attempts": [*history.attempts, attempt],
                "last_status": _last_status(status, passed, history.last_status),
                "last_root_cause": root_cause
                if root_cause is not None
                else history.last_root_cause,
            }
        )
        return updated.to_wire()

    stored, notices = update_json(path, change)
    history = History.model_validate(stored)
    return history, assess(history.attempts), notices


def _last_status(status: str | None, passed: bool | None, previous: str | None) -> str | None:
    if status is not None:
        return status
    if passed is not None:
        return "passed" if passed else "failed"
    return previous


# --- iteration_state ------------------------------------------------------------


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
        attempt=trend.attempt,
        stagnant=trend.stagnant,
        same_as_prev=trend.same_as_prev,
        oscillating=trend.oscillating,
        velocity=trend.velocity,
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
