"""The plan format and its JSON Schema."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic import ValidationError

from forge.plan import Plan, plan_json_schema

Make = Callable[..., dict[str, object]]


def test_the_schema_names_required_fields_and_allows_others() -> None:
    schema = plan_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["required"] == ["modules"]
    assert schema["additionalProperties"] is True
    module = schema["$defs"]["PlanModule"]
    assert module["required"] == ["id", "title", "objective", "files", "verify", "doneWhen"]
    assert module["additionalProperties"] is True
    assert module["properties"]["id"]["pattern"] == "^[A-Za-z0-9_.-]{1,128}$"
    assert module["properties"]["files"]["minItems"] == 1
    assert set(module["properties"]) >= {"dependsOn", "agent", "complexity"}
    assert set(schema["$defs"]["TechStack"]["properties"]) == {
        "language",
        "testCommand",
        "buildCommand",
        "lintCommand",
    }
    assert "$schema" in schema["properties"]


def test_a_plan_round_trips_in_camel_case(make_module: Make) -> None:
    data = {
        "objective": "x",
        "techStack": {"testCommand": "pytest"},
        "modules": [make_module("a", dependsOn=[], complexity="simple", extra={"k": 1})],
    }
    plan = Plan.model_validate(data)
    assert plan.tech_stack is not None and plan.tech_stack.test_command == "pytest"
    wire = plan.to_wire()
    assert wire["techStack"]["testCommand"] == "pytest"
    assert wire["modules"][0]["extra"] == {"k": 1}
    assert wire["modules"][0]["doneWhen"] == "It works."


def test_values_are_not_coerced(make_module: Make) -> None:
    with pytest.raises(ValidationError):
        Plan.model_validate({"modules": [make_module("a", files=[1])]})
