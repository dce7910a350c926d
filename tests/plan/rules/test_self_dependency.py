"""The ``self_dependency`` rule."""

from __future__ import annotations

from collections.abc import Callable

from forge.plan.check import PlanReport

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


def test_a_module_depending_on_itself_is_an_error(check_inline: Check, make_module: Make) -> None:
    report = check_inline([make_module("a"), make_module("b", dependsOn=["a", "b"])])
    [error] = report.errors
    assert (error.type, error.modules, error.field) == ("self_dependency", ["b"], "dependsOn")
    assert error.message == 'module "b" depends on itself; remove it from its dependsOn'
    # the rest of the plan still schedules
    assert report.layers == [["a"], ["b"]]


def test_depending_on_others_is_fine(check_inline: Check, make_module: Make) -> None:
    report = check_inline([make_module("a"), make_module("b", dependsOn=["a"])])
    assert report.valid
