"""validate_plan through MCP: needs ``forge.plan`` (the plan engine), skipped until it is merged."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp_client import call, call_error, connect

pytest.importorskip("forge.plan")

pytestmark = pytest.mark.anyio


def module(module_id: str, *depends: str) -> dict[str, object]:
    return {
        "id": module_id,
        "title": f"Module {module_id}",
        "objective": "do it",
        "files": [f"src/{module_id}.py"],
        "verify": ["true"],
        "doneWhen": "tests pass",
        "dependsOn": list(depends),
    }


def write_plan(project: Path, name: str, modules: list[dict[str, object]]) -> Path:
    path = project / ".forge/plans" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"objective": name, "modules": modules}), encoding="utf-8")
    return path


async def test_validate_plan_has_an_output_schema(project: Path) -> None:
    async with connect(project) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    schema = tools["validate_plan"].output_schema
    assert schema is not None
    assert {"valid", "errors", "warnings"} <= set(schema["properties"])


async def test_the_output_schema_has_a_client_check_the_layers_shape_not_each_id(
    project: Path,
) -> None:
    """A client re-checks every result against the schema: 1,000 ids each checked as a string
    cost it more than the server's whole answer; the waves stay arrays of arrays."""
    async with connect(project) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    schema = tools["validate_plan"].output_schema
    assert schema is not None
    layers = schema["properties"]["layers"]
    assert layers["type"] == "array" and layers["items"] == {"type": "array"}
    assert "module ids" in layers["description"]
    write_plan(project, "good", [module("a"), module("b", "a")])
    async with connect(project) as client:
        report = await call(client, "validate_plan", {})
    assert report["layers"] == [["a"], ["b"]]


async def test_a_valid_plan_by_path(project: Path) -> None:
    write_plan(project, "good", [module("a"), module("b", "a")])
    async with connect(project) as client:
        report = await call(client, "validate_plan", {"planPath": ".forge/plans/good.json"})
    assert (report["valid"], report["errors"]) == (True, [])


async def test_default_is_the_newest_plan_and_cycles_are_named(project: Path) -> None:
    old = write_plan(project, "old", [module("a")])
    write_plan(project, "new", [module("a", "b"), module("b", "a")])
    os.utime(old, (1, 1))
    async with connect(project) as client:
        report = await call(client, "validate_plan", {})
        logs = await call(client, "forge_logs", {"phase": "plan_validation"})
    assert report["valid"] is False
    assert any(e["type"] == "cycle" and set(e["modules"]) == {"a", "b"} for e in report["errors"])
    assert logs["entries"][-1]["data"]["valid"] is False


async def test_inline_plan_and_schema_errors(project: Path) -> None:
    async with connect(project) as client:
        report = await call(client, "validate_plan", {"plan": {"modules": [{"id": "a"}]}})
        both = await call_error(client, "validate_plan", {"planPath": "x.json", "plan": {}})
    assert report["valid"] is False
    assert {e["type"] for e in report["errors"]} >= {"schema"}
    assert "not both" in both


async def test_missing_file_is_an_error_entry_not_a_crash(project: Path) -> None:
    async with connect(project) as client:
        report = await call(client, "validate_plan", {"planPath": "nope.json"})
    assert report["valid"] is False and report["errors"][0]["type"] == "schema"
