"""The ``cycle`` rule: every cycle, its modules in order; bystanders not blamed."""

from __future__ import annotations

from collections.abc import Callable

from forge.plan.check import PlanReport

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


def _cycles(report: PlanReport) -> list[tuple[str, list[str]]]:
    return [(f.message, f.modules) for f in report.errors if f.type == "cycle"]


def test_a_cycle_is_reported_in_dependency_order(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        [
            make_module("a", dependsOn=["b"]),
            make_module("b", dependsOn=["c"]),
            make_module("c", dependsOn=["a"]),
        ]
    )
    assert not report.valid
    [(message, modules)] = _cycles(report)
    assert modules == ["a", "b", "c"]
    assert "a -> b -> c -> a" in message
    assert report.errors[0].field == "dependsOn"


def test_the_cycle_starts_at_its_first_module_in_plan_order(
    check_inline: Check, make_module: Make
) -> None:
    report = check_inline(
        [
            make_module("c", dependsOn=["a"]),
            make_module("b", dependsOn=["c"]),
            make_module("a", dependsOn=["b"]),
        ]
    )
    assert _cycles(report)[0][1] == ["c", "a", "b"]


def test_two_disjoint_cycles_are_both_reported_and_bystanders_are_not_blamed(
    check_inline: Check, make_module: Make
) -> None:
    report = check_inline(
        [
            make_module("base"),
            make_module("a", dependsOn=["b", "base"]),
            make_module("b", dependsOn=["a"]),
            make_module("x", dependsOn=["y"]),
            make_module("y", dependsOn=["z"]),
            make_module("z", dependsOn=["x"]),
            make_module("downstream", dependsOn=["a", "x"]),
        ]
    )
    assert [modules for _, modules in _cycles(report)] == [["a", "b"], ["x", "y", "z"]]
    blamed = {module for _, modules in _cycles(report) for module in modules}
    assert blamed.isdisjoint({"base", "downstream"})
    # what can still run is scheduled; what waits on a cycle is not
    assert report.layers == [["base"]]


def test_every_elementary_cycle_of_a_knot_is_listed(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        [
            make_module("a", dependsOn=["b", "c"]),
            make_module("b", dependsOn=["a"]),
            make_module("c", dependsOn=["a"]),
        ]
    )
    assert sorted(modules for _, modules in _cycles(report)) == [["a", "b"], ["a", "c"]]


def test_a_self_dependency_is_not_also_a_cycle(check_inline: Check, make_module: Make) -> None:
    report = check_inline([make_module("a", dependsOn=["a"])])
    assert _cycles(report) == []
    assert [f.type for f in report.errors] == ["self_dependency"]


def test_an_acyclic_plan_has_no_cycle(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        [
            make_module("a"),
            make_module("b", dependsOn=["a"]),
            make_module("c", dependsOn=["a", "b"]),
        ]
    )
    assert report.valid
    assert _cycles(report) == []
