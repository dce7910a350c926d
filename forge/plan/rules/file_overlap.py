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
from forge.plan.graph import DependencyGraph
from forge.plan.model import Plan, normalise_path

#: Pairs reported one by one; beyond this, one summary warning.
MAX_PAIRS = 100


@hookimpl
def forge_check_plan(plan: Plan, project_root: Path) -> list[PlanFinding]:
    """One warning per pair of parallel modules that share files, listing the files."""
    graph = plan.graph
    rank = graph.rank
    owners: dict[str, int] = {}  # file -> bit set of the modules that list it
    files_of: dict[str, dict[str, None]] = {}
    for module in plan.modules:
        for file in module.files:
            path = normalise_path(file, project_root)
            owners[path] = owners.get(path, 0) | 1 << rank[module.id]
            files_of.setdefault(module.id, {})[path] = None
    if not any(bits & (bits - 1) for bits in owners.values()):
        return []  # no file has two owners: nothing can overlap, whatever the order
    # Bit sets keep this linear in memory: 10,000 modules sharing one file are
    # 50 million pairs, which are counted here, never listed.
    related = _related(graph)
    file_order = {path: index for index, path in enumerate(owners)}
    findings: list[PlanFinding] = []
    total = 0
    for first in graph.order:
        mine = sorted(files_of.get(first, ()), key=file_order.__getitem__)
        later = ~((1 << (rank[first] + 1)) - 1)  # each pair once, from its earlier module
        partners = 0
        for path in mine:
            partners |= owners[path]
        partners &= later & ~related[first]
        if not partners:
            continue
        total += partners.bit_count()
        while partners and len(findings) < MAX_PAIRS:
            low = partners & -partners
            partners ^= low
            second = graph.order[low.bit_length() - 1]
            shared = [path for path in mine if owners[path] & low]
            findings.append(_pair(first, second, shared))
    if total > MAX_PAIRS:
        findings.append(
            PlanFinding(
                type="file_overlap",
                severity="warning",
                message=f"{total - MAX_PAIRS} more pairs of parallel modules share files",
                field="files",
            )
        )
    return findings


def _related(graph: DependencyGraph) -> dict[str, int]:
    """For each module, the bit set of modules ordered with it: what it reaches and what reaches it."""
    reach = graph.reach
    dependents: dict[str, list[str]] = {}
    for node, deps in graph.deps.items():
        for dep in deps:
            dependents.setdefault(dep, []).append(node)
    above: dict[str, int] = {}
    # Components come dependencies first: walked backwards, a module's
    # dependents are done before it.
    for component in reversed(graph.components):
        members = set(component)
        combined = 0
        for node in component:
            for user in dependents.get(node, ()):
                if user not in members:
                    combined |= above[user] | 1 << graph.rank[user]
        for node in component:
            above[node] = combined
    return {node: reach[node] | above[node] | 1 << graph.rank[node] for node in graph.order}


def _pair(first: str, second: str, shared: list[str]) -> PlanFinding:
    return PlanFinding(
        type="file_overlap",
        severity="warning",
        message=f'modules "{first}" and "{second}" can run in parallel (neither depends '
        f"on the other) but both change {', '.join(shared)}; make one "
        "depend on the other or split the files",
        modules=[first, second],
        files=shared,
        field="files",
    )


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
