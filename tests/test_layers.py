"""The layers of ``forge/`` point down: a module imports only its own layer and those below.

From the bottom (docs/architecture.md, "Layers"):

0. foundation: the public marker (``forge``), errors, paths, validation errors, config,
   models, the store;
1. runtime: cancellation, process supervision, start-up;
2. knowledge: languages, contracts, git, test runs, plans, the plugin host and
   its hook specifications, the workspace a check receives;
3. checks: the built-in check plugins;
4. engine: validate, state, memory, parallel delivery, and the service that
   gives every front end the same entries;
5. reporting: the text, JSON, JUnit and SARIF every front end prints;
6. front ends: cli, hook, tools (the MCP adapter), daemon, ui.

Every import counts, at the top of a module or inside a function, type-only
ones too: a layer that needs a name from above for its annotations has the
wrong shape. Front ends may use each other only as :data:`FRONT_END_USES`
says: the CLI dispatches to the others, the daemon runs the CLI warm, and
the hook's SessionStart starts the daemon.
"""

from __future__ import annotations

import ast
from pathlib import Path

FORGE = Path(__file__).resolve().parents[1] / "forge"

LAYERS: dict[str, int] = {
    "forge": 0,
    "__main__": 6,
    "errors": 0,
    "paths": 0,
    "globs": 0,
    "validation_errors": 0,
    "config": 0,
    "models": 0,
    "store": 0,
    "runtime": 1,
    "languages": 2,
    "contracts": 2,
    "git": 2,
    "test_runs": 2,
    "plan": 2,
    "plugin_host": 2,
    "hookspecs": 2,
    "workspace": 2,
    "checks": 3,
    "validate": 4,
    "state": 4,
    "memory": 4,
    "parallel": 4,
    "service": 4,
    "reporting": 5,
    "cli": 6,
    "hook": 6,
    "tools": 6,
    "daemon": 6,
    "ui": 6,
}
FRONT_END = 6
#: Which front ends a front end may import.
FRONT_END_USES = {
    "__main__": {"cli"},
    "cli": {"daemon", "hook", "tools", "ui"},
    "daemon": {"cli"},
    "hook": {"daemon"},
    "tools": set(),
    "ui": set(),
}


def _module_name(path: Path, root: Path = FORGE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, root: Path = FORGE) -> list[tuple[int, str]]:
    """Every ``forge`` module ``path`` imports, with its line, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "forge":  # from forge import hookimpl / a subpackage
                found.extend(
                    (node.lineno, f"forge.{alias.name}")
                    if alias.name in LAYERS
                    else (node.lineno, "forge")
                    for alias in node.names
                )
            else:
                found.append((node.lineno, target))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return [(line, name) for line, name in found if name.split(".")[0] == "forge"]


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "forge"


def layer_violations(root: Path = FORGE) -> list[str]:
    """``path:line: a -> b`` for each import that climbs, or crosses front ends unallowed."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        mine = _part(_module_name(path, root))
        for line, target in _imports(path, root):
            theirs = _part(target)
            if theirs == mine:
                continue
            where = f"{path.relative_to(root.parent)}:{line}: {mine} -> {target}"
            if mine not in LAYERS or theirs not in LAYERS:
                problems.append(f"{where} (a package with no layer: add it to LAYERS)")
            elif LAYERS[theirs] > LAYERS[mine]:
                problems.append(f"{where} (layer {LAYERS[mine]} imports layer {LAYERS[theirs]})")
            elif LAYERS[mine] == LAYERS[theirs] == FRONT_END and theirs not in FRONT_END_USES[mine]:
                problems.append(f"{where} (front end {mine} may not use front end {theirs})")
    return problems


def test_every_package_has_a_layer() -> None:
    packages = {
        _part(_module_name(path)) for path in FORGE.rglob("*.py") if "static" not in path.parts
    }
    assert packages <= set(LAYERS), sorted(packages - set(LAYERS))


def test_imports_point_down() -> None:
    assert layer_violations() == []


def test_a_climb_and_a_crossing_are_caught(tmp_path: Path) -> None:
    """The rule itself can fail: a check importing the CLI, the hook importing the CLI."""
    root = tmp_path / "forge"
    for name, text in {
        "__init__.py": "",
        "checks/__init__.py": "",
        "checks/x_check.py": "from forge.cli.output import build_request\n",
        "hook/__init__.py": "",
        "hook/edit.py": "def f():\n    from ..cli import output\n",
        "cli/__init__.py": "",
        "cli/output.py": "from forge.models import CheckResult\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    assert layer_violations(root) == [
        "forge/checks/x_check.py:1: checks -> forge.cli.output (layer 3 imports layer 6)",
        "forge/hook/edit.py:2: hook -> forge.cli (front end hook may not use front end cli)",
    ]
