"""``forge plan check`` and ``forge plan schema``, run as the installed command."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

RunForge = Callable[..., subprocess.CompletedProcess[str]]
Make = Callable[..., dict[str, object]]

REPO = Path(__file__).resolve().parents[2]


def _write(path: Path, plan: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(plan), encoding="utf-8")
    return path


def test_a_valid_plan_exits_0_and_says_how_it_runs(
    project: Path, run_forge: RunForge, make_module: Make
) -> None:
    _write(
        project / "plan.json", {"modules": [make_module("a"), make_module("b", dependsOn=["a"])]}
    )
    result = run_forge("plan", "check", "plan.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "plan.json: ok: 2 modules in 2 layers; critical path 2: a -> b",
        "1 plan checked: valid (0 warnings)",
    ]


def test_warnings_are_printed_and_the_exit_code_stays_0(
    project: Path, run_forge: RunForge, make_module: Make
) -> None:
    _write(
        project / "plan.json",
        {"modules": [make_module("a", files=["x"]), make_module("b", files=["x"])]},
    )
    result = run_forge("plan", "check", "plan.json")
    assert result.returncode == 0
    assert result.stdout.startswith('plan.json: warning: modules "a" and "b" can run in parallel')
    assert result.stdout.splitlines()[0].endswith("  [file_overlap]")
    disabled = run_forge(
        "plan", "check", "plan.json", env={"FORGE_DISABLE_PLUGINS": "file_overlap"}
    )
    assert "warning" not in disabled.stdout.splitlines()[0]


def test_errors_are_path_message_lines_and_exit_1(
    project: Path, run_forge: RunForge, make_module: Make
) -> None:
    good = _write(project / "plans" / "good.json", {"modules": [make_module("a")]})
    bad = _write(
        project / "plans" / "bad.json",
        {"modules": [make_module("a", dependsOn=["b"]), make_module("b", dependsOn=["a"])]},
    )
    (project / "plans" / "array.json").write_text("[]", encoding="utf-8")
    result = run_forge("plan", "check", str(good), "plans/bad.json", "plans/array.json")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{good}: ok: 1 module in 1 layer; critical path 1: a",
        "plans/bad.json: error: dependency cycle: a -> b -> a (each depends on the next); "
        "remove one of these dependencies  [cycle]",
        'plans/array.json: error: the plan must be a JSON object with a "modules" list, '
        "found an array  [schema]",
        "3 plans checked: 2 invalid (2 errors, 0 warnings)",
    ]
    assert bad.exists()  # a broken plan is reported where it is, never moved aside


def test_the_default_is_the_newest_plan(
    project: Path, run_forge: RunForge, make_module: Make
) -> None:
    _write(project / ".forge" / "plans" / "only.json", {"modules": [make_module("a")]})
    result = run_forge("plan", "check")
    assert result.returncode == 0
    assert result.stdout.startswith(".forge/plans/only.json: ok")


def test_usage_errors_exit_2(project: Path, run_forge: RunForge) -> None:
    nothing = run_forge("plan", "check")
    assert nothing.returncode == 2
    assert "no PLAN given and no .forge/plans/*.json" in nothing.stderr
    assert run_forge("plan").returncode == 2
    assert run_forge("plan", "check", "--bogus").returncode == 2


def test_json_output(project: Path, run_forge: RunForge, make_module: Make) -> None:
    _write(project / "plan.json", {"modules": [make_module("a", dependsOn=["zz"])]})
    result = run_forge("plan", "check", "plan.json", "--json")
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document["valid"] is False
    [report] = document["plans"]
    assert report["planPath"] == "plan.json"
    assert [e["type"] for e in report["errors"]] == ["unknown_dependency"]
    assert report["criticalPathLength"] == 1


def test_schema_is_json_schema_and_the_committed_copy_is_current(run_forge: RunForge) -> None:
    result = run_forge("plan", "schema")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    assert schema["title"] == "forge plan"
    committed = (REPO / "docs" / "plan.schema.json").read_text(encoding="utf-8")
    assert json.loads(committed) == schema, "regenerate: forge plan schema > docs/plan.schema.json"


def test_matrix_gives_the_layers_of_every_bundled_valid_plan(run_forge: RunForge) -> None:
    from forge.plan.loader import build_plan, read_plan_json

    for path in sorted((REPO / "examples" / "plans" / "valid").glob("*.json")):
        plan = build_plan(read_plan_json(path)).plan
        assert plan is not None
        layers = plan.graph.layers()
        plain = run_forge("plan", "matrix", str(path))
        assert plain.returncode == 0, plain.stderr
        document = json.loads(plain.stdout)
        assert document["layers"] == layers and document["count"] == len(layers)
        assert {module_id: info["layer"] for module_id, info in document["modules"].items()} == {
            module_id: number for number, layer in enumerate(layers, 1) for module_id in layer
        }
        github = run_forge("plan", "matrix", str(path), "--format", "github")
        assert github.returncode == 0 and github.stdout.count("\n") == 1  # one $GITHUB_OUTPUT line
        matrix = json.loads(github.stdout)
        assert matrix["count"] == len(layers)
        assert [[entry["module"] for entry in layer["include"]] for layer in matrix["layers"]] == (
            layers
        )
        assert all(
            entry["layer"] == number
            for number, layer in enumerate(matrix["layers"], 1)
            for entry in layer["include"]
        )
    quickstart = json.loads(
        run_forge("plan", "matrix", str(REPO / "examples/plans/valid/quickstart.json")).stdout
    )
    assert quickstart["layers"] == [["greeter"], ["farewell"], ["cli"]]


def test_matrix_of_an_invalid_plan_prints_its_errors_and_exits_1(run_forge: RunForge) -> None:
    done = run_forge("plan", "matrix", str(REPO / "examples/plans/broken/cycle.json"))
    assert done.returncode == 1 and done.stdout == ""
    assert "dependency cycle: invoices -> payments -> ledger -> invoices" in done.stderr


def test_a_finding_quoting_control_characters_is_one_escaped_line(
    project: Path, run_forge: RunForge, make_module: Make
) -> None:
    """A finding quotes the plan's own text (a dependency, a command): printed raw, an
    escape sequence in it drove the terminal and a newline split the finding in two."""
    _write(
        project / "plan.json",
        {"modules": [make_module("a", dependsOn=["b\x1b[2J\nc"], verify=["no\x9bprog x"])]},
    )
    result = run_forge("plan", "check", "plan.json")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 3, lines
    assert 'depends on "b\\x1b[2J\\nc"' in lines[0]
    assert 'runs "no\\x9bprog"' in lines[1]
    assert "\x1b" not in result.stdout and "\x9b" not in result.stdout
    report = json.loads(run_forge("plan", "check", "plan.json", "--json").stdout)
    messages = [error["message"] for error in report["plans"][0]["errors"]]
    assert any("b\x1b[2J\nc" in message for message in messages)
