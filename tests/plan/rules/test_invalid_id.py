"""The ``invalid_id`` rule: module ids become file names."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from forge.plan.check import PlanReport

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


@pytest.mark.parametrize("bad", ["auth/login", "..", ".", "with space", "x" * 129, "naïve"])
def test_ids_that_cannot_be_file_names_are_errors(
    check_inline: Check, make_module: Make, bad: str
) -> None:
    report = check_inline([make_module(bad)])
    [error] = [f for f in report.errors if f.type == "invalid_id"]
    assert error.modules == [bad]
    assert error.field == "id"
    assert "is not a valid id" in error.message


@pytest.mark.parametrize("good", ["api", "auth-login_v2.1", "A" * 128, "..."])
def test_safe_ids_pass(check_inline: Check, make_module: Make, good: str) -> None:
    report = check_inline([make_module(good)])
    assert report.valid, report.errors
