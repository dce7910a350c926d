"""``unbacked_done_when`` (warning): a module's ``doneWhen`` that no check could ever disprove.

``doneWhen`` is prose; what backs it is what ``validate`` runs. A module is
flagged when nothing it runs could fail because the work is missing: every
verify command only prints or succeeds (``true``, ``:``, ``exit 0``,
``echo done``, ``printf ...``, ``python -c pass``, ``pytest || true``: see
:mod:`forge.plan.rules.inert_verify`, which warns about each such command) and
it has no blocking acceptance criterion other than such a command. A criterion naming a forge check (``syntax_check``)
backs it, as does any command that does something.
"""

from __future__ import annotations

from forge import hookimpl
from forge.errors import clip
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan, PlanModule
from forge.plan.rules import module_label
from forge.plan.rules.inert_verify import cannot_fail


def checks_nothing(command: str) -> bool:
    """Whether ``command`` succeeds whatever the files hold (``true``, ``echo done``,
    ``pytest || true``): :func:`forge.plan.rules.inert_verify.cannot_fail` decides."""
    return cannot_fail(command) is not None


def _backed(module: PlanModule) -> bool:
    if not all(checks_nothing(command) for command in module.verify):
        return True
    return any(
        criterion.blocking and not checks_nothing(criterion.check)
        for criterion in module.acceptance_criteria
    )


@hookimpl
def forge_check_plan(plan: Plan) -> list[PlanFinding]:
    """One warning per module whose verify commands and criteria cannot fail."""
    findings = []
    for module in plan.modules:
        if _backed(module):
            continue
        done = module.done_when if isinstance(module.done_when, str) else module.done_when[0]
        findings.append(
            PlanFinding(
                type="unbacked_done_when",
                severity="warning",
                message=f'{module_label(module.id)}: doneWhen "{clip(done, 80)}" is backed by no '
                f"check: its verify commands ({clip('; '.join(module.verify), 80)}) succeed "
                "whatever the work is; give a command that tests it, or an acceptance criterion",
                modules=[module.id],
                field="doneWhen",
            )
        )
    return findings


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``unbacked_done_when``."""
    return [
        PlanRuleDescriptor(
            id="unbacked_done_when",
            summary="Every module's doneWhen is backed by a check that can fail.",
            order=90,
        )
    ]
