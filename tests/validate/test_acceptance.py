"""Acceptance criteria: each runs on validate, is reported with its evidence, and blocks or not."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from forge_testing import RunForge

PYTHON = sys.executable


def write_plan(project: Path, criteria: list[dict[str, Any]], **extra: Any) -> str:
    (project / "src").mkdir(exist_ok=True)
    (project / "src" / "api.py").write_text("def serve():\n    return 1\n", encoding="utf-8")
    (project / "test_api.py").write_text(
        "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n"
        "        self.assertTrue(True)\n",
        encoding="utf-8",
    )
    plan = {
        "modules": [
            {
                "id": "api",
                "title": "API",
                "objective": "Serve.",
                "files": ["src/api.py"],
                "verify": [f"{PYTHON} -m unittest -q test_api"],
                "doneWhen": ["It serves.", "Its tests pass."],
                "acceptance_criteria": criteria,
                **extra,
            }
        ]
    }
    path = project / "plan.json"
    path.write_text(json.dumps(plan), encoding="utf-8")
    return str(path)


def acceptance(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [result for result in report["results"] if result["type"] == "acceptance"]


def test_each_criterion_is_reported_by_name_with_its_evidence(
    project: Path, run_forge: RunForge
) -> None:
    criteria = [
        {"check": f"{PYTHON} -m unittest -q test_api", "expected": "The API tests pass."},
        {"check": "syntax_check"},
        {"check": f"{PYTHON} -c 'import sys; sys.exit(3)'", "expected": "exit 3"},
        {"check": "false", "expected": "A nice-to-have.", "blocking": False},
    ]
    plan = write_plan(project, criteria)
    done = run_forge("validate", "--plan", plan, "--module", "api", "--json")
    assert done.returncode == 0, done.stdout
    report = json.loads(done.stdout)
    results = acceptance(report)
    assert [(r["target"], r["passed"], r.get("advisory", False)) for r in results] == [
        (criteria[0]["check"], True, False),
        ("syntax_check", True, False),
        (criteria[2]["check"], True, False),
        ("false", False, True),
    ]
    tests, syntax, exit_three, advisory = results
    assert tests["exitCode"] == 0
    assert tests["tests"] == {
        "runner": "unittest", "passed": 1, "failed": 0, "skipped": 0, "errors": 0,
    }  # fmt: skip
    assert "(expected: The API tests pass.)" in tests["message"]
    assert (syntax["checked"], syntax["failed"]) == (1, 0)
    assert exit_three["exitCode"] == 3 and exit_three["expected"] == "exit 3"
    assert advisory["blocking"] is False and advisory["message"].endswith("[non-blocking]")
    assert report["passed"] is True and report["score"] == 1.0
    text = run_forge("validate", "--plan", plan, "--module", "api")
    assert "WARN acceptance" in text.stdout and "PASSED" in text.stdout


def test_a_blocking_criterion_that_fails_fails_the_module(
    project: Path, run_forge: RunForge
) -> None:
    plan = write_plan(
        project,
        [
            {"check": f"{PYTHON} -c 'import sys; sys.exit(1)'", "expected": "exit 0"},
            {"check": "contract_check"},
        ],
    )
    done = run_forge("validate", "--plan", plan, "--module", "api", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    failing, contracts = acceptance(report)
    assert failing["passed"] is False and failing["exitCode"] == 1
    assert contracts["passed"] is False
    assert (
        contracts["message"] == "no contract_check result in this validate: it checked nothing here"
    )
    assert report["recommendation"] == "RETRY"
    keys = {f"acceptance:{r['target']}" for r in (failing, contracts)}
    history = json.loads((project / ".forge" / "iterations" / "api.json").read_text("utf-8"))
    assert keys <= set(history["attempts"][-1]["failures"])


def test_a_verify_command_named_as_a_criterion_runs_once(
    project: Path, run_forge: RunForge
) -> None:
    counter = project / "runs.txt"
    command = f"echo run >> {counter} && test -f src/api.py"
    plan = write_plan(project, [{"check": command}], verify=[command])
    done = run_forge("validate", "--plan", plan, "--module", "api", "--json")
    assert done.returncode == 0, done.stdout
    assert counter.read_text(encoding="utf-8") == "run\n"


def test_a_criterion_naming_no_check_is_refused_before_any_work(
    project: Path, run_forge: RunForge
) -> None:
    """It ran as a command after the work was done (exit 127): the plan's unknown_check says so first."""
    plan = write_plan(project, [{"check": "no_such_check"}])
    done = run_forge("validate", "--plan", plan, "--module", "api")
    assert done.returncode == 2
    assert '"no_such_check" is neither a forge check nor a program on PATH' in done.stderr
    assert not (project / ".forge" / "iterations" / "api.json").exists()
