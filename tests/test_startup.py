"""Start-up: one strategy, held by one budget (docs/architecture.md, "Start-up").

A warm daemon runs the CLI, the hook and ``forge serve``; a fresh process pays
for what it imports, and the front ends are where that is decided. Below them
every import sits at the top of its module, except the few deferred on
purpose, each saying why on the line (``# deferred: ...``). What each fresh
command may import is :data:`IMPORT_BUDGETS` in ``benchmarks/cold_start.py``,
which prints what it costs (``--imports``).
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FORGE = REPO / "forge"
#: The front ends: the lazy boundary, where a command imports what it runs.
FRONT_ENDS = {"cli", "hook", "tools", "daemon", "ui"}
#: Built-in check plugins: a plugin module is imported to read its declaration
#: (``forge_checks``), and imports what its check runs when the check runs.
CHECK_PLUGINS = FORGE / "checks"
MARKER = "# deferred:"

# The budget is the benchmark's (a script beside its siblings, not a package).
sys.path.insert(0, str(REPO / "benchmarks"))
cold_start = importlib.import_module("cold_start")
IMPORT_BUDGETS = cold_start.IMPORT_BUDGETS


def _deferred_without_reason(path: Path) -> list[str]:
    """Imports inside functions of ``path`` that do not say why they are deferred."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            above = node.lineno - 1  # the import's own line, then the lines above it
            said = MARKER in lines[above]
            while not said and above > 0:
                above -= 1
                text = lines[above].strip()
                if not (text.startswith(("#", "import ", "from ")) or text == ""):
                    break
                said = MARKER in text
            if not said:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_imports_below_the_front_ends_sit_at_the_top_unless_deferred_on_purpose() -> None:
    missing = [
        line
        for path in sorted(FORGE.rglob("*.py"))
        if path.relative_to(FORGE).parts[0] not in FRONT_ENDS and path.parent != CHECK_PLUGINS
        for line in _deferred_without_reason(path)
    ]
    assert missing == [], "import at the top, or say why it waits: # deferred: <reason>"


def test_the_rule_finds_an_import_that_gives_no_reason(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text(
        "def f():\n    import json  # deferred: costs\n\n    return json\n\n\n"
        "def g():\n    # deferred: only g needs them\n    import csv\n    import io\n\n"
        "    return csv, io\n\n\n"
        "def h():\n    x = 1  # deferred: says nothing of the import\n    import csv\n\n"
        "    return csv, x\n",
        encoding="utf-8",
    )
    assert _deferred_without_reason(module) == ["probe.py:17: import csv"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("startup").resolve()
    cold_start.prepare(root)
    return root


@pytest.mark.parametrize("name", list(IMPORT_BUDGETS))
def test_a_fresh_command_imports_within_its_budget(name: str, project: Path) -> None:
    budget = IMPORT_BUDGETS[name]
    env = {key: value for key, value in os.environ.items() if not key.startswith("FORGE_")}
    env |= {"FORGE_HOME": str(project / "home"), "FORGE_DAEMON": "0"}
    cold_start.imports_of(budget, project, env)  # fills the entry-point cache, as a run before
    assert cold_start.over_budget(budget, cold_start.imports_of(budget, project, env)) == []
