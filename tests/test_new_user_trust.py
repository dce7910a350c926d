"""What a new user tripped over, second round (issue 27): answers that cost trust.

Each test goes through the real stdio server or the installed CLI, and was
written before its fix and failed without it.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from forge_testing import RunForge, forge_executable
from mcp import Client
from mcp_client import call, call_error, stdio_parameters

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def served(project: Path) -> AsyncIterator[Client]:
    """A real ``forge serve`` subprocess for ``project``, over stdio."""
    async with Client(stdio_parameters(project, forge_executable(), "serve")) as client:
        yield client


# --- 1: a verdict on nothing is not PROCEED ----------------------------------------


def test_cli_validate_with_nothing_to_check_is_a_usage_error(run_forge: RunForge) -> None:
    done = run_forge("validate")
    assert done.returncode == 2, done
    assert "PROCEED" not in done.stdout
    (line,) = done.stderr.strip().splitlines()
    assert "nothing to check" in line
    assert "--files" in line and "--command" in line and "--plan" in line, line
    assert not list((Path.cwd() / ".forge").rglob("adhoc-*.json")), "an attempt was recorded"


async def test_mcp_validate_with_nothing_to_check_is_an_error(project: Path) -> None:
    async with served(project) as client:
        message = await call_error(client, "validate", {"moduleId": "m1"})
        history = await call(client, "iteration_state", {"moduleId": "m1", "action": "get"})
    assert "nothing to check" in message
    assert "files" in message and "commands" in message and "contractChecks" in message
    assert history["attempts"] == []


async def test_misspelled_validate_arguments_are_refused_with_the_real_names(
    project: Path,
) -> None:
    async with served(project) as client:
        message = await call_error(
            client, "validate", {"moduleId": "m1", "file": ["a.py"], "command": ["false"]}
        )
        nested = await call_error(
            client,
            "validate",
            {"moduleId": "m1", "contractChecks": [{"exporte": "a.py", "importer": "b.py"}]},
        )
        history = await call(client, "iteration_state", {"moduleId": "m1", "action": "get"})
    assert "'file'" in message and "did you mean 'files'?" in message, message
    assert "'command'" in message and "did you mean 'commands'?" in message, message
    assert "did you mean 'exporter'?" in nested, nested
    assert history["attempts"] == []


#: One misspelled argument for every tool, and the name it should suggest.
MISSPELLED = [
    ("validate", {"moduleId": "m1", "commands": ["true"], "runid": "r1"}, "runId"),
    ("validate_plan", {"planPat": "plan.json"}, "planPath"),
    ("memory_save", {"pattern": "p", "category": "convention", "scop": "global"}, "scope"),
    ("memory_recall", {"query": "vitest", "limt": 3}, "limit"),
    ("iteration_state", {"moduleId": "m1", "action": "get", "runID": "r1"}, "runId"),
    (
        "iteration_state",
        {"moduleId": "m1", "action": "update", "update": {"status": "failed", "scor": 0.5}},
        "score",
    ),
    ("forge_logs", {"limit": 5, "severty": "error"}, "severity"),
    ("session_state", {"action": "list", "runIds": "r1"}, "runId"),
]


async def test_every_tool_refuses_an_argument_name_it_does_not_have(project: Path) -> None:
    async with served(project) as client:
        for tool, arguments, meant in MISSPELLED:
            message = await call_error(client, tool, arguments)
            assert f"did you mean '{meant}'?" in message, (tool, message)
    assert not (project / ".forge" / "memory" / "global.jsonl").exists()


async def test_plugin_options_must_name_a_loaded_plugin(project: Path) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    base = {"moduleId": "m1", "files": ["a.py"]}
    async with served(project) as client:
        typo = await call_error(client, "validate", {**base, "pluginOptions": {"comand": {}}})
        unknown = await call_error(client, "validate", {**base, "pluginOptions": {"zzz": {}}})
        disabled = await call_error(client, "validate", {**base, "pluginOptions": {"stubs": {}}})
        fine = await call(client, "validate", {**base, "pluginOptions": {"command": {}}})
    assert "'comand'" in typo and "did you mean 'command'?" in typo, typo
    assert "'zzz'" in unknown and "syntax_check" in unknown, unknown
    assert "'stubs'" in disabled and "disabled" in disabled, disabled
    assert fine["passed"] is True
    assert fine["attempt"] == 1  # the refused calls recorded nothing


# --- 6: counts that cannot happen ---------------------------------------------------------


def test_status_shows_a_runs_module_from_that_run_and_skipped_as_skipped(
    run_forge: RunForge, project: Path
) -> None:
    plan = {
        "modules": [
            {
                "id": "base",
                "title": "Base",
                "objective": "o",
                "files": ["base.py"],
                "verify": ["false"],
                "doneWhen": "x",
            },
            {
                "id": "jobs",
                "title": "Jobs",
                "objective": "o",
                "files": ["jobs.py"],
                "verify": ["true"],
                "doneWhen": "x",
                "dependsOn": ["base"],
            },
        ]
    }
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    (project / "jobs.py").write_text("x = 1\n", encoding="utf-8")
    # An earlier run-less call on module jobs: attempt 1, score 1.0.
    assert run_forge("validate", "--module-id", "jobs", "--files", "jobs.py").returncode == 0
    done = run_forge("validate", "--plan", "plan.json", "--all", "--run-id", "r-jobs1")
    assert done.returncode == 1, done.stdout + done.stderr
    status = json.loads(run_forge("status", "--json").stdout)
    assert status["runId"] == "r-jobs1"
    jobs = next(m for m in status["modules"] if m["id"] == "jobs")
    assert (jobs["state"], jobs["attempts"], jobs["score"], jobs["updatedAt"]) == (
        "skipped",
        0,
        None,
        None,
    ), jobs
    assert status["counts"]["skipped"] == 1 and status["counts"]["pending"] == 0
    text = run_forge("status").stdout
    assert "1 skipped" in text and "0 pending" in text, text
