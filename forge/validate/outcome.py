"""The result stage: what ``validate`` returns, for both adapters and every report format."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, SerializeAsAny

from forge.models import CheckResult, WireModel

Recommendation = Literal["PROCEED", "RETRY", "ESCALATE"]


class ValidateReport(WireModel):
    """What ``validate`` returns: the checks, the score, and what to do next."""

    passed: bool = Field(
        description="True when every check passed (results marked preExisting aside)."
    )
    score: float = Field(
        ge=0, le=1, description="Passed checks / all checks, results marked preExisting left out."
    )
    results: list[SerializeAsAny[CheckResult]]
    attempt: int = Field(description="Attempt number for (runId, moduleId); 0 if not recorded.")
    stagnant: bool
    same_as_prev: bool
    oscillating: bool
    velocity: float | None
    recommendation: Recommendation
    reason: str = Field(
        default="",
        description="Why this recommendation, one sentence: for ESCALATE, what is stuck.",
    )
    module_id: str
    run_id: str | None = None
    max_attempts: int
    notices: list[str] = Field(
        default_factory=list, description="Things worth knowing that are not check failures."
    )
    base_commit: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="The commit findings were compared with (baseRef); present only with a base.",
    )


@dataclass(frozen=True)
class ModuleRun:
    """One module of a ``forge validate`` run: its report, or why it was not validated."""

    module_id: str
    working_dir: Path
    report: ValidateReport | None = None
    skipped: str | None = None
    title: str | None = None
    seconds: float = 0.0

    @property
    def status(self) -> str:
        """``passed``, ``failed`` or ``skipped``."""
        if self.report is None:
            return "skipped"
        return "passed" if self.report.passed else "failed"
