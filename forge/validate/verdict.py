"""The verdict stage: from check results (and the attempt history's trend) to a report.

``score`` is passed checks / all checks and ``passed`` means every check
passed; results whose findings were all there at the base revision
(``preExisting``), and checks that could not run (``skipped``), count neither
way. A module whose halting check failed (no working dir) cannot be judged:
it escalates at once and no attempt is recorded. A result forge could not
judge (``unjudged``: a checker stopped by its configuration, a plugin that failed, a
file over the parse limit) is
a failure that escalates the module ("fix the environment"); its attempt is
recorded but counts toward neither stagnation nor the limit. Otherwise the
attempt's trend (:mod:`forge.validate.history`) decides between PROCEED, RETRY
and ESCALATE.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.models import CheckResult, Location, ValidateRequest
from forge.validate.history import Trend, reason_for, recommend
from forge.validate.outcome import ValidateReport


@dataclass(frozen=True)
class Score:
    """How the checks went: every one passed, and the share that did."""

    passed: bool
    score: float

    @classmethod
    def of(cls, results: list[CheckResult]) -> Score:
        """The score of ``results``; nothing judged is no pass (score 0).

        A pre-existing result (every finding already there at the base
        revision), an advisory one (a non-blocking acceptance criterion) and a
        skipped one (a tool it needs is not installed) count neither way: they are left out of both counts.
        An unjudged one (forge could not judge) counts as a failure.
        """
        judged = [result for result in results if result.judged]
        if not judged:
            return cls(passed=False, score=0.0)
        passed_count = sum(result.passed for result in judged)
        return cls(passed=passed_count == len(judged), score=round(passed_count / len(judged), 4))


def counts_as_failure(result: CheckResult) -> bool:
    """A failed result that is neither pre-existing nor advisory (an unjudged one included):
    it fails the module."""
    return not result.passed and result.judged


def not_judged(results: list[CheckResult]) -> CheckResult | None:
    """The first failure forge's environment caused (``unjudged``), if any: the module
    escalates for it, whatever the other results say."""
    return next((r for r in results if r.unjudged and counts_as_failure(r)), None)


def unjudged(
    request: ValidateRequest, results: list[CheckResult], max_attempts: int
) -> ValidateReport:
    """The report of a module that cannot be judged: nothing to learn from retrying."""
    stopped = next((result for result in results if not result.passed), None)
    reason = "the module cannot be judged"
    if stopped is not None:
        reason += f" ({stopped.type}: {stopped.message})"
    return ValidateReport(
        passed=False,
        score=0.0,
        results=results,
        module_id=request.module_id,
        run_id=request.run_id,
        max_attempts=max_attempts,
        attempt=0,
        stagnant=False,
        same_as_prev=False,
        oscillating=False,
        velocity=None,
        recommendation="ESCALATE",
        reason=f"{reason}: fix that first, no attempt was recorded",
    )


def judged(
    request: ValidateRequest,
    results: list[CheckResult],
    trend: Trend,
    *,
    max_attempts: int,
    notices: list[str],
    base_commit: str | None = None,
) -> ValidateReport:
    """The report of a recorded attempt: its score, its trend, and what to do next."""
    score = Score.of(results)
    reason = reason_for(passed=score.passed, trend=trend, max_attempts=max_attempts)
    problem = not_judged(results) if trend.unjudged else None
    if problem is not None:
        reason = (
            f"forge could not judge {problem.target} ({problem.message}): fix the "
            "environment, then validate again; this attempt does not count toward stagnation"
        )
    return ValidateReport(
        base_commit=base_commit,
        passed=score.passed,
        score=score.score,
        results=results,
        module_id=request.module_id,
        run_id=request.run_id,
        max_attempts=max_attempts,
        attempt=trend.attempt,
        stagnant=trend.stagnant,
        same_as_prev=trend.same_as_prev,
        oscillating=trend.oscillating,
        velocity=trend.velocity,
        recommendation=recommend(passed=score.passed, trend=trend, max_attempts=max_attempts),
        reason=reason,
        notices=notices,
    )


def counted(place: Location) -> bool:
    """Whether a place counts against a change: neither found at the base nor informational."""
    return not place.pre_existing and not place.informational
