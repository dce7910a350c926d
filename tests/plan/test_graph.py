"""The dependency graph: layers, critical path, reachability, cycles."""

from __future__ import annotations

from collections.abc import Callable

from forge.plan.graph import DependencyGraph, execution_layers
from forge.plan.model import Plan

Make = Callable[..., dict[str, object]]


def _graph(edges: dict[str, list[str]]) -> DependencyGraph:
    return DependencyGraph(tuple(edges), {node: tuple(deps) for node, deps in edges.items()})


def test_layers_are_waves_in_plan_order() -> None:
    graph = _graph({"ui": ["api"], "db": [], "api": ["db", "auth"], "auth": ["db"], "docs": []})
    assert graph.layers() == [["db", "docs"], ["auth"], ["api"], ["ui"]]
    assert graph.critical_path() == ["db", "auth", "api", "ui"]


def test_reachability_is_transitive() -> None:
    graph = _graph({"a": [], "b": ["a"], "c": ["b"], "d": ["a"]})
    assert graph.ordered("c", "a")
    assert graph.ordered("a", "c")
    assert not graph.ordered("c", "d")


def test_a_ten_thousand_module_chain_needs_no_recursion() -> None:
    size = 10_000
    graph = _graph({f"m{i}": [f"m{i - 1}"] if i else [] for i in range(size)})
    assert len(graph.layers()) == size
    assert len(graph.critical_path()) == size
    ring = _graph({f"m{i}": [f"m{(i + 1) % size}"] for i in range(size)})
    cycles, more = ring.cycles(limit=5)
    assert [len(cycle) for cycle in cycles] == [size]
    assert not more


def test_cycles_stop_at_the_limit() -> None:
    # every pair of four mutually dependent modules: many elementary cycles
    nodes = ["a", "b", "c", "d"]
    graph = _graph({node: [other for other in nodes if other != node] for node in nodes})
    cycles, more = graph.cycles(limit=3)
    assert len(cycles) == 3
    assert more
    everything, more = graph.cycles(limit=1000)
    assert len(everything) == 20  # 6 of length 2, 8 of length 3, 6 of length 4
    assert not more
    assert len({tuple(cycle) for cycle in everything}) == 20


def test_execution_layers_gives_the_modules(make_module: Make) -> None:
    plan = Plan.model_validate(
        {"modules": [make_module("b", dependsOn=["a"]), make_module("a"), make_module("c")]}
    )
    layers = execution_layers(plan)
    assert [[module.id for module in layer] for layer in layers] == [["a", "c"], ["b"]]
    assert layers[1][0].depends_on == ["a"]


def test_unknown_and_self_dependencies_are_not_edges(make_module: Make) -> None:
    plan = Plan.model_validate(
        {"modules": [make_module("a", dependsOn=["a", "ghost"]), make_module("b", dependsOn=["a"])]}
    )
    assert plan.graph.deps == {"a": (), "b": ("a",)}
    assert plan.graph.layers() == [["a"], ["b"]]
