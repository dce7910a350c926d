"""``lane_conflict``: a module listing a file its own disallowed_changes forbid."""

from __future__ import annotations

from collections.abc import Callable

from forge.plan.check import PlanReport

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


def test_a_listed_file_the_module_may_not_change_is_an_error(
    check_inline: Check, make_module: Make
) -> None:
    report = check_inline(
        [
            make_module(
                "api",
                files=["./src/api.py", "migrations/001.sql"],
                disallowed_changes=["migrations/**", "*.lock"],
            ),
            make_module("db", files=["src/db.py"], disallowed_changes=["src/api.py"]),
        ]
    )
    [error] = report.errors
    assert (error.type, error.modules, error.files, error.field) == (
        "lane_conflict",
        ["api"],
        ["migrations/001.sql"],
        "disallowed_changes",
    )
    assert "migrations/001.sql (by migrations/**)" in error.message
