"""What a new user tripped over, each through the real stdio server or the installed CLI.

Every test here was written before its fix and failed without it (issue 18).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from forge_testing import (
    RunForge,
    default_signal_dispositions,
    forge_executable,
    live_processes_mentioning,
)
from mcp import Client
from mcp_client import call, call_error, served, stdio_parameters, text_of

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[1]


def status_of(project: Path) -> dict[str, Any]:
    """``.forge/status.json`` as written by the last call."""
    data: dict[str, Any] = json.loads((project / ".forge" / "status.json").read_text("utf-8"))
    return data


# --- 1-4: runs that do not exist, and the default run --------------------------


async def test_read_only_calls_with_an_unknown_run_create_nothing(project: Path) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    async with served(project) as client:
        await call(client, "validate", {"moduleId": "m1", "runId": "run-1", "files": ["a.py"]})
        await call(client, "iteration_state", {"moduleId": "m1", "action": "get", "runId": "typo1"})
        await call(client, "forge_logs", {"runId": "typo2"})
        await call(client, "session_state", {"action": "load", "runId": "typo3"})
    logs = sorted(path.name for path in (project / ".forge" / "logs").iterdir())
    assert not [name for name in logs if name.startswith("typo")], logs
    assert not (project / ".forge" / "iterations" / "typo1").exists()
    assert status_of(project)["runId"] == "run-1"


async def test_logs_without_a_run_show_the_agents_run_not_the_servers(project: Path) -> None:
    async with served(project) as client:
        await call(client, "validate", {"moduleId": "m1", "runId": "run-1", "commands": ["true"]})
        await call(client, "memory_recall", {"query": "anything"})
        logs = await call(client, "forge_logs", {})
    assert logs["runId"] == "run-1"
    assert logs["entries"]


async def test_logs_of_a_run_that_does_not_exist_are_empty_and_say_so(project: Path) -> None:
    async with served(project) as client:
        await call(client, "validate", {"moduleId": "m1", "runId": "run-1", "commands": ["true"]})
        result = await client.call_tool("forge_logs", {"runId": "nope"})
    assert not result.is_error
    assert result.structured_content is not None
    assert result.structured_content["entries"] == []
    assert result.structured_content["total"] == 0
    assert "no log for runid 'nope'" in json.dumps(result.structured_content).lower()


async def test_a_failed_validate_leaves_an_error_event_naming_its_module(project: Path) -> None:
    async with served(project) as client:
        await call(client, "validate", {"moduleId": "m1", "runId": "run-1", "commands": ["false"]})
        logs = await call(client, "forge_logs", {"runId": "run-1", "severity": "error"})
    assert logs["entries"], logs
    assert {entry["moduleId"] for entry in logs["entries"]} == {"m1"}


# --- 5: the reference server's per-type fields ---------------------------------


async def test_results_carry_the_reference_per_type_fields(project: Path) -> None:
    (project / "lib.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    (project / "app.py").write_text("from lib import f\n", encoding="utf-8")
    async with served(project) as client:
        report = await call(
            client,
            "validate",
            {
                "moduleId": "m1",
                "files": ["lib.py", "app.py"],
                "commands": ["true"],
                "contractChecks": [{"exporter": "lib.py", "importer": "app.py"}],
            },
        )
    by_type: dict[str, list[dict[str, Any]]] = {}
    for result in report["results"]:
        by_type.setdefault(result["type"], []).append(result)
    assert [r["command"] for r in by_type["command"]] == ["true"]
    assert {r["file"] for r in by_type["file_check"]} == {"lib.py", "app.py"}
    assert {r["file"] for r in by_type["syntax_check"]} == {"lib.py", "app.py"}
    contract = by_type["contract_check"][0]
    assert (contract["exporter"], contract["importer"]) == ("lib.py", "app.py")
    assert all("target" in r for r in report["results"])


# --- 6: memory replies a client can test for "duplicate" -------------------------


async def test_memory_replies_are_the_reference_sentences(project: Path) -> None:
    async with served(project) as client:
        first = await client.call_tool(
            "memory_save", {"pattern": "Use pnpm vitest --run", "category": "architecture"}
        )
        again = await client.call_tool(
            "memory_save", {"pattern": "use  PNPM vitest --run", "category": "architecture"}
        )
        recalled = await client.call_tool("memory_recall", {"query": "vitest"})
    assert text_of(first) == "Saved to project memory [architecture]: Use pnpm vitest --run"
    assert "duplicate" not in text_of(first).lower()
    assert first.structured_content is not None
    assert first.structured_content["duplicate"] is False
    assert text_of(again) == "Duplicate pattern already in project memory, skipped."
    assert again.structured_content is not None
    assert again.structured_content["duplicate"] is True
    assert "[architecture] 0.7 — Use pnpm vitest --run" in text_of(recalled)
    assert not text_of(recalled).lstrip().startswith("{")
    assert recalled.structured_content is not None


# --- 7: a project root that is not there ---------------------------------------


async def test_a_missing_forge_cwd_is_one_error_and_nothing_is_created(tmp_path: Path) -> None:
    missing = tmp_path / "gone" / "project"
    params = stdio_parameters(tmp_path, forge_executable(), "serve")
    params.env = {**(params.env or {}), "FORGE_CWD": str(missing)}
    async with Client(params) as client:
        message = await call_error(client, "validate", {"moduleId": "m1", "files": ["a.py"]})
    assert "FORGE_CWD" in message and str(missing) in message
    assert not (tmp_path / "gone").exists()


def test_cli_with_a_missing_forge_cwd_is_a_usage_error(run_forge: RunForge, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    done = run_forge(
        "memory", "save", "--category", "convention", "x", env={"FORGE_CWD": str(missing)}
    )
    assert done.returncode == 2, done
    assert "FORGE_CWD" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not missing.exists()


def _tree(folder: Path) -> dict[str, int]:
    """Every path under ``folder`` with its modification time (empty when it is absent)."""
    return {str(p): p.lstat().st_mtime_ns for p in folder.rglob("*")} if folder.exists() else {}


def test_cli_refuses_the_filesystem_root_as_a_project(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "FORGE_CWD"}
    # Another checkout's unfixed forge may have left /.forge behind: judge this run only.
    before = _tree(Path("/.forge"))
    done = subprocess.run(
        [forge_executable(), "memory", "save", "--category", "convention", "x"],
        cwd="/",
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done
    assert _tree(Path("/.forge")) == before
    assert len(done.stderr.strip().splitlines()) == 1


# --- 8: ad-hoc runs ---------------------------------------------------------------


def test_ad_hoc_runs_do_not_inherit_unrelated_attempts(run_forge: RunForge) -> None:
    for name in ("one", "two", "three", "four"):
        done = run_forge("validate", "--files", f"{name}.py", "--json")
        assert done.returncode == 1
        report = json.loads(done.stdout)
        assert report["attempt"] == 1, report
        assert report["recommendation"] == "RETRY", report


def test_an_escalation_says_why(run_forge: RunForge) -> None:
    for _ in range(3):
        done = run_forge("validate", "--module-id", "m1", "--command", "false")
    assert "ESCALATE" in done.stdout
    assert "attempt 3 of 3" in done.stdout or "same failures" in done.stdout, done.stdout


# --- 9: examples that say valid are valid ----------------------------------------


def test_valid_examples_need_only_python_and_node(run_forge: RunForge, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("python", "python3", "node", "npm", "npx", "sh", "git"):
        found = subprocess.run(["which", tool], capture_output=True, text=True, check=False)
        if found.returncode == 0:
            (bin_dir / tool).symlink_to(found.stdout.strip())
    plans = sorted((REPO / "examples" / "plans" / "valid").glob("*.json"))
    done = run_forge(
        "plan", "check", *map(str, plans), "--json", env={"PATH": str(bin_dir)}, cwd=REPO
    )
    assert done.returncode == 0, done.stdout
    docs = (REPO / "docs" / "plans.md").read_text("utf-8")
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    assert f"holds {words[len(plans)]} realistic plans" in docs


# --- 10: status after the quick start ----------------------------------------------


def test_status_after_a_plan_run_shows_every_module(run_forge: RunForge, project: Path) -> None:
    plan = {
        "modules": [
            {"id": "a", "title": "A", "objective": "a", "files": ["a.py"], "verify": ["false"], "doneWhen": "x"},
            {"id": "b", "title": "B", "objective": "b", "files": ["b.py"], "verify": ["true"], "doneWhen": "x", "dependsOn": ["a"]},
        ]
    }  # fmt: skip
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = run_forge("validate", "--plan", "plan.json", "--all")
    assert done.returncode == 1
    status = run_forge("status")
    assert status.returncode == 0, status.stderr
    assert "no status yet" not in status.stdout + status.stderr
    assert "b" in status.stdout and "skipped" in status.stdout.lower()
    run_done = run_forge("validate", "--plan", "plan.json", "--all", "--run-id", "r9")
    assert run_done.returncode == 1
    status = run_forge("status")
    assert "skipped" in status.stdout.lower(), status.stdout
    title_lines = [line for line in status.stdout.splitlines() if line.strip().startswith("a ")]
    assert all("r9" not in line for line in title_lines), status.stdout


# --- 11: plans on the validate command line ------------------------------------------


def test_validate_names_the_problem_with_several_plans(run_forge: RunForge) -> None:
    done = run_forge("validate", "--plan", "a.json", "b.json", "--all")
    assert done.returncode == 2
    assert "one plan" in done.stderr, done.stderr
    assert "--help" not in done.stderr or "forge validate --help" in done.stderr


def test_validate_all_shows_the_plans_warnings(run_forge: RunForge, project: Path) -> None:
    plan = {
        "modules": [
            {"id": "a", "title": "A", "objective": "a", "files": ["same.py"], "verify": ["true"], "doneWhen": "x"},
            {"id": "b", "title": "B", "objective": "b", "files": ["same.py"], "verify": ["true"], "doneWhen": "x"},
        ]
    }  # fmt: skip
    (project / "same.py").write_text("x = 1\n", encoding="utf-8")
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = run_forge("validate", "--plan", "plan.json", "--all")
    assert "file_overlap" in done.stdout + done.stderr


# --- 12: progress ---------------------------------------------------------------------


async def test_a_long_validate_reports_progress(project: Path, serve_mode: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total, message))

    async with served(project, serve_mode) as client:
        result = await client.call_tool(
            "validate",
            {"moduleId": "m1", "commands": ["sleep 0.2", "sleep 0.2", "true"]},
            progress_callback=progress,
        )
    assert not result.is_error
    assert len(seen) >= 3, seen
    assert [value for value, _, _ in seen] == sorted(value for value, _, _ in seen)


# --- 13: polish -------------------------------------------------------------------------


def test_version_flag(run_forge: RunForge) -> None:
    for flag in ("-V", "--version"):
        done = run_forge(flag)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("forge ")


def test_help_texts_are_whole(run_forge: RunForge) -> None:
    plan_help = run_forge("plan", "--help").stdout
    assert plan_help.count("examples:") == 1, plan_help
    logs_help = run_forge("logs", "--help").stdout
    options = [line for line in logs_help.splitlines() if line.strip().startswith("--")]
    assert options and all(len(line.split()) > 1 for line in options), logs_help


def test_one_memory_is_singular(run_forge: RunForge) -> None:
    run_forge("memory", "save", "--category", "convention", "tabs not spaces")
    listing = run_forge("memory", "recall", "tabs")
    assert listing.returncode == 0, listing.stderr
    assert "1 memory " in listing.stdout and "1 memories" not in listing.stdout, listing.stdout


def test_skipped_is_a_boolean_in_json(run_forge: RunForge, project: Path) -> None:
    plan = {
        "modules": [
            {"id": "a", "title": "A", "objective": "a", "files": ["a.py"], "verify": ["false"], "doneWhen": "x"},
            {"id": "b", "title": "B", "objective": "b", "files": ["b.py"], "verify": ["true"], "doneWhen": "x", "dependsOn": ["a"]},
        ]
    }  # fmt: skip
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = run_forge("validate", "--plan", "plan.json", "--all", "--json")
    data = json.loads(done.stdout)
    skipped = [m for m in data["modules"] if m.get("skipped")]
    assert skipped and all(m["skipped"] is True for m in skipped), data
    assert all(m.get("skipReason") for m in skipped), data


async def test_tools_carry_a_title(project: Path) -> None:
    async with served(project) as client:
        tools = (await client.list_tools()).tools
    assert all(tool.title for tool in tools), [tool.name for tool in tools if not tool.title]


async def test_a_reset_leaves_no_lock_file(project: Path) -> None:
    async with served(project) as client:
        await call(client, "iteration_state", {"moduleId": "m1", "action": "update", "runId": "r1", "update": {"status": "failed"}})  # fmt: skip
        await call(client, "iteration_state", {"moduleId": "m1", "action": "reset", "runId": "r1"})
    leftovers = [p.name for p in (project / ".forge").rglob("*.lock") if "m1" in p.name]
    assert leftovers == []


def test_ctrl_c_during_validate_says_so(project: Path) -> None:
    import signal
    import time
    import uuid

    # Ctrl-C once the verify command runs: a fixed sleep before it raced forge's
    # start-up on a loaded machine (and a Ctrl-C there can land where Python drops it).
    command = f"sleep {3000 + uuid.uuid4().int % 5000}"
    process = subprocess.Popen(
        [forge_executable(), "validate", "--command", command],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signal_dispositions,
    )
    deadline = time.monotonic() + 60
    while not [line for line in live_processes_mentioning(command) if "validate" not in line]:
        assert process.poll() is None and time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, (out, err)
    assert "interrupted" in (out + err).lower()


# --- 14: docs that match -------------------------------------------------------------------


def test_ci_script_says_it_recreates_the_venv() -> None:
    script = (REPO / ".ci" / "run").read_text("utf-8")
    assert "echo" in script.split("rm -rf .venv")[0].splitlines()[-1] or "recreat" in script


def test_contributing_release_tools_are_in_the_dev_extra() -> None:
    pyproject = (REPO / "pyproject.toml").read_text("utf-8")
    contributing = (REPO / "CONTRIBUTING.md").read_text("utf-8")
    for tool in ("twine", "build"):
        if f"python -m {tool}" in contributing or f"{tool} upload" in contributing:
            assert f'"{tool}' in pyproject, tool


_ = sys
