"""``self_dependency``: a module cannot wait for itself."""

from __future__ import annotations

from forge import hookimpl
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan
from forge.plan.rules import module_label


@hookimpl
def forge_check_plan(plan: Plan) -> list[PlanFinding]:
    """One error per module that lists its own id in ``dependsOn``."""
    return [
        PlanFinding(
            type="self_dependency",
            message=f"{module_label(module.id)} depends on itself; remove it from its dependsOn",
            modules=[module.id],
            field="dependsOn",
        )
        for module in plan.modules
        if module.id in module.depends_on
    ]


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``self_dependency``."""
    return [
        PlanRuleDescriptor(id="self_dependency", summary="No module depends on itself.", order=40)
    ]
