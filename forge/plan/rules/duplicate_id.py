"""``duplicate_id``: two modules may not share an id (their history would be one file)."""

from __future__ import annotations

import json

from forge import hookimpl
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan, PlanModule


@hookimpl
def forge_check_plan(plan: Plan) -> list[PlanFinding]:
    """One error per id used by more than one module, naming the modules by title."""
    by_id: dict[str, list[PlanModule]] = {}
    for module in plan.modules:
        by_id.setdefault(module.id, []).append(module)
    return [
        PlanFinding(
            type="duplicate_id",
            message=f'module id "{module_id}" is used by {len(modules)} modules (titles '
            f"{', '.join(json.dumps(module.title, ensure_ascii=False) for module in modules)}); "
            "give each module its own id",
            modules=[module_id],
            field="id",
        )
        for module_id, modules in by_id.items()
        if len(modules) > 1
    ]


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``duplicate_id``."""
    return [PlanRuleDescriptor(id="duplicate_id", summary="No two modules share an id.", order=20)]
