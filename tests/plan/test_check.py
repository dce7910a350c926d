"""check_plan: which plan, the report, and rules as plugins (isolated from each other)."""

from __future__ import annotations

import json
import os
import types
from collections.abc import Callable
from importlib.metadata import EntryPoint
from pathlib import Path

from forge import hookimpl
from forge.models import PlanFinding
from forge.plan.check import MAX_FINDINGS, check_plan
from forge.plan.model import Plan
from forge.plugin_host.host import PluginHost, build_plugin_host

Make = Callable[..., dict[str, object]]


def _write(path: Path, plan: object, mtime: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(plan), encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_the_newest_plan_is_the_default(
    tmp_path: Path, plan_plugins: PluginHost, make_module: Make
) -> None:
    plans = tmp_path / ".forge" / "plans"
    _write(plans / "new.json", {"modules": [make_module("new")]}, mtime=2_000_000_000)
    _write(plans / "old.json", {"modules": "broken"}, mtime=1_000_000_000)
    (plans / "notes.txt").write_text("not a plan", encoding="utf-8")
    report = check_plan(plan_path=None, plan=None, project_root=tmp_path, plugins=plan_plugins)
    assert report.valid
    assert report.plan_path == ".forge/plans/new.json"
    assert report.layers == [["new"]]


def test_no_plan_at_all_is_a_schema_error(tmp_path: Path, plan_plugins: PluginHost) -> None:
    report = check_plan(plan_path=None, plan=None, project_root=tmp_path, plugins=plan_plugins)
    assert not report.valid
    assert [f.type for f in report.errors] == ["schema"]
    assert report.errors[0].message == f"no plan given and no .forge/plans/*.json in {tmp_path}"
    assert report.plan_path is None


def test_relative_paths_are_taken_from_the_project_root(
    tmp_path: Path, plan_plugins: PluginHost, make_module: Make
) -> None:
    _write(tmp_path / "plans" / "p.json", {"modules": [make_module("a")]})
    relative = check_plan(
        plan_path="plans/p.json", plan=None, project_root=tmp_path, plugins=plan_plugins
    )
    absolute = check_plan(
        plan_path=str(tmp_path / "plans" / "p.json"),
        plan=None,
        project_root=tmp_path / "plans",
        plugins=plan_plugins,
    )
    assert relative.valid and absolute.valid
    assert relative.plan_path == "plans/p.json"
    assert absolute.plan_path == "p.json"


def test_an_inline_plan_may_be_json_text(tmp_path: Path, plan_plugins: PluginHost) -> None:
    report = check_plan(plan_path=None, plan="[1, 2", project_root=tmp_path, plugins=plan_plugins)
    assert report.errors[0].message == "invalid JSON at line 1, column 6: Expecting ',' delimiter"


def test_a_path_and_an_inline_plan_together_are_refused(
    tmp_path: Path, plan_plugins: PluginHost, make_module: Make
) -> None:
    report = check_plan(
        plan_path="p.json",
        plan={"modules": [make_module("a")]},
        project_root=tmp_path,
        plugins=plan_plugins,
    )
    assert [f.message for f in report.errors] == ["give a plan path or an inline plan, not both"]


def test_the_report_on_the_wire(
    tmp_path: Path, plan_plugins: PluginHost, make_module: Make
) -> None:
    plan = {
        "modules": [
            make_module("db"),
            make_module("api", dependsOn=["db"], files=["src/x.py"]),
            make_module("ui", dependsOn=["api"], verify=["nosuch-tool-xyz"]),
            make_module("docs", files=["src/x.py"]),
        ]
    }
    wire = check_plan(
        plan_path=None, plan=plan, project_root=tmp_path, plugins=plan_plugins
    ).to_wire()
    assert wire["valid"] is False
    assert wire["planPath"] is None
    assert wire["layers"] == [["db", "docs"], ["api"], ["ui"]]
    assert wire["criticalPath"] == ["db", "api", "ui"]
    assert wire["criticalPathLength"] == 3
    assert wire["moduleCount"] == 4
    assert [(e["type"], e["severity"], e["modules"], e["field"]) for e in wire["errors"]] == [
        ("missing_command", "error", ["ui"], "verify")
    ]
    assert [(w["type"], w["modules"], w["files"]) for w in wire["warnings"]] == [
        ("file_overlap", ["api", "docs"], ["src/x.py"])
    ]


def test_a_report_lists_the_first_findings_and_counts_the_rest(
    tmp_path: Path, plan_plugins: PluginHost
) -> None:
    plan = {"modules": [{"id": f"m{i}"} for i in range(100)]}  # five missing fields each
    report = check_plan(plan_path=None, plan=plan, project_root=tmp_path, plugins=plan_plugins)
    assert report.valid is False
    assert len(report.errors) == MAX_FINDINGS + 1
    assert [e.type for e in report.errors[-2:]] == ["schema", "truncated"]
    assert report.errors[-1].message == (
        "and 300 more errors not listed: fix the ones above and check again"
    )


def test_a_huge_module_id_is_not_echoed_in_full(
    tmp_path: Path, plan_plugins: PluginHost, make_module: Make
) -> None:
    huge = "x" * 10_000_000
    plan = {"modules": [make_module(huge, dependsOn=[huge]), {"id": huge}]}
    wire = check_plan(plan_path=None, plan=plan, project_root=tmp_path, plugins=plan_plugins)
    assert len(json.dumps(wire.to_wire())) < 100_000
    assert {e["type"] for e in wire.to_wire()["errors"]} >= {"schema", "invalid_id"}


# --- rules are plugins --------------------------------------------------------------


def _rule(name: str, body: Callable[[Plan], object]) -> types.ModuleType:
    module = types.ModuleType(name)

    @hookimpl
    def forge_check_plan(plan: Plan) -> object:
        return body(plan)

    module.forge_check_plan = forge_check_plan  # type: ignore[attr-defined]
    return module


def _boom(plan: Plan) -> object:
    raise RuntimeError(f"rule exploded on {len(plan.modules)} modules")


def test_a_third_party_rule_adds_findings(tmp_path: Path, make_module: Make) -> None:
    def titles(plan: Plan) -> list[PlanFinding]:
        return [
            PlanFinding(
                type="title_case",
                severity="warning",
                message=f"title of {m.id} is lower-case",
                modules=[m.id],
            )
            for m in plan.modules
            if m.title.islower()
        ]

    host = build_plugin_host(extra_plugins=[("title_case", _rule("title_case", titles))])
    report = check_plan(
        plan_path=None,
        plan={"modules": [make_module("a", title="lower"), make_module("b")]},
        project_root=tmp_path,
        plugins=host,
    )
    assert report.valid
    assert [(w.type, w.modules) for w in report.warnings] == [("title_case", ["a"])]


def test_a_rule_that_raises_is_a_plugin_error_and_the_others_still_run(
    tmp_path: Path, make_module: Make
) -> None:
    host = build_plugin_host(extra_plugins=[("exploding", _rule("exploding", _boom))])
    report = check_plan(
        plan_path=None,
        plan={"modules": [make_module("a", dependsOn=["a"])]},
        project_root=tmp_path,
        plugins=host,
    )
    assert [(f.type, f.message) for f in report.errors] == [
        (
            "plugin_error",
            "plan rule plugin exploding raised RuntimeError: rule exploded on 1 modules "
            f"(at {__file__}:{_boom.__code__.co_firstlineno + 1})",
        ),
        ("self_dependency", 'module "a" depends on itself; remove it from its dependsOn'),
    ]


def test_a_rule_returning_junk_is_a_plugin_error(tmp_path: Path, make_module: Make) -> None:
    host = build_plugin_host(
        entry_points_=[],
        extra_plugins=[("junk", _rule("junk", lambda plan: [{"type": "x", "message": "dict"}]))],
    )
    report = check_plan(
        plan_path=None, plan={"modules": [make_module("a")]}, project_root=tmp_path, plugins=host
    )
    assert [f.message for f in report.errors] == [
        "plan rule plugin junk returned something other than a list of PlanFinding "
        "(got a list holding dict: {'type': 'x', 'message': 'dict'})"
    ]


def test_a_plugin_that_fails_to_load_is_a_plugin_error(tmp_path: Path, make_module: Make) -> None:
    broken = EntryPoint(name="broken_rules", value="forge_no_such_module_xyz", group="forge")
    cycle = EntryPoint(name="cycle", value="forge.plan.rules.cycle", group="forge")
    host = build_plugin_host(entry_points_=[broken, cycle])
    report = check_plan(
        plan_path=None,
        plan={"modules": [make_module("a", dependsOn=["b"]), make_module("b", dependsOn=["a"])]},
        project_root=tmp_path,
        plugins=host,
    )
    assert [f.type for f in report.errors] == ["plugin_error", "cycle"]
    assert report.errors[0].message.startswith(
        "plugin broken_rules (?) failed to load, so its plan rules did not run: import failed: "
        "ModuleNotFoundError"
    )


def test_a_disabled_rule_does_not_run(tmp_path: Path, make_module: Make) -> None:
    host = build_plugin_host(disabled=["file_overlap"])
    report = check_plan(
        plan_path=None,
        plan={"modules": [make_module("a", files=["x"]), make_module("b", files=["x"])]},
        project_root=tmp_path,
        plugins=host,
    )
    assert report.warnings == []
