"""The ``duplicate_id`` rule."""

from __future__ import annotations

from collections.abc import Callable

from forge.plan.check import PlanReport

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


def test_a_shared_id_is_one_error_naming_the_modules(
    check_inline: Check, make_module: Make
) -> None:
    report = check_inline(
        [
            make_module("api", title="REST API"),
            make_module("db"),
            make_module("api", title="GraphQL API"),
        ]
    )
    [error] = [f for f in report.errors if f.type == "duplicate_id"]
    assert error.modules == ["api"]
    assert error.field == "id"
    assert '"api" is used by 2 modules' in error.message
    assert '"REST API", "GraphQL API"' in error.message


def test_unique_ids_pass(check_inline: Check, make_module: Make) -> None:
    report = check_inline([make_module("api"), make_module("db")])
    assert report.valid
    assert report.errors == []
