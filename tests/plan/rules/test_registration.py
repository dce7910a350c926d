"""Every built-in plan rule module is an entry point of group ``forge``, and vice versa."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import forge.plan.rules
from forge.plugin_host.host import PluginHost

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[3]


def test_rule_modules_and_entry_points_match() -> None:
    modules = {
        f"forge.plan.rules.{path.stem}"
        for path in Path(forge.plan.rules.__file__).parent.glob("*.py")
        if path.stem != "__init__"
    }
    with (REPO / "pyproject.toml").open("rb") as handle:
        declared = tomllib.load(handle)["project"]["entry-points"]["forge"]
    rules = {
        name: value for name, value in declared.items() if value.startswith("forge.plan.rules.")
    }
    assert set(rules.values()) == modules, "add the rule to [project.entry-points.forge]"
    for name, value in rules.items():
        assert value == f"forge.plan.rules.{name}", "name a rule's entry point after its module"
        assert hasattr(importlib.import_module(value), "forge_check_plan")


def test_installed_rules_are_loaded(plan_plugins: PluginHost) -> None:
    loaded = {info.name for info in plan_plugins.plugins if "forge_check_plan" in info.hooks}
    assert loaded >= {
        "cycle",
        "duplicate_id",
        "file_overlap",
        "invalid_id",
        "missing_command",
        "self_dependency",
        "unknown_dependency",
    }
