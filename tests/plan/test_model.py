"""The plan format and its JSON Schema."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic import ValidationError

from forge.plan.model import Plan, plan_json_schema

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


def test_the_reference_fields_take_its_snake_case_and_forges_camel_case(make_module: Make) -> None:
    reference = make_module(
        "a",
        acceptance_criteria=[{"check": "pytest -q", "expected": "exit 0", "blocking": False}],
        disallowed_changes=["migrations/**"],
        success_evidence=["the test log"],
        cost_budget={"tokens": 200000, "usd": 2.5, "minutes": 30, "attempts": 3},
        expected_trajectory=["read the spec", "write tests", "implement"],
        mayChange=["tests/**"],
        branch="forge/a",
    )
    camel = make_module(
        "a",
        acceptanceCriteria=[{"check": "pytest -q", "expected": "exit 0", "blocking": False}],
        disallowedChanges=["migrations/**"],
        successEvidence=["the test log"],
        costBudget={"tokens": 200000, "usd": 2.5, "minutes": 30, "attempts": 3},
        expectedTrajectory=["read the spec", "write tests", "implement"],
        mayChange=["tests/**"],
        branch="forge/a",
    )
    first = Plan.model_validate({"modules": [reference]}).modules[0]
    assert first == Plan.model_validate({"modules": [camel]}).modules[0]
    assert first.acceptance_criteria[0].blocking is False
    assert first.may_change == ["tests/**"] and first.branch == "forge/a"
    wire = first.to_wire()
    assert wire["acceptance_criteria"] == [
        {"check": "pytest -q", "expected": "exit 0", "blocking": False}
    ]
    assert wire["mayChange"] == ["tests/**"]
    properties = plan_json_schema()["$defs"]["PlanModule"]["properties"]
    assert {"acceptance_criteria", "disallowed_changes", "success_evidence"} <= set(properties)
    assert {"cost_budget", "expected_trajectory", "mayChange", "branch"} <= set(properties)
    assert plan_json_schema()["$defs"]["AcceptanceCriterion"]["additionalProperties"] is False


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        (
            "acceptance_criteria",
            [{"check": "pytest", "blockng": False}],
            "(did you mean blocking?)",
        ),
        ("acceptance_criteria", [{"expected": "exit 0"}], "check is missing"),
        ("acceptance_criteria", [{"check": "pytest", "blocking": "no"}], "blocking is invalid"),
        ("acceptance_criteria", "pytest", "must be a list"),
        ("disallowed_changes", "migrations/**", 'write ["migrations/**"]'),
        ("success_evidence", [""], "must not be empty"),
        ("cost_budget", {"tokens": -1}, "cost_budget.tokens is invalid"),
        ("cost_budget", {"token": 5}, "(did you mean tokens?)"),
        ("expected_trajectory", [3], "must be a string"),
    ],
)
def test_each_reference_field_is_shape_checked(
    check_inline: Callable[..., object], make_module: Make, field: str, value: object, expected: str
) -> None:
    report = check_inline([make_module("a", **{field: value})])
    errors = report.errors  # type: ignore[attr-defined]
    assert [(e.type, e.modules, e.field) for e in errors] == [("schema", ["a"], field)]
    assert expected in errors[0].message, errors[0].message
