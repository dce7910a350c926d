"""``invalid_id``: module ids become file names, so they must be safe ones."""

from __future__ import annotations

from forge import hookimpl
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan
from forge.store.ids import check_id


@hookimpl
def forge_check_plan(plan: Plan) -> list[PlanFinding]:
    """One error per module whose id is not a valid id (:data:`forge.store.ids.ID_PATTERN`)."""
    findings: list[PlanFinding] = []
    for module in plan.modules:
        try:
            check_id(module.id, "module id")
        except ValueError as exc:
            findings.append(
                PlanFinding(
                    type="invalid_id",
                    message=f"{exc}; module ids become file names",
                    modules=[module.id],
                    field="id",
                )
            )
    return findings


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``invalid_id``."""
    return [
        PlanRuleDescriptor(
            id="invalid_id", summary="Module ids are valid ids (they become file names).", order=10
        )
    ]
