"""What a new user tripped over, second round (issue 27): answers that cost trust.

Each test goes through the real stdio server or the installed CLI, and was
written before its fix and failed without it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from forge_testing import RunForge, forge_executable
from mcp_client import call, call_error, served

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[1]


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
    assert "'zzz'" in unknown and "the loaded plugins are: command, " in unknown, unknown
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


# --- 7: the CLI, as people pipe and retry it ---------------------------------------


def _closed_reader(project: Path, *args: str) -> tuple[int, str]:
    """Run ``forge ARGS`` whose reader has gone away before it writes (``| head`` done early)."""
    process = subprocess.Popen(
        [forge_executable(), *args],
        cwd=project,
        env={**os.environ, "FORGE_CWD": str(project)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    with process.stderr:
        stderr = process.stderr.read().decode("utf-8", "replace")
    return process.wait(timeout=120), stderr


def test_a_reader_that_closes_the_pipe_early_is_no_error(
    run_forge: RunForge, project: Path
) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    assert run_forge("validate", "--files", "a.py", "--run-id", "r1").returncode == 0
    for args in (["status", "--json"], ["logs", "--json"], ["plan", "schema"], ["plugins"]):
        code, stderr = _closed_reader(project, *args)
        assert (code, stderr) == (0, ""), (args, code, stderr)
    # A verdict is not lost with the output: a failed validation still exits 1.
    code, stderr = _closed_reader(project, "validate", "--files", "gone.py", "--json")
    assert (code, stderr) == (1, "")


def test_forge_reset_starts_a_module_a_run_or_an_ad_hoc_file_set_over(
    run_forge: RunForge, project: Path
) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    for _ in range(2):
        run_forge("validate", "--module-id", "m1", "--run-id", "r1", "--command", "false")
        run_forge("validate", "--module-id", "m2", "--run-id", "r1", "--command", "false")
        run_forge("validate", "--module-id", "m1", "--command", "false")
        adhoc = _as_json(run_forge("validate", "--files", "a.py", "--command", "false", "--json"))
    assert adhoc["attempt"] == 2

    one = run_forge("reset", "--module-id", "m1", "--run-id", "r1")
    assert one.returncode == 0, one.stderr
    assert "m1" in one.stdout and "2 attempts" in one.stdout, one.stdout
    assert not (project / ".forge/iterations/r1/m1.json").exists()
    assert (project / ".forge/iterations/r1/m2.json").exists()
    assert (project / ".forge/iterations/m1.json").exists()  # the run-less m1 is another history

    run = _as_json(run_forge("reset", "--run-id", "r1", "--json"))
    assert [m["moduleId"] for m in run["reset"]] == ["m2"], run
    assert not list((project / ".forge/iterations/r1").glob("*.json"))

    again = run_forge("validate", "--files", "a.py", "--command", "false", "--json")
    assert _as_json(again)["attempt"] == 3
    files = run_forge("reset", "--files", "a.py", "--command", "false")
    assert files.returncode == 0 and adhoc["moduleId"] in files.stdout, files.stdout
    fresh = run_forge("validate", "--files", "a.py", "--command", "false", "--json")
    assert _as_json(fresh)["attempt"] == 1

    nothing = run_forge("reset", "--module-id", "never-run")
    assert nothing.returncode == 0 and "no attempts" in nothing.stdout, nothing.stdout
    usage = run_forge("reset")
    assert usage.returncode == 2 and "--module-id" in usage.stderr, usage.stderr


def test_the_ad_hoc_history_key_honours_base(run_forge: RunForge, project: Path) -> None:
    from forge_testing import commit, git

    git(project, "init", "-q")
    commit(project, {"a.py": "x = 1\n"}, "base")
    plain = _as_json(run_forge("validate", "--files", "a.py", "--json"))
    based = _as_json(run_forge("validate", "--files", "a.py", "--base", "HEAD", "--json"))
    assert plain["moduleId"] != based["moduleId"]
    assert (plain["attempt"], based["attempt"]) == (1, 1)


def test_all_prints_in_dependency_order_as_the_docs_say(run_forge: RunForge, project: Path) -> None:
    def module(module_id: str, *depends: str) -> dict[str, Any]:
        return {"id": module_id, "title": module_id.upper(), "objective": "o",
                "files": [f"{module_id}.py"], "verify": ["true"], "doneWhen": "x",
                "dependsOn": list(depends)}  # fmt: skip

    plan = {"modules": [module("app", "lib"), module("lib")]}
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    for name in ("app", "lib"):
        (project / f"{name}.py").write_text("x = 1\n", encoding="utf-8")
    done = run_forge("validate", "--plan", "plan.json", "--all")
    rows = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("PASS ")]
    assert rows == ["lib", "app"], done.stdout
    help_text = run_forge("validate", "--help").stdout
    docs = " ".join(
        (REPO / name).read_text(encoding="utf-8") for name in ("README.md", "docs/cli.md")
    )
    for text in (help_text, docs):
        assert "plan order" not in " ".join(text.split())


def test_the_plan_flag_takes_one_plan_and_says_so(run_forge: RunForge) -> None:
    usage = run_forge("validate", "--help").stdout
    assert "--plan PLAN" in usage and "PLAN ..." not in usage, usage
    done = run_forge("validate", "--plan", "a.json", "b.json", "--all")
    assert done.returncode == 2 and "one plan" in done.stderr, done.stderr


def test_flag_errors_name_the_flag_not_the_field(run_forge: RunForge) -> None:
    for args, flag in (
        (["--files", "a.py", "--max-attempts", "0"], "--max-attempts"),
        (["--files", "a.py", "--timeout", "-1"], "--timeout"),
        (["--command", ""], "--command"),
        (["--files", "a.py", "--run-id", "../x"], "--run-id"),
    ):
        done = run_forge("validate", *args)
        assert done.returncode == 2, (args, done)
        (line,) = done.stderr.strip().splitlines()
        assert flag in line, line
        assert not re.search(r"\b(max_attempts|run_id|commands)\b", line), line


async def test_a_loaded_session_keeps_its_run_id(project: Path) -> None:
    async with served(project) as client:
        await call(client, "session_state", {"action": "save", "runId": "r-7", "state": {"x": 1}})
        loaded = await call(client, "session_state", {"action": "load", "runId": "r-7"})
    assert loaded["found"] is True and loaded["runId"] == "r-7" and loaded["x"] == 1


def test_the_docs_give_one_figure_for_plan_checks_cold_start() -> None:
    figures = {
        name: re.findall(
            r"forge plan check.{0,80}?(\d+(?:\.\d+)?)x",
            " ".join((REPO / name).read_text(encoding="utf-8").split()),
        )
        for name in ("README.md", "docs/plans.md", "docs/cli.md", "CONTRIBUTING.md")
    }
    assert sum(len(found) for found in figures.values()) == 1, figures


def _as_json(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(done.stdout)
    return data
