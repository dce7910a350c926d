"""``unknown_check``: an acceptance criterion that looks like a forge check's id must name one.

A criterion's ``check`` that may name a forge check (one lower-case word with
an underscore, :func:`forge.plan.model.may_name_check`) is judged by
``validate`` as that check when a plugin here declares it, and otherwise run
as a command. A misspelt id (``contract_chek``) would run as a program that
does not exist and fail the module with exit 127 after the work is done: it
is an error now, naming the closest check (or every check). A program of that
name on ``PATH`` is a command and passes (``missing_command`` leaves these
criteria to this rule). A check whose plugin is disabled here is unknown too,
since ``validate`` here would not judge it; the message names the disabled
plugins. Nothing is executed: ``PATH`` is searched by the standard library.
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

from forge import hookimpl
from forge.errors import clip, close_names, did_you_mean
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan, may_name_check
from forge.plan.rules import module_label

if TYPE_CHECKING:
    from forge.plugin_host.catalog import KnownChecks

#: Longest stretch of a criterion's check quoted in a message.
SHOWN_CHECK_CHARS = 80


@hookimpl
def forge_check_plan(plan: Plan, checks: KnownChecks) -> list[PlanFinding]:
    """One error per criterion naming neither a check declared here nor a program on PATH."""
    findings: list[PlanFinding] = []
    on_path: dict[str, bool] = {}
    for module in plan.modules:
        for index, criterion in enumerate(module.acceptance_criteria):
            check = criterion.check.strip()
            # ``checks`` is read (the check plugins looked up) only for a criterion like an id.
            if not may_name_check(check) or check in checks:
                continue
            if check not in on_path:
                on_path[check] = shutil.which(check) is not None
            if on_path[check]:
                continue
            findings.append(
                PlanFinding(
                    type="unknown_check",
                    message=f"{module_label(module.id)}: acceptance_criteria[{index}].check "
                    f'"{clip(check, SHOWN_CHECK_CHARS)}" is neither a forge check nor a '
                    f"program on PATH{_hint(check, checks)}",
                    modules=[module.id],
                    field="acceptance_criteria",
                )
            )
    return findings


def _hint(check: str, checks: KnownChecks) -> str:
    """The closest check's id, else every id; and the plugins disabled here, if any."""
    near = did_you_mean(close_names(check, checks, n=1))
    hint = near or f"; the checks are: {clip(', '.join(checks), 300)}"
    if checks.disabled:
        hint += f" (plugins disabled here: {clip(', '.join(checks.disabled), 200)})"
    return hint


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``unknown_check``, beside ``missing_command``: both are about what a criterion runs."""
    return [
        PlanRuleDescriptor(
            id="unknown_check",
            summary="An acceptance criterion named like a check id names a check declared here.",
            order=65,
        )
    ]
