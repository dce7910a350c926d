"""``unbacked_done_when``: a module whose doneWhen nothing it runs could disprove (a warning)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from forge.plan.check import PlanReport
from forge.plan.rules.unbacked_done_when import checks_nothing

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


@pytest.mark.parametrize(
    ("command", "no_op"),
    [
        ("true", True),
        (":", True),
        ("exit 0", True),
        ("echo done", True),
        ("printf 'ok\\n'", True),
        ("echo $(pytest)", True),  # pytest runs, echo's status is the line's
        ("python -c pass", True),
        ("pytest || true", True),
        ("echo ok && pytest", False),
        ("pytest -q", False),
        ("test -f src/a.py", False),
        ("false", False),
    ],
)
def test_which_commands_check_nothing(command: str, no_op: bool) -> None:
    assert checks_nothing(command) is no_op


def test_a_module_whose_commands_cannot_fail_is_named(
    check_inline: Check, make_module: Make
) -> None:
    report = check_inline(
        [
            make_module("echoes", verify=["echo done", "true"], doneWhen=["Users can log in."]),
            make_module("tested", verify=["test -f src/tested.py"]),
            make_module(
                "criteria",
                verify=["true"],
                acceptance_criteria=[{"check": "syntax_check"}],
            ),
            make_module(
                "advisory-only",
                verify=["true"],
                acceptance_criteria=[{"check": "test -f x", "blocking": False}],
            ),
        ]
    )
    assert report.valid
    found = [(f.type, f.modules, f.severity) for f in report.warnings if f.type != "inert_verify"]
    assert found == [
        ("unbacked_done_when", ["echoes"], "warning"),
        ("unbacked_done_when", ["advisory-only"], "warning"),
    ]
    assert 'doneWhen "Users can log in." is backed by no check' in report.warnings[0].message
