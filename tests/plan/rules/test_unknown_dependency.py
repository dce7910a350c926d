"""The ``unknown_dependency`` rule."""

from __future__ import annotations

from collections.abc import Callable

from forge.plan.check import PlanReport

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


def test_a_dependency_on_a_missing_id_is_an_error_with_a_close_match(
    check_inline: Check, make_module: Make
) -> None:
    report = check_inline(
        [make_module("auth-service"), make_module("web", dependsOn=["auth-servce", "nothing"])]
    )
    errors = [f for f in report.errors if f.type == "unknown_dependency"]
    assert [(f.modules, f.field) for f in errors] == [(["web"], "dependsOn")] * 2
    assert errors[0].message == (
        'module "web" depends on "auth-servce", which is not a module of this plan '
        '(did you mean "auth-service"?)'
    )
    assert errors[1].message.endswith("which is not a module of this plan")


def test_a_dependency_on_a_module_with_schema_errors_is_not_unknown(
    check_inline: Check, make_module: Make
) -> None:
    broken = make_module("db")
    del broken["title"]
    report = check_inline([broken, make_module("api", dependsOn=["db"])])
    assert [f.type for f in report.errors] == ["schema"]
    assert report.errors[0].modules == ["db"]


def test_known_dependencies_pass(check_inline: Check, make_module: Make) -> None:
    report = check_inline([make_module("db"), make_module("api", dependsOn=["db"])])
    assert report.valid
    assert report.layers == [["db"], ["api"]]
