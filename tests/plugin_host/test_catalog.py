"""Checks declare themselves: the catalog, id conflicts, wrappers refused, one locations channel."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from mcp_client import call, connect

from forge import hookimpl
from forge.config import ForgeConfig
from forge.models import CheckDescriptor, CheckResult, PlanRuleDescriptor, ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.validate.run import Engine

if TYPE_CHECKING:
    from forge_testing import RunForge


def _plugin(name: str, **hooks: object) -> ModuleType:
    module = ModuleType(name)
    for hook_name, function in hooks.items():
        setattr(module, hook_name, function)
    return module


def _declaring(check_id: str, order: int = 5) -> ModuleType:
    @hookimpl
    def forge_checks() -> list[CheckDescriptor]:
        return [CheckDescriptor(id=check_id, summary=f"{check_id} holds.", order=order)]

    @hookimpl
    def forge_run_checks(request: ValidateRequest) -> list[CheckResult]:
        return [CheckResult(type=check_id, target=request.module_id, passed=True)]

    return _plugin(
        f"plugin_{check_id}", forge_checks=forge_checks, forge_run_checks=forge_run_checks
    )


def test_builtin_checks_and_rules_are_declared_by_their_plugins() -> None:
    host = build_plugin_host(["stubs", "types"])
    owners = host.checks.owners
    assert {owners[i] for i in ("cwd_check", "file_check", "syntax_check")} == {
        "cwd_check",
        "file_check",
        "syntax_check",
    }
    assert owners["contract_check"] == "contract_check" and owners["command"] == "command"
    assert owners["plugin_error"] == owners["acceptance"] == "forge"
    assert owners["lane_check"] == "lane_check"
    assert host.checks.problems == []
    declared = sorted(host.checks.descriptors.values(), key=lambda d: d.order)
    assert [d.id for d in declared] == [
        "cwd_check",
        "plugin_error",
        "file_check",
        "syntax_check",
        "contract_check",
        "load_check",
        "lane_check",
        "switched_off",
        "spec_tests",
        "special_case",
        "command",
        "spec_collection",
        "acceptance",
    ]
    halting = [d.id for d in declared if d.halts_on_failure]
    assert halting == ["cwd_check"]
    rules = host.plan_rules.owners
    assert rules["invalid_command"] == "missing_command" and rules["cycle"] == "cycle"
    assert host.plan_rules.problems == []


def test_a_taken_check_id_is_a_plugin_error_naming_both_plugins(tmp_path: Path) -> None:
    host = build_plugin_host(
        ["stubs", "types"],
        extra_plugins=[
            ("first", _declaring("shared_check")),
            ("second", _declaring("shared_check")),
        ],
    )
    (problem,) = host.checks.problems
    assert problem.plugin == "second"
    assert "'shared_check' is already declared by first" in problem.message
    engine = Engine(tmp_path, ForgeConfig(), host)
    report = engine.validate(ValidateRequest(module_id="m1"))
    errors = [r for r in report.results if r.type == "plugin_error"]
    assert [(r.target, "first" in r.message) for r in errors] == [("second", True)]
    assert not report.passed


def test_declared_order_sorts_results_and_a_builtin_id_cannot_be_taken(tmp_path: Path) -> None:
    host = build_plugin_host(
        ["stubs", "types"],
        extra_plugins=[
            ("early", _declaring("early_check", order=1)),
            ("thief", _declaring("command")),
        ],
    )
    assert [p.plugin for p in host.checks.problems] == ["thief"]
    engine = Engine(tmp_path, ForgeConfig(), host)
    report = engine.validate(ValidateRequest(module_id="m1", files=["a.py"]))
    types = [r.type for r in report.results]
    # early_check (order 1) before plugin_error (10) and file_check (20).
    assert types.index("early_check") < types.index("plugin_error") < types.index("file_check")


def test_a_hook_wrapper_is_refused_at_registration() -> None:
    @hookimpl(wrapper=True)
    def forge_run_checks(request: ValidateRequest) -> object:
        return (yield)

    host = build_plugin_host(
        ["stubs", "types"],
        extra_plugins=[("wrapping", _plugin("w", forge_run_checks=forge_run_checks))],
    )
    (info,) = [info for info in host.plugins if info.name == "wrapping"]
    assert info.status == "failed"
    assert info.error is not None and "forge_run_checks is a hook wrapper" in info.error
    assert not host.pm.has_plugin("wrapping")


def test_plan_rule_descriptors_validate_ids() -> None:
    with pytest.raises(ValueError):
        PlanRuleDescriptor(id="Bad Id", summary="x")


@pytest.mark.anyio
async def test_locations_reach_an_mcp_client_for_syntax_and_contracts(project: Path) -> None:
    (project / "bad.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    (project / "api.py").write_text("def a():\n    return 1\n", encoding="utf-8")
    (project / "app.py").write_text("from api import b\n", encoding="utf-8")
    async with connect(project) as client:
        report = await call(
            client,
            "validate",
            {
                "moduleId": "m1",
                "files": ["bad.py"],
                "contractChecks": [{"exporter": "api.py", "importer": "app.py"}],
            },
        )
    by_type = {r["type"]: r for r in report["results"]}
    syntax = by_type["syntax_check"]["locations"]
    assert syntax[0]["line"] == 1 and "path" not in syntax[0] and "sourceLine" in syntax[0]
    (miss,) = by_type["contract_check"]["locations"]
    assert (miss["path"], miss["line"], miss["column"]) == ("app.py", 1, 17)
    assert "'b' is not exported by api.py" in miss["message"]
    assert by_type["file_check"]["locations"] == []


def test_forge_plugins_shows_what_each_plugin_declares(run_forge: RunForge) -> None:
    completed = run_forge("plugins", "--json")
    plugins = {info["name"]: info for info in json.loads(completed.stdout)}
    assert plugins["cwd_check"]["declares"] == ["cwd_check"]
    assert plugins["missing_command"]["declares"] == ["invalid_command", "missing_command"]
