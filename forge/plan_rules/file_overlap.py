"""``file_overlap`` (warning): modules that may run at the same time should not edit one file.

Two modules can run in parallel when neither depends on the other, directly
or through other modules. When such a pair lists the same file (after
normalising paths: ``./src/a.py`` is ``src/a.py``), their workers may
overwrite each other's changes. A chain ``a -> b -> c`` sharing a file is
fine: its modules run one after the other.
"""

from __future__ import annotations

from pathlib import Path

from forge import hookimpl
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan import Plan
from forge.plan.model import normalise_path

#: Pairs reported one by one; beyond this, one summary warning.
MAX_PAIRS = 100


@hookimpl
def forge_check_plan(plan: Plan, project_root: Path) -> list[PlanFinding]:
    """One warning per pair of parallel modules that share files, listing the files."""
    graph = plan.graph
    owners: dict[str, dict[str, None]] = {}
    for module in plan.modules:
        for file in module.files:
            owners.setdefault(normalise_path(file, project_root), {})[module.id] = None
    shared: dict[tuple[str, str], list[str]] = {}
    for file, modules in owners.items():
        ids = sorted(modules, key=graph.rank.__getitem__)
        for position, first in enumerate(ids):
            for second in ids[position + 1 :]:
                if not graph.ordered(first, second):
                    shared.setdefault((first, second), []).append(file)
    pairs = sorted(shared, key=lambda pair: (graph.rank[pair[0]], graph.rank[pair[1]]))
    findings = [
        PlanFinding(
            type="file_overlap",
            severity="warning",
            message=f'modules "{first}" and "{second}" can run in parallel (neither depends '
            f"on the other) but both change {', '.join(shared[first, second])}; make one "
            "depend on the other or split the files",
            modules=[first, second],
            files=shared[first, second],
            field="files",
        )
        for first, second in pairs[:MAX_PAIRS]
    ]
    if len(pairs) > MAX_PAIRS:
        findings.append(
            PlanFinding(
                type="file_overlap",
                severity="warning",
                message=f"{len(pairs) - MAX_PAIRS} more pairs of parallel modules share files",
                field="files",
            )
        )
    return findings


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``file_overlap``."""
    return [
        PlanRuleDescriptor(
            id="file_overlap",
            summary="Modules that can run in parallel touch different files.",
            order=80,
        )
    ]
