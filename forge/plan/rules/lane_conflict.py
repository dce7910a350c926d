"""``lane_conflict``: a module may not list a file its own ``disallowed_changes`` forbid.

A module's lane is its ``files`` and ``mayChange`` globs minus its
``disallowed_changes``. A listed file the module must not change can never be
delivered: the plan contradicts itself, so it is an error.
"""

from __future__ import annotations

from pathlib import Path

from forge import hookimpl
from forge.globs import matches
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan, normalise_path
from forge.plan.rules import module_label


@hookimpl
def forge_check_plan(plan: Plan, project_root: Path) -> list[PlanFinding]:
    """One error per module listing files its ``disallowed_changes`` forbid."""
    findings = []
    for module in plan.modules:
        if not module.disallowed_changes:
            continue
        forbidden = {
            path: glob
            for path in (normalise_path(file, project_root) for file in module.files)
            if (glob := matches(path, module.disallowed_changes)) is not None
        }
        if forbidden:
            shown = ", ".join(f"{path} (by {glob})" for path, glob in forbidden.items())
            findings.append(
                PlanFinding(
                    type="lane_conflict",
                    message=f"{module_label(module.id)} lists files its disallowed_changes "
                    f"forbid: {shown}; remove them from files or from disallowed_changes",
                    modules=[module.id],
                    files=list(forbidden),
                    field="disallowed_changes",
                )
            )
    return findings


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``lane_conflict``."""
    return [
        PlanRuleDescriptor(
            id="lane_conflict",
            summary="No module lists a file its disallowed_changes forbid.",
            order=75,
        )
    ]
