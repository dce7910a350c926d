"""``inert_verify``: a verify command that cannot fail (a warning), through the real CLI too."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from forge_testing import RunForge

from forge.plan.check import PlanReport
from forge.plan.rules.inert_verify import cannot_fail

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("python -c pass", "'python -c pass' tests nothing"),
        ("python3 -c 'print(\"ok\")'", "'python -c print(\"ok\")' tests nothing"),
        ("true", "'true' always succeeds"),
        (":", "':' always succeeds"),
        ("exit 0", "'exit 0' always succeeds"),
        ("echo tests pass", "'echo' only prints"),
        ("echo a && true", "every command in it only succeeds or prints"),
        ("pytest -q || true", "it ends in '|| true': 'true' always succeeds"),
        ("npm test; echo done", "it ends in '; echo done': 'echo' only prints"),
        ("pytest -q\necho finished", "it ends in '; echo finished': 'echo' only prints"),
        ("'true'", "'true' always succeeds"),  # quoted: still read, however it is spelt
        ("pytest -q ||   'echo' ok", "it ends in '|| echo ok': 'echo' only prints"),
    ],
)
def test_commands_that_cannot_fail(command: str, why: str) -> None:
    assert cannot_fail(command) == why


@pytest.mark.parametrize(
    "command",
    [
        "pytest -q",
        "python -c 'import shop; assert shop.price(1) == 0.01'",
        "python -m pytest",
        "test -f src/a.py",
        "pytest && echo done",  # && keeps pytest's failure
        "exit 1",
        "cmd; exit",  # exit alone keeps the last status
        "echo 'unbalanced",  # cannot be read: never flagged
        "false",
    ],
)
def test_commands_that_can_fail(command: str) -> None:
    assert cannot_fail(command) is None


def test_plan_check_warns_naming_the_module_and_the_command(
    project: Path, run_forge: RunForge
) -> None:
    plan = {
        "modules": [
            {
                "id": "api", "title": "API", "objective": "Serve.", "files": ["api.py"],
                "verify": ["test -f api.py", "python -c pass"], "doneWhen": "It serves.",
            },
            {
                "id": "db", "title": "DB", "objective": "Store.", "files": ["db.py"],
                "verify": ["python -c 'import db'"], "doneWhen": "It stores.",
            },
        ]
    }  # fmt: skip
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = run_forge("plan", "check", "plan.json", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    warnings = report["warnings"] if "warnings" in report else report["plans"][0]["warnings"]
    inert = [w for w in warnings if w["type"] == "inert_verify"]
    assert [(w["modules"], w["field"]) for w in inert] == [(["api"], "verify")]
    assert inert[0]["message"].startswith(
        'module "api": verify command "python -c pass" cannot fail (\'python -c pass\' tests '
        "nothing), so it proves nothing about the work"
    )


def test_one_warning_per_inert_command_naming_every_module_that_runs_it(
    check_inline: Check, make_module: Make
) -> None:
    """A command shared by many modules is one warning listing them all, not one per module
    (a 1,000-module plan's 1,000 copies were 200 shown and "800 more not listed")."""
    modules = [make_module(f"m{i}", verify=[f"test -f src/m{i}.py", "true"]) for i in range(300)]
    modules.append(make_module("odd", verify=["test -f src/odd.py", "pytest -q || true"]))
    report = check_inline(modules)
    inert = [w for w in report.warnings if w.type == "inert_verify"]
    assert [w.modules for w in inert] == [[f"m{i}" for i in range(300)], ["odd"]]
    assert [w.type for w in report.warnings] == ["inert_verify", "inert_verify"]
    assert inert[0].message.startswith(
        'modules "m0", "m1", "m2" and 297 more: verify command "true" cannot fail '
        "('true' always succeeds), so it proves nothing about the work"
    )
    assert inert[1].message.startswith('module "odd": verify command "pytest -q || true"')


def test_two_modules_with_one_inert_command_are_named_in_one_warning(
    check_inline: Check, make_module: Make
) -> None:
    report = check_inline(
        [
            make_module("a", verify=["test -f src/a.py", "echo ok"]),
            make_module("b", verify=["test -f src/b.py", "echo ok"]),
            make_module("c", verify=["test -f src/c.py", "echo done"]),
        ]
    )
    assert [(w.modules, w.message.split(": verify")[0]) for w in report.warnings] == [
        (["a", "b"], 'modules "a" and "b"'),
        (["c"], 'module "c"'),
    ]
