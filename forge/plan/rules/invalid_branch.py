"""``invalid_branch``: a module's ``branch`` must not start with ``-``.

``branch`` names the git revision (or worktree folder) holding the module's
work for ``forge merge check``. One that starts with ``-`` (``--output=x``)
would be read by git as an option, not a revision: ``forge merge check``
refuses it, and this rule says so when the plan is written. A folder of
such a name is spelt ``./-name``. Nothing is executed.
"""

from __future__ import annotations

from forge import hookimpl
from forge.errors import clip
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan
from forge.plan.rules import module_label

#: Longest stretch of a branch quoted in a message.
SHOWN_BRANCH_CHARS = 80


@hookimpl
def forge_check_plan(plan: Plan) -> list[PlanFinding]:
    """One error per module whose ``branch`` starts with ``-``."""
    findings: list[PlanFinding] = []
    for module in plan.modules:
        branch = module.branch
        if branch is None or not branch.startswith("-"):
            continue
        # Escaped as Python spells it (a newline as \n): the message is one line, and
        # validate refuses the plan with it on stderr.
        shown = repr(clip(branch, SHOWN_BRANCH_CHARS))[1:-1]
        findings.append(
            PlanFinding(
                type="invalid_branch",
                message=f'{module_label(module.id)}: branch "{shown}" starts with "-", so git '
                f"would read it as an option: give the branch, tag or commit (or ./{shown} "
                "for a folder)",
                modules=[module.id],
                field="branch",
            )
        )
    return findings


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``invalid_branch``, beside the other checks of a module's own fields."""
    return [
        PlanRuleDescriptor(
            id="invalid_branch",
            summary="A module's branch is a revision git cannot take for an option.",
            order=15,
        )
    ]
