"""The layout tells the architecture: the map in docs/architecture.md is the tree, and the tree keeps
its rules (a docstring on every package, no module over 400 lines, the MCP adapter the only
``mcp`` import and at most 300 lines, no check id spelled outside the check declaring it)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from forge.plugin_host.host import build_plugin_host

REPO = Path(__file__).resolve().parents[1]
FORGE = REPO / "forge"
#: Files a package may hold besides modules and subpackages.
NOT_MODULES = {"py.typed", "__pycache__"}
MAX_MODULE_LINES = 400
MAX_ADAPTER_LINES = 300
MCP_ADAPTER = FORGE / "tools" / "mcp_server.py"


def _layout_map() -> dict[str, str]:
    """Each top-level entry of the map in docs/architecture.md (``name/`` or ``name.py``) and its
    text."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"```\nforge/\n(.*?)```", text, re.S)
    assert block, "docs/architecture.md has no layout map (a code block starting with forge/)"
    entries: dict[str, str] = {}
    current = None
    for line in block.group(1).splitlines():
        top = re.match(r"^  (\S+(?:/|\.py))(?:\s|$)", line)
        if top:
            current = top.group(1)
            entries[current] = line
        elif current is not None:
            entries[current] += "\n" + line
    return entries


def _entries(folder: Path) -> set[str]:
    return {
        f"{path.name}/" if path.is_dir() else path.name
        for path in folder.iterdir()
        if path.name not in NOT_MODULES
        and (path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists()))
    }


def test_the_layout_map_names_every_top_level_module_and_package() -> None:
    assert set(_layout_map()) == _entries(FORGE), "update the map in docs/architecture.md"


def test_the_layout_map_names_every_module_of_every_package() -> None:
    entries = _layout_map()
    missing = []
    for package in sorted(FORGE.iterdir()):
        if not (package / "__init__.py").exists():
            continue
        text = entries.get(f"{package.name}/", "")
        for path in sorted(package.rglob("*.py")):
            relative = path.relative_to(package)
            if path.name == "__init__.py":
                if len(relative.parts) > 1 and f"{relative.parts[0]}/" not in text:
                    missing.append(f"{package.name}/{relative.parts[0]}/")
                continue
            if len(relative.parts) == 1 and path.name not in text:
                missing.append(f"{package.name}/{path.name}")
    assert missing == [], "name these in docs/architecture.md's layout map"


@pytest.mark.parametrize(
    "package", sorted(p for p in FORGE.rglob("__init__.py") if "__pycache__" not in p.parts)
)
def test_every_package_says_what_it_is(package: Path) -> None:
    docstring = ast.get_docstring(ast.parse(package.read_text(encoding="utf-8")))
    assert docstring, f"{package.relative_to(REPO)}: say what the package is and offers"


def _modules() -> list[Path]:
    roots = [FORGE, *(REPO / "plugins").glob("*/")]
    return sorted(
        path
        for root in roots
        for path in root.rglob("*.py")
        if not {"build", ".venv", "__pycache__"} & set(path.parts)
    )


def test_no_module_is_longer_than_a_screen_or_two() -> None:
    long = {
        str(path.relative_to(REPO)): lines
        for path in _modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, f"split these modules (at most {MAX_MODULE_LINES} lines)"


def _imports_mcp(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and not node.level
            else []
        )
        if any(name == "mcp" or name.startswith(("mcp.", "mcp_types")) for name in names):
            return True
    return False


def test_the_mcp_adapter_is_the_only_mcp_import_and_stays_small() -> None:
    importers = [path.relative_to(REPO) for path in FORGE.rglob("*.py") if _imports_mcp(path)]
    assert importers == [MCP_ADAPTER.relative_to(REPO)]
    lines = len(MCP_ADAPTER.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_ADAPTER_LINES, f"the MCP adapter has {lines} lines"


def test_no_check_id_is_spelled_outside_the_check_declaring_it() -> None:
    """A check id is spelled only in the module declaring it and its parts (``contract_*.py``)."""
    host = build_plugin_host()
    checks = host.checks
    declared_in = {}
    for check_id, owner in checks.owners.items():
        module = next((info.module for info in host.plugins if info.name == owner), None)
        if module is not None and module.startswith("forge."):
            declared_in[check_id] = FORGE.parent / (module.replace(".", "/") + ".py")
    assert declared_in, "the built-in checks declare their ids"
    spelled = []
    for path in FORGE.rglob("*.py"):
        for node, value in _check_id_spellings(path, set(declared_in)):
            if not _same_check(declared_in[value], path):
                spelled.append(f"{path.relative_to(REPO)}:{node.lineno}: {value!r}")
    assert spelled == []


def _same_check(declaring: Path, path: Path) -> bool:
    """Whether ``path`` is the check's module or one of its parts beside it (``contract_*.py``)."""
    family = declaring.stem.removesuffix("_check") + "_"
    return path == declaring or (path.parent == declaring.parent and path.stem.startswith(family))


def _check_id_spellings(path: Path, ids: set[str]) -> list[tuple[ast.expr, str]]:
    """String constants of ``path`` that spell a check id.

    An id with an underscore (``contract_check``) is one wherever it stands; a
    plain word (``command``) only where a result's type is compared or given.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[ast.expr, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "_" in node.value:
            if node.value in ids:
                found.append((node, node.value))
        elif isinstance(node, ast.Compare):
            found.extend(
                (side, side.value)
                for side in [node.left, *node.comparators]
                if isinstance(side, ast.Constant) and side.value in ids and "_" not in side.value
            )
        elif isinstance(node, ast.keyword) and node.arg == "type":
            value = node.value
            if isinstance(value, ast.Constant) and value.value in ids and "_" not in value.value:
                found.append((value, value.value))
    return found
