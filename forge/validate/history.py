"""Attempt history: every attempt at a module, and what the sequence of them says.

One file per (runId, moduleId), updated under a lock so parallel validate
calls and ``iteration_state`` updates never lose an attempt. The rules are
the MCP contract's (docs/mcp-tools.md): a failure is ``type:target``; ``sameAsPrev``, ``oscillating``
(A, B, A), ``velocity`` over the last four scores, ``stagnant``, and the
PROCEED / RETRY / ESCALATE recommendation. An attempt forge could not judge
(``unjudged``: a plugin failed, a file over the parse limit) is kept but
left out of those rules and of the attempt limit: it escalates on its own
("fix the environment"), and says nothing about the worker.

``iteration_state`` reads and writes the same files with the same rules
(:mod:`forge.validate.iteration`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from forge.errors import CorruptFileError
from forge.models import WireModel
from forge.store.forge_dir import ForgeDir, utc_now
from forge.store.json_files import peek_json, update_json
from forge.validate.outcome import Recommendation

AttemptStatus = Literal["running", "passed", "failed", "stagnant", "escalated", "blocked"]

#: How many attempts before the previous one an A-B-A oscillation may reach back.
OSCILLATION_WINDOW = 4
#: How many of the latest scores velocity is computed over.
VELOCITY_WINDOW = 4


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
    unjudged: bool = Field(
        default=False,
        exclude_if=lambda value: not value,
        description="forge could not judge this attempt (its environment's fault, not the "
        "worker's): left out of the stagnation rules and the attempt limit.",
    )


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
    #: Attempts forge could not judge, left out of the attempt limit.
    uncounted: int = 0
    #: The latest attempt is one forge could not judge: it escalates, whatever the rest.
    unjudged: bool = False

    @property
    def counted(self) -> int:
        """The attempts that count toward the limit: all but those forge could not judge."""
        return self.attempt - self.uncounted


def failure_set(attempt: Attempt) -> frozenset[str]:
    """The failure identities of an attempt (check failures, or the issues of an update)."""
    return frozenset(attempt.failures or attempt.issues)


def assess(attempts: list[Attempt]) -> Trend:
    """Apply the stagnation rules to a non-empty attempt list (latest last).

    Attempts forge could not judge are left out; when the latest is one, nothing
    is stagnant and :attr:`Trend.unjudged` says why it escalates.
    """
    latest = attempts[-1]
    judged = [a for a in attempts if not a.unjudged]
    if latest.unjudged:
        return Trend(
            attempt=latest.attempt,
            same_as_prev=False,
            oscillating=False,
            velocity=None,
            stagnant=False,
            uncounted=len(attempts) - len(judged),
            unjudged=True,
        )
    uncounted, attempts = len(attempts) - len(judged), judged
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
        uncounted=uncounted,
    )


def recommend(*, passed: bool, trend: Trend, max_attempts: int) -> Recommendation:
    """PROCEED when passed; ESCALATE when forge could not judge, when stagnant or out of
    attempts; else RETRY."""
    if passed:
        return "PROCEED"
    if trend.unjudged or trend.stagnant or trend.counted >= max_attempts:
        return "ESCALATE"
    return "RETRY"


def reason_for(*, passed: bool, trend: Trend, max_attempts: int) -> str:
    """Why :func:`recommend` says what it says, one sentence (every ESCALATE has one)."""
    if passed:
        return "every check passed"
    if trend.unjudged:
        return (
            "forge could not judge this attempt: fix the environment, then validate again "
            "(the attempt does not count toward stagnation)"
        )
    if trend.same_as_prev:
        return "the same failures as the previous attempt: change approach"
    if trend.oscillating:
        return "the failures of an earlier attempt are back (A, B, A): change approach"
    if trend.stagnant:
        return "no progress: the score has not risen over the last attempts"
    if trend.counted >= max_attempts:
        return f"{attempt_words(trend.counted, max_attempts)}: the attempt limit is reached"
    return (
        f"{attempt_words(trend.counted, max_attempts)}: fix the failing checks and validate again"
    )


def attempt_words(attempt: int, max_attempts: int) -> str:
    """``attempt 2 of 3``; past the limit, ``attempt 4, past the limit of 3`` (never "4 of 3")."""
    if attempt > max_attempts:
        return f"attempt {attempt}, past the limit of {max_attempts}"
    return f"attempt {attempt} of {max_attempts}"


def read_history(
    forge_dir: ForgeDir, module_id: str, run_id: str | None
) -> tuple[History, str | None]:
    """A module's attempt history in run ``run_id`` as a reader sees it (nothing locked, nothing
    moved aside), and why it is empty when its file cannot be read.

    This run's history alone: a run-less call's attempts are another history.
    """
    stored, problem = peek_json(forge_dir.iteration(module_id, run_id))
    return load_history(module_id, run_id, stored), problem


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
    unjudged: bool = False,
) -> tuple[History, Trend, list[str]]:
    """Append one attempt to the history at ``path`` under its lock.

    :param unjudged: forge could not judge the attempt (see :class:`Attempt`).

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
            unjudged=unjudged,
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
