"""``unknown_dependency``: every id in ``dependsOn`` must be a module of the plan."""

from __future__ import annotations

from forge import hookimpl
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan
from forge.plan.rules import module_label


@hookimpl
def forge_check_plan(plan: Plan) -> list[PlanFinding]:
    """One error per dependency on an id no module has, with a close match when there is one.

    Ids of modules the ``schema`` step left out count as known: those modules
    exist, and their own problems are already reported.
    """
    ids = list(dict.fromkeys(module.id for module in plan.modules))
    known = set(ids) | plan.omitted_ids
    findings: list[PlanFinding] = []
    for module in plan.modules:
        for dependency in dict.fromkeys(module.depends_on):
            if dependency in known:
                continue
            from difflib import get_close_matches  # deferred: only an unknown id is compared

            close = get_close_matches(dependency, ids, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            findings.append(
                PlanFinding(
                    type="unknown_dependency",
                    message=f'{module_label(module.id)} depends on "{dependency}", '
                    f"which is not a module of this plan{hint}",
                    modules=[module.id],
                    field="dependsOn",
                )
            )
    return findings


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``unknown_dependency``."""
    return [
        PlanRuleDescriptor(
            id="unknown_dependency",
            summary="Every dependsOn entry names a module of the plan.",
            order=30,
        )
    ]
