"""Every example plan gets exactly the verdict it was written to show."""

from __future__ import annotations

from pathlib import Path

import pytest

from forge.plan.check import check_plan
from forge.plugin_host.host import PluginHost

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "plans"

#: Programs the examples' verify commands run, as stubs on PATH (never executed).
TOOLS = ("npm", "npx", "python3")

Finding = tuple[str, list[str]]

#: file -> (errors, warnings), each as (type, modules), in report order.
VERDICTS: dict[str, tuple[list[Finding], list[Finding]]] = {
    "valid/js-api-rate-limiting.json": ([], []),
    "valid/python-cli-export.json": ([], []),
    "valid/fullstack-ts-python-search.json": ([], []),
    "valid/quickstart.json": ([], []),
    "warnings/file-overlap.json": ([], [("file_overlap", ["audit-model", "admin-users-audit"])]),
    "broken/schema-invalid-json.json": ([("schema", [])], []),
    "broken/schema-top-level-array.json": ([("schema", [])], []),
    "broken/schema-modules-object.json": ([("schema", [])], []),
    "broken/schema-module-fields.json": (
        [
            ("schema", ["theme-tokens"]),
            ("schema", ["theme-toggle"]),
            ("schema", ["theme-toggle"]),
            ("schema", ["theme-toggle"]),
        ],
        [],
    ),
    "broken/invalid-id.json": ([("invalid_id", ["auth/reset-token"])], []),
    "broken/duplicate-id.json": ([("duplicate_id", ["reset"])], []),
    "broken/unknown-dependency.json": ([("unknown_dependency", ["reset-email"])], []),
    "broken/self-dependency.json": ([("self_dependency", ["reset-token"])], []),
    "broken/cycle.json": ([("cycle", ["invoices", "payments", "ledger"])], []),
    "broken/missing-command.json": (
        [
            ("missing_command", ["csv-parser"]),
            ("missing_command", ["csv-parser"]),
            ("missing_command", ["import-endpoint"]),
        ],
        [],
    ),
    "broken/invalid-command.json": ([("invalid_command", ["csv-parser"])], []),
}


@pytest.fixture
def tools_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in TOOLS:
        (folder / tool).write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        (folder / tool).chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))


def test_every_example_has_a_verdict() -> None:
    found = {path.relative_to(EXAMPLES).as_posix() for path in EXAMPLES.rglob("*.json")}
    assert found == set(VERDICTS)
    assert sum(name.startswith("valid/") for name in found) >= 3


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_example_verdict(
    name: str, tmp_path: Path, plan_plugins: PluginHost, tools_on_path: None
) -> None:
    report = check_plan(
        plan_path=str(EXAMPLES / name), plan=None, project_root=tmp_path, plugins=plan_plugins
    )
    errors, warnings = VERDICTS[name]
    assert [(f.type, f.modules) for f in report.errors] == errors
    assert [(f.type, f.modules) for f in report.warnings] == warnings
    assert report.valid == (not errors)
    if name.startswith("valid/"):
        assert report.critical_path_length >= 2
        assert sum(len(layer) for layer in report.layers) == report.module_count
