"""The MCP server through a real client: tool surface, validate's attempt history, errors, status."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from forge_testing import forge_executable
from mcp import Client
from mcp_client import call, call_error, connect, stdio_parameters, text_of

from forge import __version__
from forge.models import ValidateRequest
from forge.tools.mcp_server import TOOL_NAMES

pytestmark = pytest.mark.anyio

SEVEN = {
    "validate",
    "validate_plan",
    "memory_save",
    "memory_recall",
    "iteration_state",
    "forge_logs",
    "session_state",
}
#: forge's own tools, beside the reference server's seven.
OWN = {"merge_check"}


def tree(root: Path) -> set[str]:
    """Every path under ``root`` outside the project's ``.forge`` folder."""
    return {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if ".forge" not in p.relative_to(root).parts
    }


# --- tool surface ------------------------------------------------------------------


async def test_tools_list_shows_the_seven_tools_and_forges_own_with_schemas(project: Path) -> None:
    async with connect(project) as client:
        assert client.server_info is not None
        assert (client.server_info.name, client.server_info.version) == ("forge", __version__)
        tools = (await client.list_tools()).tools
    assert {tool.name for tool in tools} == SEVEN | OWN == set(TOOL_NAMES)
    # The reference server's tools come first, in its order; forge's own after them.
    assert [tool.name for tool in tools][: len(SEVEN)] == list(TOOL_NAMES)[: len(SEVEN)]
    for tool in tools:
        assert tool.input_schema["type"] == "object"
        for name, prop in tool.input_schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
        assert tool.description and "Example:" in tool.description
        hints = tool.annotations
        assert hints is not None and hints.open_world_hint is False
        assert hints.read_only_hint is not None and hints.destructive_hint is not None
        if tool.name != "validate_plan":
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"
    by_name = {tool.name: tool for tool in tools}
    assert by_name["validate"].input_schema["required"] == ["moduleId"]
    assert by_name["memory_save"].input_schema["required"] == ["pattern", "category"]
    assert by_name["iteration_state"].input_schema["required"] == ["moduleId", "action"]
    assert by_name["session_state"].input_schema["required"] == ["action"]
    assert by_name["merge_check"].input_schema.get("required", []) == []
    read_only = {t.name for t in tools if t.annotations and t.annotations.read_only_hint}
    assert read_only == {"validate_plan", "memory_recall", "forge_logs", "merge_check"}


def _constraints(schema: dict[str, Any]) -> Any:
    if isinstance(schema, dict):
        return {
            k: _constraints(v)
            for k, v in schema.items()
            if k not in {"title", "description", "default"}
        }
    if isinstance(schema, list):
        return [_constraints(item) for item in schema]
    return schema


async def test_validate_arguments_have_the_constraints_of_validate_request(project: Path) -> None:
    async with connect(project) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    arguments = tools["validate"].input_schema
    request = ValidateRequest.model_json_schema(by_alias=True)
    assert set(arguments["properties"]) == set(request["properties"])
    for name, prop in request["properties"].items():
        assert _constraints(arguments["properties"][name]) == _constraints(prop), name


async def test_result_is_json_text_and_structured_content(project: Path) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    async with connect(project) as client:
        result = await client.call_tool("validate", {"moduleId": "m1", "files": ["a.py"]})
    assert not result.is_error
    assert json.loads(text_of(result)) == result.structured_content
    assert result.structured_content is not None
    assert result.structured_content["passed"] is True
    assert result.structured_content["recommendation"] == "PROCEED"
    assert {"sameAsPrev", "oscillating", "velocity", "attempt", "score", "results"} <= set(
        result.structured_content
    )


# --- validate and the attempt history ---------------------------------------------------


async def test_attempts_count_per_run_and_module(project: Path) -> None:
    async with connect(project) as client:
        for expected in (1, 2):
            report = await call(
                client, "validate", {"moduleId": "m1", "runId": "r1", "files": [f"{expected}.py"]}
            )
            assert report["attempt"] == expected
        one_file = {"files": ["1.py"]}
        other_module = await call(client, "validate", {"moduleId": "m2", "runId": "r1", **one_file})
        other_run = await call(client, "validate", {"moduleId": "m1", "runId": "r2", **one_file})
        no_run = await call(client, "validate", {"moduleId": "m1", **one_file})
    assert other_module["attempt"] == other_run["attempt"] == no_run["attempt"] == 1
    assert (project / ".forge/iterations/r1/m1.json").is_file()
    assert (project / ".forge/iterations/r2/m1.json").is_file()
    assert (project / ".forge/iterations/m1.json").is_file()


async def test_retry_then_proceed_with_velocity(project: Path) -> None:
    # .txt: no language, so only file_check counts and the scores are 0, 0.5, 1.
    args = {"moduleId": "m1", "runId": "r", "files": ["a.txt", "b.txt"], "maxAttempts": 5}
    async with connect(project) as client:
        first = await call(client, "validate", args)
        (project / "a.txt").write_text("", encoding="utf-8")
        second = await call(client, "validate", args)
        (project / "b.txt").write_text("", encoding="utf-8")
        third = await call(client, "validate", args)
    assert (first["score"], first["recommendation"], first["velocity"]) == (0.0, "RETRY", None)
    assert (second["score"], second["recommendation"], second["velocity"]) == (0.5, "RETRY", None)
    assert not second["sameAsPrev"] and not second["stagnant"]
    assert (third["passed"], third["recommendation"], third["velocity"]) == (True, "PROCEED", 0.5)


async def test_same_failures_again_is_same_as_prev_and_escalates(project: Path) -> None:
    args = {"moduleId": "m1", "runId": "r", "files": ["missing.py"], "maxAttempts": 9}
    async with connect(project) as client:
        first = await call(client, "validate", args)
        second = await call(client, "validate", args)
    assert (first["sameAsPrev"], first["recommendation"]) == (False, "RETRY")
    assert (second["sameAsPrev"], second["stagnant"], second["recommendation"]) == (
        True,
        True,
        "ESCALATE",
    )


async def test_a_b_a_is_oscillating(project: Path) -> None:
    base = {"moduleId": "m1", "runId": "r", "maxAttempts": 9}
    async with connect(project) as client:
        a1 = await call(client, "validate", {**base, "files": ["a.py"]})
        b = await call(client, "validate", {**base, "files": ["b.py"]})
        a2 = await call(client, "validate", {**base, "files": ["a.py"]})
    assert not a1["oscillating"] and not b["oscillating"] and not b["sameAsPrev"]
    assert (a2["oscillating"], a2["sameAsPrev"], a2["recommendation"]) == (True, False, "ESCALATE")


async def test_no_progress_is_stagnant(project: Path) -> None:
    base = {"moduleId": "m1", "runId": "r", "maxAttempts": 9}
    async with connect(project) as client:
        for name in ("a", "b", "c"):
            (project / f"{name}.py").write_text("", encoding="utf-8")
        results = []
        for missing in ("a", "b", "c"):
            (project / f"{missing}.py").unlink(missing_ok=True)
            results.append(
                await call(client, "validate", {**base, "files": ["a.py", "b.py", "c.py"]})
            )
            (project / f"{missing}.py").write_text("", encoding="utf-8")
    last = results[-1]
    assert [r["recommendation"] for r in results[:2]] == ["RETRY", "RETRY"]
    assert (last["velocity"], last["oscillating"], last["sameAsPrev"]) == (0.0, False, False)
    assert (last["stagnant"], last["recommendation"]) == (True, "ESCALATE")


async def test_escalate_at_the_attempt_limit(project: Path) -> None:
    base = {"moduleId": "m1", "runId": "r"}
    async with connect(project) as client:
        first = await call(client, "validate", {**base, "files": ["a.py"], "maxAttempts": 2})
        second = await call(client, "validate", {**base, "files": ["b.py"], "maxAttempts": 2})
    assert first["recommendation"] == "RETRY"
    assert (second["attempt"], second["stagnant"], second["recommendation"]) == (
        2,
        False,
        "ESCALATE",
    )
    assert second["maxAttempts"] == 2


async def test_max_attempts_default_comes_from_tool_forge(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.forge]\nmax-attempts = 1\n", encoding="utf-8")
    async with connect(project) as client:
        report = await call(client, "validate", {"moduleId": "m1", "files": ["a.py"]})
    assert (report["maxAttempts"], report["recommendation"]) == (1, "ESCALATE")


async def test_missing_cwd_escalates_at_once_and_records_nothing(project: Path) -> None:
    async with connect(project) as client:
        report = await call(client, "validate", {"moduleId": "m1", "runId": "r", "cwd": "gone"})
        state = await call(
            client, "iteration_state", {"moduleId": "m1", "runId": "r", "action": "get"}
        )
    assert (report["passed"], report["score"], report["recommendation"]) == (False, 0, "ESCALATE")
    assert report["attempt"] == 0
    assert [r["type"] for r in report["results"]] == ["cwd_check"]
    assert "gone" in report["results"][0]["message"]
    assert state["attempts"] == []
    assert not (project / ".forge/iterations/r/m1.json").exists()


async def test_commands_run_in_the_working_dir(project: Path) -> None:
    (project / "sub").mkdir()
    async with connect(project) as client:
        report = await call(
            client,
            "validate",
            {"moduleId": "m1", "cwd": "sub", "commands": ["test $(basename $PWD) = sub", "false"]},
        )
    assert [r["passed"] for r in report["results"]] == [True, False]
    assert report["score"] == 0.5


# --- errors --------------------------------------------------------------------------

BAD_IDS = ["../evil", "..", ".", "a/b", "/etc/passwd", "x" * 129, "", "a b", "a\\b"]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("validate", {"moduleId": "{id}"}),
        ("validate", {"moduleId": "m1", "runId": "{id}"}),
        ("iteration_state", {"moduleId": "{id}", "action": "get"}),
        ("iteration_state", {"moduleId": "m1", "runId": "{id}", "action": "reset"}),
        ("forge_logs", {"runId": "{id}"}),
        ("session_state", {"action": "save", "runId": "{id}", "state": {"a": 1}}),
        ("session_state", {"action": "load", "runId": "{id}"}),
    ],
)
async def test_traversal_ids_are_rejected_and_nothing_is_written_outside_forge(
    project: Path, tool: str, arguments: dict[str, Any]
) -> None:
    (project / "keep.txt").write_text("", encoding="utf-8")
    before = tree(project.parent)
    async with connect(project) as client:
        for bad in BAD_IDS:
            filled = {k: (bad if v == "{id}" else v) for k, v in arguments.items()}
            message = await call_error(client, tool, filled)
            assert "Id" in message or "id" in message, message
        await call(client, "forge_logs", {})  # still answering
    assert tree(project.parent) == before
    assert not list((project / ".forge/state").iterdir())
    assert not list((project / ".forge/iterations").iterdir())


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("validate", {}, "moduleId: Field required"),
        ("validate", {"moduleId": "m1", "commands": "npm test"}, "commands"),
        ("validate", {"moduleId": "m1", "files": [1, 2]}, "files.0"),
        ("validate", {"moduleId": "m1", "timeout": -1}, "timeout"),
        ("validate", {"moduleId": "m1", "files": ["f"] * 2001}, "files"),
        ("validate", {"moduleId": "m1", "contractChecks": [{"exporter": "a"}]}, "importer"),
        ("iteration_state", {"moduleId": "m1", "action": "drop"}, "'get', 'update' or 'reset'"),
        ("iteration_state", {"moduleId": "m1", "action": "update"}, "needs the update object"),
        (
            "iteration_state",
            {"moduleId": "m1", "action": "update", "update": {"score": 2}},
            "update.score",
        ),
        ("memory_save", {"pattern": "p", "category": "gossip"}, "category"),
        (
            "memory_save",
            {"pattern": "p", "category": "convention", "confidence": 1.5},
            "confidence",
        ),
        ("memory_save", {"pattern": "", "category": "convention"}, "pattern"),
        ("memory_save", {"pattern": "   ", "category": "convention"}, "pattern is empty"),
        ("memory_save", {"pattern": "x" * 2000, "category": "convention"}, "pattern"),
        ("memory_recall", {}, "query: Field required"),
        ("memory_recall", {"query": "x", "scope": "team"}, "scope"),
        ("forge_logs", {"limit": 0}, "limit"),
        ("forge_logs", {"limit": 100000}, "limit"),
        ("forge_logs", {"severity": "fatal"}, "severity"),
        ("forge_logs", {"phase": "lunch"}, "phase"),
        ("session_state", {"action": "save", "state": {}}, "needs runId"),
        ("session_state", {"action": "save", "runId": "r"}, "needs state"),
        ("session_state", {"action": "load"}, "needs runId"),
        ("session_state", {"action": "save", "runId": "r", "state": [1]}, "state"),
        ("no_such_tool", {}, "Unknown tool"),
    ],
)
async def test_bad_arguments_give_one_actionable_line(
    project: Path, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    async with connect(project) as client:
        message = await call_error(client, tool, arguments)
        assert expected in message
        assert len(message) < 600
        # The server answers the next call.
        assert (await call(client, "session_state", {"action": "list"})) == {
            "sessions": [],
            "notices": [],
        }


async def test_every_call_logs_a_tool_call_event_to_the_named_or_own_run(project: Path) -> None:
    async with connect(project, run_id="own") as client:
        await call(client, "memory_recall", {"query": "x" * 500})
        await call(client, "validate", {"moduleId": "m1", "runId": "r1", "files": ["a"] * 10})
        await call_error(client, "validate", {"moduleId": "m1", "runId": "r1", "timeout": 0})
        own = await call(client, "forge_logs", {"runId": "own"})
        named = await call(client, "forge_logs", {"runId": "r1"})
    own_events = [(e["phase"], e["event"]) for e in own["entries"]]
    assert own_events[:2] == [("tool_call", "memory_recall"), ("tool_call", "forge_logs")]
    assert len(own["entries"][0]["data"]["args"]["query"]) <= 200
    named_events = [(e["phase"], e["event"], e["severity"]) for e in named["entries"]]
    assert named_events == [
        ("tool_call", "validate", "info"),
        ("validation", "validate", "error"),  # a validate that did not pass
        ("tool_call", "validate", "info"),
        ("tool_call", "validate_error", "error"),
        ("tool_call", "forge_logs", "info"),  # this very query names r1 too
    ]
    assert named["entries"][0]["data"]["args"]["files"] == "[10 items]"
    assert named["entries"][1]["data"]["failureCount"] == 1


# --- status.json ---------------------------------------------------------------------------


async def test_status_json_after_a_sequence_of_calls(project: Path) -> None:
    plan = {
        "objective": "Ship login",
        "modules": [
            {"id": "m1", "title": "Model"},
            {"id": "m2", "title": "API"},
            {"id": "m3", "title": "UI"},
            {"id": "m4", "title": "Docs"},
        ],
    }
    (project / ".forge/plans").mkdir(parents=True)
    (project / ".forge/plans/login.json").write_text(json.dumps(plan), encoding="utf-8")
    (project / "model.py").write_text("x = 1\n", encoding="utf-8")
    async with connect(project) as client:
        await call(
            client,
            "session_state",
            {
                "action": "save",
                "runId": "r1",
                "state": {"planPath": ".forge/plans/login.json", "currentPhase": "execution"},
            },
        )
        await call(client, "validate", {"moduleId": "m1", "runId": "r1", "files": ["model.py"]})
        await call(client, "validate", {"moduleId": "m2", "runId": "r1", "files": ["api.py"]})
        await call(
            client,
            "iteration_state",
            {"moduleId": "m3", "runId": "r1", "action": "update", "update": {"status": "running"}},
        )
        await call(client, "memory_recall", {"query": "login"})
    status = json.loads((project / ".forge/status.json").read_text(encoding="utf-8"))
    assert status["objective"] == "Ship login"
    assert status["planPath"] == ".forge/plans/login.json"
    assert status["currentPhase"] == "execution"
    assert (status["runId"], status["lastTool"]) == ("r1", "memory_recall")
    assert status["counts"] == {
        "total": 4,
        "done": 1,
        "running": 1,
        "failed": 1,
        "pending": 1,
        "skipped": 0,
    }
    modules = {m["id"]: m for m in status["modules"]}
    assert (modules["m1"]["state"], modules["m1"]["attempts"], modules["m1"]["score"]) == (
        "done",
        1,
        1.0,
    )
    assert (modules["m2"]["state"], modules["m2"]["score"]) == ("failed", 0.0)
    assert (modules["m3"]["state"], modules["m4"]["state"]) == ("running", "pending")
    assert modules["m2"]["title"] == "API"
    assert status["updatedAt"] >= status["startedAt"]
    assert not list((project / ".forge").glob(".status.json.*"))


# --- over stdio, against the installed console scripts --------------------------------------------


@pytest.mark.parametrize("script", [("forge", "serve"), ("forge-mcp",)])
async def test_stdio_server_lists_the_tools_and_validates(
    project: Path, script: tuple[str, ...], serve_mode: str
) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    params = stdio_parameters(project, forge_executable(script[0]), *script[1:], mode=serve_mode)
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        assert {tool.name for tool in tools} == SEVEN | OWN
        report = await call(
            client,
            "validate",
            {"moduleId": "m1", "runId": "r", "files": ["a.py"], "commands": ["true"]},
        )
        assert report["recommendation"] == "PROCEED"
        message = await call_error(client, "validate", {"moduleId": "../x", "files": 3})
        assert "moduleId" in message
        saved = await call(client, "memory_save", {"pattern": "p q", "category": "convention"})
        assert saved["saved"] is True
    assert (project / ".forge/status.json").is_file()
    for folder in ("plans", "iterations", "memory", "logs", "state"):
        assert (project / ".forge" / folder).is_dir()


async def test_stdio_server_takes_the_project_from_forge_cwd(
    project: Path, tmp_path: Path, serve_mode: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    params = stdio_parameters(elsewhere, sys.executable, "-m", "forge", "serve", mode=serve_mode)
    assert params.env is not None and params.env["FORGE_CWD"] == str(project)
    async with Client(params) as client:
        await call(client, "session_state", {"action": "save", "runId": "r", "state": {"a": 1}})
    assert (project / ".forge/state/r.json").is_file()
    assert not (elsewhere / ".forge").exists()
