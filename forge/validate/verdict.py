"""The verdict stage: from check results (and the attempt history's trend) to a report.

``score`` is passed checks / all checks and ``passed`` means every check
passed. A module whose halting check failed (no working dir) cannot be judged:
it escalates at once and no attempt is recorded. Otherwise the attempt's
trend (:mod:`forge.validate.history`) decides between PROCEED, RETRY and
ESCALATE.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.models import CheckResult, ValidateRequest
from forge.validate.history import Trend, recommend
from forge.validate.report import ValidateReport


@dataclass(frozen=True)
class Score:
    """How the checks went: every one passed, and the share that did."""

    passed: bool
    score: float

    @classmethod
    def of(cls, results: list[CheckResult]) -> Score:
        """The score of ``results``; no results at all is a pass."""
        passed_count = sum(result.passed for result in results)
        score = round(passed_count / len(results), 4) if results else 1.0
        return cls(passed=passed_count == len(results), score=score)


def unjudged(
    request: ValidateRequest, results: list[CheckResult], max_attempts: int
) -> ValidateReport:
    """The report of a module that cannot be judged: nothing to learn from retrying."""
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
    )


def judged(
    request: ValidateRequest,
    results: list[CheckResult],
    trend: Trend,
    *,
    max_attempts: int,
    notices: list[str],
) -> ValidateReport:
    """The report of a recorded attempt: its score, its trend, and what to do next."""
    score = Score.of(results)
    return ValidateReport(
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
        notices=notices,
    )
