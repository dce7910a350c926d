"""Which names of a plugin module become hook implementations (forge's quick pass over pluggy's)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from forge_testing import fake_distribution

if TYPE_CHECKING:
    from pathlib import Path

    from forge_testing import RunForge

#: Hook implementations in every form pluggy takes from a module, among names that are none.
SHAPES = """
import json
from pathlib import Path

from forge import hookimpl
from forge.models import CheckDescriptor, CheckResult

LIMIT = 3
NAMES = ["forge_checks"]


class _Checks:
    @hookimpl
    def forge_checks(self):
        return [CheckDescriptor(id="bound_ok", summary="Declared by a bound method.")]

    @hookimpl
    def forge_run_checks(self, request):
        return [CheckResult(type="bound_ok", target=request.module_id, passed=True)]


_checks = _Checks()
forge_checks = _checks.forge_checks
forge_run_checks = _checks.forge_run_checks


@hookimpl(specname="forge_checks")
def declared_under_another_name():
    return [CheckDescriptor(id="renamed_ok", summary="Declared under another name.")]


@hookimpl(specname="forge_run_checks")
def run_under_another_name(request):
    return [CheckResult(type="renamed_ok", target=request.module_id, passed=True)]


def forge_plan_rules():
    raise AssertionError("not marked: never a hook")
"""


def test_bound_methods_and_renamed_functions_are_hooks_and_unmarked_ones_are_not(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    site = fake_distribution(tmp_path / "site", "forge-shapes", "1.0", {"shapes": SHAPES})
    (project / "present.txt").write_text("x", encoding="utf-8")
    env = {"PYTHONPATH": str(site)}
    completed = run_forge("validate", "--files", "present.txt", "--json", env=env)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    passed = {result["type"] for result in json.loads(completed.stdout)["results"]}
    assert {"bound_ok", "renamed_ok", "file_check"} <= passed
    listed = run_forge("plugins", env=env)
    shapes = next(line for line in listed.stdout.splitlines() if line.startswith("shapes "))
    assert "loaded" in shapes and "forge_plan_rules" not in shapes, listed.stdout
