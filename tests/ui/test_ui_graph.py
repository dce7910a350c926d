"""The graph view: each module's state, the layers, the critical path, what a plan lacks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from forge_testing import RunForge

from forge.ui.graph import graph_view
from forge.ui.reading import PeekingForgeDir

PLAN = ".forge/plans/quickstart.json"


def write_plan(project: Path, modules: list[dict[str, object]], name: str = "plan") -> str:
    folder = project / ".forge" / "plans"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps({"modules": modules}), encoding="utf-8")
    return f".forge/plans/{name}.json"


def states(project: Path, run: str | None = None) -> dict[str, str]:
    view = graph_view(PeekingForgeDir(project), run, max_attempts=3)
    return {node.id: node.state for node in view.nodes}


def test_states_follow_attempts_escalation_skips_and_the_session(
    example: Path, run_forge: RunForge
) -> None:
    assert states(example) == {"greeter": "passed", "farewell": "failed", "cli": "skipped"}
    # The same failures again: forge says ESCALATE, and the module is escalated.
    run_forge("validate", "--plan", PLAN, "--module", "farewell", "--run-id", "demo")
    assert states(example)["farewell"] == "escalated"
    # A module the orchestrator says is running, in its saved session.
    (example / ".forge" / "state" / "demo.json").write_text(
        json.dumps({"planPath": PLAN, "moduleStatuses": {"cli": "in_progress"}}),
        encoding="utf-8",
    )
    assert states(example)["cli"] == "running"


def test_a_skip_holds_only_until_the_module_is_validated(
    example: Path, run_forge: RunForge
) -> None:
    assert states(example)["cli"] == "skipped"
    (example / "farewell.py").write_text("def farewell(n):\n    return f'Goodbye, {n}!'\n")
    (example / "greetings.py").write_text("print('Hello, Ada.')\n")
    done = run_forge("validate", "--plan", PLAN, "--module", "cli", "--run-id", "demo")
    assert done.returncode == 0, done.stdout
    assert states(example)["cli"] == "passed"


def test_layers_rows_and_the_critical_path(
    project: Path, make_module: Callable[..., dict[str, object]]
) -> None:
    module = make_module
    write_plan(
        project,
        [
            module("db"),
            module("cache"),
            module("api", dependsOn=["db"]),
            module("worker", dependsOn=["cache"]),
            module("web", dependsOn=["api", "worker"]),
            module("a", dependsOn=["b"]),
            module("b", dependsOn=["a"]),
        ],
    )
    view = graph_view(PeekingForgeDir(project), None, max_attempts=3)
    at = {node.id: (node.layer, node.column, node.row) for node in view.nodes}
    assert view.layers == 3
    assert at["db"][:2] == at["cache"][:2] == (0, 0)
    assert at["api"][:2] == at["worker"][:2] == (1, 1)
    assert at["web"][:2] == (2, 2)
    # Rows follow the dependencies' rows, so edges run straight where they can.
    assert (at["db"][2], at["api"][2]) == (0, 0) and (at["cache"][2], at["worker"][2]) == (1, 1)
    # On a cycle: no layer, drawn in a column after the last.
    assert at["a"][:2] == at["b"][:2] == (None, 3)
    assert view.critical_path == ["db", "api", "web"]
    assert {n.id for n in view.nodes if n.critical} == {"db", "api", "web"}
    assert ("db", "api") in view.edges and ("a", "b") in view.edges
    assert all(node.state == "pending" for node in view.nodes)
    assert view.hint is None


def test_a_plan_that_cannot_be_read_says_so_and_what_to_run(project: Path) -> None:
    (project / ".forge" / "plans").mkdir(parents=True)
    (project / ".forge" / "plans" / "broken.json").write_text('{"modules": [', encoding="utf-8")
    view = graph_view(PeekingForgeDir(project), None, max_attempts=3)
    assert view.nodes == []
    assert view.hint is not None and "forge plan check" in view.hint
    assert "invalid JSON" in view.hint


def test_modules_with_attempts_and_no_plan_are_shown_without_edges(
    project: Path, run_forge: RunForge
) -> None:
    run_forge("validate", "--module-id", "solo", "--command", "true", "--run-id", "r1")
    view = graph_view(PeekingForgeDir(project), None, max_attempts=3)
    assert [(n.id, n.state, n.layer) for n in view.nodes] == [("solo", "passed", None)]
    assert view.edges == [] and view.plan_path is None
    assert view.hint is not None and "No plan found" in view.hint
