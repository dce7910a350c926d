"""The ``schema`` step: every structural problem reported, usable modules kept."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from forge.plan.check import PlanReport, check_plan
from forge.plan.loader import BULK_MODULES, MAX_PLAN_MODULES, build_plan
from forge.plan.model import PlanModule
from forge.plugin_host.host import PluginHost

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


def _check_file(path: Path, plugins: PluginHost) -> PlanReport:
    return check_plan(plan_path=str(path), plan=None, project_root=path.parent, plugins=plugins)


def _schema(report: PlanReport) -> list[str]:
    assert all(f.type == "schema" for f in report.errors), report.errors
    return [f.message for f in report.errors]


def test_a_missing_file(tmp_path: Path, plan_plugins: PluginHost) -> None:
    report = _check_file(tmp_path / "nope.json", plan_plugins)
    assert not report.valid
    assert _schema(report) == ["cannot read the plan: no such file"]
    assert report.plan_path == "nope.json"


def test_a_directory(tmp_path: Path, plan_plugins: PluginHost) -> None:
    (tmp_path / "plan.json").mkdir()
    assert _schema(_check_file(tmp_path / "plan.json", plan_plugins)) == [
        "cannot read the plan: it is a directory"
    ]


def test_a_fifo_is_refused_without_blocking(tmp_path: Path, plan_plugins: PluginHost) -> None:
    fifo = tmp_path / "plan.json"
    os.mkfifo(fifo)
    assert _schema(_check_file(fifo, plan_plugins)) == [
        "cannot read the plan: it is not a regular file (a FIFO, socket or device)"
    ]


def test_an_unreadable_file(tmp_path: Path, plan_plugins: PluginHost) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode")
    plan = tmp_path / "plan.json"
    plan.write_text("{}", encoding="utf-8")
    plan.chmod(0)
    assert _schema(_check_file(plan, plan_plugins)) == ["cannot read the plan: Permission denied"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "invalid JSON: the plan is empty"),
        (
            '{\n  "modules": [\n    {"id": "a",}\n  ]\n}',
            "invalid JSON at line 3, column 16: Expecting property name enclosed in double "
            "quotes (remove the trailing comma before it)",
        ),
        ('{"modules": [}', "invalid JSON at line 1, column 14: Expecting value"),
        (
            "{'modules': []}",
            "invalid JSON at line 1, column 2: Expecting property name enclosed in double quotes",
        ),
    ],
)
def test_invalid_json_names_line_and_column(
    tmp_path: Path, plan_plugins: PluginHost, text: str, message: str
) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(text, encoding="utf-8")
    assert _schema(_check_file(plan, plan_plugins)) == [message]


def test_text_that_is_not_utf8(tmp_path: Path, plan_plugins: PluginHost) -> None:
    plan = tmp_path / "plan.json"
    plan.write_bytes(b'{"objective": "caf\xe9"}')
    assert _schema(_check_file(plan, plan_plugins)) == [
        "the plan is not UTF-8 text: byte 18 cannot be decoded"
    ]


def test_a_utf8_bom_is_accepted(
    tmp_path: Path, plan_plugins: PluginHost, make_module: Make
) -> None:
    plan = tmp_path / "plan.json"
    plan.write_bytes(b"\xef\xbb\xbf" + json.dumps({"modules": [make_module("a")]}).encode())
    assert _check_file(plan, plan_plugins).valid


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        ([{"id": "a"}], 'the plan must be a JSON object with a "modules" list, found an array'),
        ("null", 'the plan must be a JSON object with a "modules" list, found null'),
        ({"objective": "x"}, 'the plan has no "modules" list'),
        ({"modules": {"a": {}}}, '"modules" must be a list of module objects, found an object'),
        (
            {"modules": "a, b"},
            '"modules" must be a list of module objects, found a string ("a, b")',
        ),
        ({"modules": []}, '"modules" is empty: a plan needs at least one module'),
    ],
)
def test_the_top_level_shape(
    tmp_path: Path, plan_plugins: PluginHost, plan: object, message: str
) -> None:
    report = check_plan(plan_path=None, plan=plan, project_root=tmp_path, plugins=plan_plugins)
    assert _schema(report) == [message]
    assert report.layers == []
    assert report.module_count == 0


def test_each_missing_or_empty_required_field_is_named(
    check_inline: Check, make_module: Make
) -> None:
    missing = make_module("a")
    del missing["doneWhen"], missing["objective"]
    report = check_inline(
        [
            missing,
            make_module("b", files=[], verify=["  "], title=""),
            make_module("c", doneWhen=[]),
            {"title": "no id"},
        ]
    )
    assert _schema(report) == [
        'module "a" (modules[0]): objective is missing (required)',
        'module "a" (modules[0]): doneWhen is missing (required)',
        'module "b" (modules[1]): title must not be empty',
        'module "b" (modules[1]): files must not be an empty list',
        'module "b" (modules[1]): verify[0] must not be empty',
        'module "c" (modules[2]): doneWhen must not be an empty list',
        "modules[3]: id is missing (required)",
        "modules[3]: objective is missing (required)",
        "modules[3]: files is missing (required)",
        "modules[3]: verify is missing (required)",
        "modules[3]: doneWhen is missing (required)",
    ]
    assert [(f.modules, f.field) for f in report.errors[:2]] == [
        (["a"], "objective"),
        (["a"], "doneWhen"),
    ]


def test_wrong_types_say_what_was_found(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        [
            make_module("a", dependsOn="b"),
            make_module("b", files=["ok.py", 3], doneWhen=7, complexity="huge"),
            make_module(5),
            "not a module",
            make_module("c", agent=["x"], title={"en": "C"}),
        ]
    )
    assert _schema(report) == [
        'module "a" (modules[0]): dependsOn must be a list, found a string ("b") (write ["b"])',
        'module "b" (modules[1]): files[1] must be a string, found a number (3)',
        'module "b" (modules[1]): doneWhen must be a string or a list of strings, found a number (7)',
        "module \"b\" (modules[1]): complexity must be one of 'simple', 'medium' or 'complex', "
        'found a string ("huge")',
        "modules[2]: id must be a string, found a number (5)",
        'modules[3] must be a module object, found a string ("not a module")',
        'module "c" (modules[4]): title must be a string, found an object',
        'module "c" (modules[4]): agent must be a string, found an array',
    ]


def test_top_level_fields_are_checked_too(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        {"techStack": {"testCommand": 3}, "objective": "", "modules": [make_module("a")]}
    )
    assert [(f.message, f.field) for f in report.errors] == [
        ("objective must not be empty", "objective"),
        ("techStack.testCommand must be a string, found a number (3)", "techStack.testCommand"),
    ]
    assert report.layers == [["a"]]


def test_usable_modules_still_reach_the_rules(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        [
            make_module("a", dependsOn=["b"]),
            make_module("b", dependsOn=["a"], complexity="huge"),  # optional field: kept
            make_module("c", title=""),  # required field: left out
            make_module("d", dependsOn=["ghost"]),
        ]
    )
    assert [f.type for f in report.errors] == ["schema", "schema", "unknown_dependency", "cycle"]
    assert report.module_count == 3
    assert report.layers == [["d"]]


def test_unknown_fields_are_allowed(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        {
            "$schema": "../plan.schema.json",
            "name": "my plan",
            "owner": {"team": "core"},
            "modules": [make_module("a", estimateHours=3, notes=["x"])],
        }
    )
    assert report.valid
    assert report.errors == []


def test_a_plan_with_too_many_modules_is_one_schema_error(check_inline: Check) -> None:
    modules = [{"id": f"m{n}"} for n in range(MAX_PLAN_MODULES + 1)]
    report = check_inline({"modules": modules})
    assert [(e.type, e.field) for e in report.errors] == [("schema", "modules")]
    assert "10,001 entries; a plan may have at most 10,000" in report.errors[0].message


def test_a_big_plan_is_built_as_one_module_at_a_time_would_build_it(
    check_inline: Check, make_module: Make
) -> None:
    """From BULK_MODULES on, modules are validated in one call; the plan and the findings agree."""
    small = [make_module(f"m{n}", dependsOn=[f"m{n - 1}"] if n else []) for n in range(4)]
    filler = [make_module(f"f{n}", files=[f"f{n}.py"]) for n in range(BULK_MODULES)]
    bulk = [*small, *filler]
    built = build_plan({"modules": bulk})
    assert built.findings == [] and built.plan is not None
    assert built.plan.modules == [PlanModule.model_validate(m) for m in bulk]
    # One broken module: reported as on the small path, the others kept.
    broken = [*bulk[:2], make_module("bad", title="", complexity="huge"), *bulk[2:]]
    report = check_inline(broken)
    assert report.module_count == len(bulk)
    assert [(f.type, f.field) for f in report.errors] == [
        ("schema", "title"),
        ("schema", "complexity"),
    ]
    assert check_inline(broken[:6]).errors == report.errors
