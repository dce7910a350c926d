"""Output schemas as clients get them: models inlined, optional types as type lists, same verdicts."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp_client import call, connect
from pydantic import BaseModel

from forge.plan.check import PlanReport
from forge.tools.schemas import compact_schema
from forge.validate.outcome import ValidateReport


def _valid(schema: dict[str, Any], instance: object) -> bool:
    return not list(jsonschema.Draft202012Validator(schema).iter_errors(instance))


RESULT = {"type": "file_check", "target": "a.py", "passed": True, "message": "exists"}
REPORT: dict[str, Any] = {
    "passed": True, "score": 1.0, "results": [RESULT], "attempt": 1, "stagnant": False,
    "sameAsPrev": False, "oscillating": False, "velocity": None, "recommendation": "PROCEED",
    "moduleId": "m", "maxAttempts": 3,
}  # fmt: skip


def _broken(path: list[str | int], value: object) -> dict[str, Any]:
    report = copy.deepcopy(REPORT)
    node: Any = report
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return report


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (["results", 0, "passed"], "yes"),  # a field of an inlined model
        (["results", 0, "plugin"], 3),  # an optional field: string or null, nothing else
        (["results", 0, "type"], "Not An Id"),  # its pattern
        (["results", 0, "locations"], [{"line": 0, "column": 1, "message": "m"}]),  # nested
        (["velocity"], "fast"),
        (["recommendation"], "MAYBE"),
    ],
)
def test_the_compact_schema_refuses_what_pydantic_s_refuses(
    where: list[str | int], value: object
) -> None:
    original = ValidateReport.model_json_schema(by_alias=True)
    compact = compact_schema(original)
    assert "$defs" not in compact and "$ref" not in json.dumps(compact)
    assert _valid(original, REPORT) and _valid(compact, REPORT)
    broken = _broken(where, value)
    assert not _valid(original, broken)
    assert not _valid(compact, broken)


def test_optional_types_become_one_type_list_and_the_rest_stays() -> None:
    compact = compact_schema(PlanReport.model_json_schema(by_alias=True))
    assert compact["properties"]["planPath"]["type"] == ["string", "null"]
    finding = compact["properties"]["warnings"]["items"]
    assert finding["properties"]["field"]["type"] == ["string", "null"]
    assert finding["required"] == ["type", "message"] and finding["additionalProperties"] is False
    assert compact["properties"]["layers"]["items"] == {"type": "array"}


class Node(BaseModel):
    """A model that holds itself."""

    name: str
    children: list[Node] = []
    parent: Node | None = None


def test_a_model_inside_itself_stays_a_reference() -> None:
    original = Node.model_json_schema()
    compact = compact_schema(original)
    assert set(compact.get("$defs", {})) == set(original.get("$defs", {}))
    tree = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    assert _valid(compact, tree)
    assert not _valid(compact, {"name": "a", "children": [{"name": 1}]})


@pytest.mark.anyio
async def test_the_server_lists_compact_output_schemas_and_its_results_meet_them(
    project: Path,
) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    async with connect(project) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        report = await call(client, "validate", {"moduleId": "m", "files": ["a.py"]})
    for tool in tools.values():
        assert tool.output_schema is not None and "$ref" not in json.dumps(tool.output_schema)
    assert report["passed"]
    assert _valid(tools["validate"].output_schema, report)
