"""The module view: attempts with what forge recommended, latest failures, verify commands."""

from __future__ import annotations

from pathlib import Path

from forge_testing import RunForge

from forge.ui.models import ModuleView
from forge.ui.module import module_view
from forge.ui.reading import PeekingForgeDir

PLAN = ".forge/plans/quickstart.json"


def view(project: Path, module_id: str, run: str | None = None) -> ModuleView:
    return module_view(PeekingForgeDir(project), run, module_id, max_attempts=3)


def test_the_recommendation_shown_is_the_one_forge_gave(example: Path, run_forge: RunForge) -> None:
    # A limit of one attempt: forge said ESCALATE, which the project's limit (3) would not.
    done = run_forge(
        "validate",
        "--plan",
        PLAN,
        "--module",
        "farewell",
        "--run-id",
        "demo",
        "--max-attempts",
        "1",
    )
    assert done.returncode == 1
    farewell = view(example, "farewell")
    assert [(a.attempt, a.recommendation) for a in farewell.attempts] == [
        (1, "RETRY"),
        (2, "ESCALATE"),
    ]
    assert (
        farewell.attempts[1].reason is not None and "same failures" in farewell.attempts[1].reason
    )
    assert farewell.state == "escalated"


def test_failures_commands_and_plan_entry(example: Path) -> None:
    farewell = view(example, "farewell")
    assert (
        farewell.in_plan and farewell.depends_on == ["greeter"] and farewell.dependents == ["cli"]
    )
    assert [(f.type, f.target) for f in farewell.failures] == [
        ("file_check", "farewell.py"),
        ("command", farewell.commands[0].command),
    ]
    assert farewell.failures[1].output is not None
    assert "No module named 'farewell'" in farewell.failures[1].output
    (command,) = farewell.commands
    assert (command.ran, command.passed, command.exit_code) == (True, False, 1)
    greeter = view(example, "greeter")
    assert greeter.failures == [] and greeter.failures_at is not None
    (command,) = greeter.commands
    assert command.tests is not None and (command.tests.passed, command.tests.runner) == (
        3,
        "unittest",
    )
    cli = view(example, "cli")
    assert cli.state == "skipped" and cli.attempts == [] and cli.failures_at is None
    assert [(c.command, c.ran) for c in cli.commands] == [("python3 -m greetings Ada", False)]


def test_attempts_before_a_reset_are_not_confused_with_new_ones(
    example: Path, run_forge: RunForge
) -> None:
    # A history rewritten under the same numbers (iteration_state reset, then a new attempt):
    # the event of the old attempt 1 is older than the new attempt 1, so it is not used.
    history = example / ".forge" / "iterations" / "demo" / "farewell.json"
    history.unlink()
    (example / "farewell.py").write_text("def farewell(n):\n    return f'Goodbye, {n}!'\n")
    assert (
        run_forge("validate", "--plan", PLAN, "--module", "farewell", "--run-id", "demo").returncode
        == 0
    )
    farewell = view(example, "farewell")
    assert [(a.attempt, a.recommendation) for a in farewell.attempts] == [(1, "PROCEED")]
    assert farewell.failures == [] and farewell.state == "passed"


def test_a_module_outside_the_plan_shows_its_attempts(project: Path, run_forge: RunForge) -> None:
    run_forge("validate", "--module-id", "solo", "--command", "exit 3", "--run-id", "r1")
    solo = view(project, "solo")
    assert not solo.in_plan and solo.state == "failed"
    assert [(c.command, c.exit_code) for c in solo.commands] == [("exit 3", 3)]
    assert len(solo.attempts) == 1 and solo.attempts[0].failures == ["command:exit 3"]
