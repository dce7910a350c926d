"""The dependency graph of a plan: execution layers, critical path, reachability, cycles.

An edge goes from a module to each module it depends on. Dependencies on ids
that are not in the plan, and on the module itself, are not edges (other rules
report them). When two modules share an id the first one stands for both and
gets the union of their dependencies (``duplicate_id`` reports the clash).

Everything here is iterative, so a plan with a 10,000-module chain does not
hit Python's recursion limit, and linear in modules plus dependencies except
:meth:`DependencyGraph.cycles`, which stops after a given number of cycles.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forge.plan.model import Plan, PlanModule


class DependencyGraph:
    """Module ids in plan order and, for each, the ids it depends on (in the plan, no self)."""

    def __init__(self, order: tuple[str, ...], deps: dict[str, tuple[str, ...]]) -> None:
        self.order = order
        self.deps = deps

    @classmethod
    def from_modules(cls, modules: Iterable[PlanModule]) -> DependencyGraph:
        """Build the graph of ``modules`` (see the module docstring for what is left out)."""
        collected: dict[str, dict[str, None]] = {}
        for module in modules:
            collected.setdefault(module.id, {}).update(dict.fromkeys(module.depends_on))
        deps = {
            node: tuple(dep for dep in wanted if dep in collected and dep != node)
            for node, wanted in collected.items()
        }
        return cls(order=tuple(collected), deps=deps)

    @cached_property
    def components(self) -> list[list[str]]:
        """Strongly connected components, dependencies before dependents.

        A component of more than one module is a knot of cycles; with no
        self-edges, a single module is never on a cycle.
        """
        return _strongly_connected(self.order, self.deps)

    @cached_property
    def rank(self) -> dict[str, int]:
        """Each module's position in plan order."""
        return {node: index for index, node in enumerate(self.order)}

    @cached_property
    def levels(self) -> dict[str, int]:
        """Each schedulable module's layer (0: depends on nothing).

        Modules on a cycle, and modules that depend on one, have no layer.
        """
        level: dict[str, int] = {}
        for component in self.components:
            if len(component) > 1:
                continue
            node = component[0]
            below = [level.get(dep) for dep in self.deps[node]]
            if None in below:
                continue
            level[node] = 1 + max((lvl for lvl in below if lvl is not None), default=-1)
        return level

    def layers(self) -> list[list[str]]:
        """Execution waves, in order: the modules of one layer may run in parallel.

        A module is in the layer after the last of its dependencies; within a
        layer modules keep plan order. Modules on or behind a cycle are left out.
        """
        level = self.levels
        layers: list[list[str]] = [[] for _ in range(max(level.values(), default=-1) + 1)]
        for node in self.order:
            if node in level:
                layers[level[node]].append(node)
        return layers

    def critical_path(self) -> list[str]:
        """The longest dependency chain, first module to run first (empty when none can run).

        Its length is the least number of waves the plan needs; ties go to the
        chain that ends earliest in plan order.
        """
        level, rank = self.levels, self.rank
        if not level:
            return []
        end = max(level, key=lambda node: (level[node], -rank[node]))
        path = [end]
        while level[path[-1]] > 0:
            current = path[-1]
            path.append(next(dep for dep in self.deps[current] if level[dep] == level[current] - 1))
        path.reverse()
        return path

    @cached_property
    def reach(self) -> dict[str, int]:
        """For each module, the set of modules it depends on transitively, as a bit set.

        Bit ``i`` stands for ``order[i]``. Modules on one cycle reach each other.
        """
        bit = {node: 1 << index for index, node in enumerate(self.order)}
        reach: dict[str, int] = {}
        for component in self.components:
            members = set(component)
            combined = 0
            for node in component:
                for dep in self.deps[node]:
                    if dep not in members:
                        combined |= reach[dep] | bit[dep]
            if len(component) > 1:
                for node in component:
                    combined |= bit[node]
            for node in component:
                reach[node] = combined
        return reach

    def ordered(self, first: str, second: str) -> bool:
        """True when one of the two modules depends on the other, directly or transitively."""
        reach, rank = self.reach, self.rank
        return bool(reach[first] >> rank[second] & 1 or reach[second] >> rank[first] & 1)

    def cycles(self, limit: int) -> tuple[list[list[str]], bool]:
        """Every elementary cycle, each as its modules in dependency order, at most ``limit``.

        A cycle starts at its module that comes first in the plan and follows
        ``dependsOn``: ``[a, b, c]`` means a depends on b, b on c, c on a.
        Returns the cycles, in plan order, and whether more were left out.
        Johnson's algorithm: time grows with the cycles found, not the paths.
        """
        rank = self.rank
        found: list[list[str]] = []
        pending = [part for part in self.components if len(part) > 1]
        while pending:
            component = sorted(pending.pop(), key=rank.__getitem__)
            members = set(component)
            successors = {node: [d for d in self.deps[node] if d in members] for node in component}
            for cycle in _circuits(component[0], successors):
                if len(found) == limit:
                    return _in_plan_order(found, rank), True
                found.append(cycle)
            # every cycle through the first module is found: look at the rest without it
            rest = component[1:]
            rest_deps = {
                node: tuple(d for d in successors[node] if d != component[0]) for node in rest
            }
            pending.extend(part for part in _strongly_connected(rest, rest_deps) if len(part) > 1)
        return _in_plan_order(found, rank), False


def _in_plan_order(cycles: list[list[str]], rank: dict[str, int]) -> list[list[str]]:
    return sorted(cycles, key=lambda cycle: [rank[node] for node in cycle])


def _strongly_connected(order: Sequence[str], deps: dict[str, tuple[str, ...]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative. Components come out dependencies first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for root in order:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(deps[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(deps[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(component)
    return components


def _circuits(start: str, successors: dict[str, list[str]]) -> Iterator[list[str]]:
    """The elementary cycles through ``start`` in one strongly connected component (Johnson)."""
    path = [start]
    blocked = {start}
    blocked_by: dict[str, set[str]] = {node: set() for node in successors}
    closed: set[str] = set()
    work: list[tuple[str, list[str]]] = [(start, list(reversed(successors[start])))]
    while work:
        node, pending = work[-1]
        if pending:
            child = pending.pop()
            if child == start:
                yield list(path)
                closed.update(path)
            elif child not in blocked:
                path.append(child)
                blocked.add(child)
                closed.discard(child)
                work.append((child, list(reversed(successors[child]))))
                continue
        if not pending:
            if node in closed:
                _unblock(node, blocked, blocked_by)
            else:
                for child in successors[node]:
                    blocked_by[child].add(node)
            work.pop()
            path.pop()


def _unblock(node: str, blocked: set[str], blocked_by: dict[str, set[str]]) -> None:
    pending = {node}
    while pending:
        current = pending.pop()
        if current in blocked:
            blocked.remove(current)
            pending.update(blocked_by[current])
            blocked_by[current].clear()


def execution_layers(plan: Plan) -> list[list[PlanModule]]:
    """The plan's modules in execution waves, for running them in dependency order.

    Run the layers one after the other; the modules of one layer can run in
    parallel. Modules on or behind a dependency cycle are in no layer, so
    check the plan first (:func:`forge.plan.check.check_plan`).
    """
    by_id: dict[str, PlanModule] = {}
    for module in plan.modules:
        by_id.setdefault(module.id, module)
    return [[by_id[node] for node in layer] for layer in plan.graph.layers()]
