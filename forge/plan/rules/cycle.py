"""``cycle``: modules that wait for each other can never start.

Every elementary cycle is reported with its modules in dependency order
(``a -> b -> c -> a``: a depends on b, b on c, c on a); modules that merely
depend on a cycle are not blamed. A module that depends on itself is
``self_dependency``'s business, not a cycle here.
"""

from __future__ import annotations

from forge import hookimpl
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan

#: Cycles reported one by one; a knot with more gets one summary error.
MAX_CYCLES = 50


@hookimpl
def forge_check_plan(plan: Plan) -> list[PlanFinding]:
    """One error per dependency cycle, its modules in order."""
    cycles, truncated = plan.graph.cycles(limit=MAX_CYCLES)
    findings = [
        PlanFinding(
            type="cycle",
            message=f"dependency cycle: {' -> '.join([*cycle, cycle[0]])} "
            "(each depends on the next); remove one of these dependencies",
            modules=cycle,
            field="dependsOn",
        )
        for cycle in cycles
    ]
    if truncated:
        knotted = [node for part in plan.graph.components if len(part) > 1 for node in part]
        ordered = sorted(knotted, key=plan.graph.rank.__getitem__)
        findings.append(
            PlanFinding(
                type="cycle",
                message=f"more than {MAX_CYCLES} dependency cycles; only the first "
                f"{MAX_CYCLES} are listed. Modules on cycles: {', '.join(ordered)}",
                modules=ordered,
                field="dependsOn",
            )
        )
    return findings


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``cycle``."""
    return [PlanRuleDescriptor(id="cycle", summary="The dependency graph has no cycle.", order=50)]
