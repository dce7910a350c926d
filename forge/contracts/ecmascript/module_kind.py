"""CommonJS in a file node loads as an ES module, and ES module syntax in one it loads as CommonJS.

Node 20+ decides by the extension (``.mjs``: ES module, ``.cjs``: CommonJS)
and, for ``.js``, by the nearest ``package.json``'s ``"type"`` (``"module"`` or
``"commonjs"``). Without a ``"type"`` recent node detects the syntax itself, so
nothing is reported. An ES module that reads ``require``, ``module``,
``exports``, ``__filename`` or ``__dirname`` it does not declare fails with a
``ReferenceError``; ``import``/``export`` in a CommonJS file is a
``SyntaxError``.

Precision first: a file that tests ``typeof module`` (a UMD wrapper) and a
package whose code a bundler or transpiler loads (it declares babel, webpack,
esbuild, rollup, vite, parcel, ts-jest or jest: they accept both syntaxes)
get nothing reported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forge.contracts.extractor import node_text, position

if TYPE_CHECKING:
    from tree_sitter import Node

#: CommonJS's free variables: undefined in an ES module.
COMMONJS_NAMES = frozenset({"require", "module", "exports", "__filename", "__dirname"})
#: Tools that load a package's code their own way, both syntaxes accepted.
LOADERS = (
    "@babel/core", "babel-jest", "babel-loader", "webpack", "esbuild", "rollup", "vite",
    "parcel", "ts-jest", "jest", "@swc/core", "@swc/jest",
)  # fmt: skip
#: Bytes of a package.json read.
MAX_MANIFEST = 1 << 20


@dataclass(frozen=True)
class Place:
    """One place of a finding, 1-based."""

    line: int
    column: int
    message: str


@dataclass(frozen=True)
class WrongSyntax:
    """The file's module kind and the syntax of the other kind it uses."""

    message: str
    places: list[Place] = field(default_factory=list)


def module_kind(path: Path) -> tuple[str | None, str]:
    """``("module" | "commonjs" | None, why)`` as node decides for ``path`` (None: by its syntax)."""
    name = path.name.lower()
    if name.endswith(".mjs"):
        return "module", "its extension is .mjs"
    if name.endswith(".cjs"):
        return "commonjs", "its extension is .cjs"
    manifest = _nearest_manifest(path.parent)
    if manifest is None:
        return None, ""
    where, data = manifest
    if _loaded_by_a_tool(data):
        return None, ""
    kind = data.get("type")
    if kind in ("module", "commonjs"):
        return kind, f'{where.name} says "type": "{kind}"'
    return None, ""


def _nearest_manifest(folder: Path) -> tuple[Path, dict[str, object]] | None:
    """The nearest package.json up from ``folder`` (node's package scope), read; None if none."""
    for current in (folder, *folder.parents):
        candidate = current / "package.json"
        if candidate.is_file():
            try:
                with candidate.open(encoding="utf-8") as handle:
                    data = json.loads(handle.read(MAX_MANIFEST))
            except (OSError, ValueError):
                return None  # unreadable: node would fail on it; not this check's finding
            return (candidate, data) if isinstance(data, dict) else None
    return None


def _loaded_by_a_tool(data: dict[str, object]) -> bool:
    if "jest" in data or "babel" in data:
        return True
    for key in ("dependencies", "devDependencies"):
        declared = data.get(key)
        if isinstance(declared, dict) and any(tool in declared for tool in LOADERS):
            return True
    return False


def wrong_module_syntax(path: Path, root: Node, source: bytes) -> WrongSyntax | None:
    """What of the other module kind's syntax ``path`` uses, if node loads it as one kind."""
    kind, why = module_kind(path)
    if kind == "module":
        places = _commonjs_reads(root, source)
        if not places:
            return None
        first = places[0]
        name = first.message.split()[0]
        return WrongSyntax(
            f"node loads it as an ES module ({why}) but it uses CommonJS's {name} (line "
            f"{first.line}): ReferenceError: {name} is not defined in ES module scope; use "
            "import/export, or name it .cjs",
            places,
        )
    if kind == "commonjs":
        places = [
            Place(*position(node, source), f"{node.type.split('_')[0]} in a CommonJS file")
            for node in root.named_children
            if node.type in ("import_statement", "export_statement")
        ]
        if not places:
            return None
        return WrongSyntax(
            f"node loads it as CommonJS ({why}) but it has ES module syntax (line "
            f"{places[0].line}): SyntaxError: Cannot use import statement outside a module; use "
            "require/module.exports, or name it .mjs",
            places,
        )
    return None


def _commonjs_reads(root: Node, source: bytes) -> list[Place]:
    """Reads of CommonJS's free variables that the file does not declare itself."""
    if b"typeof" in source and any(f"typeof {name}".encode() in source for name in COMMONJS_NAMES):
        return []  # a UMD wrapper: it looks before it touches
    reads: list[tuple[str, Node]] = []
    declared: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "identifier":
            name = node_text(node, source)
            if name in COMMONJS_NAMES:
                if _declares(node):
                    declared.add(name)
                else:
                    reads.append((name, node))
            continue
        stack.extend(reversed(node.named_children))
    return [
        Place(*position(node, source), f"{name} is CommonJS's, not defined in an ES module")
        for name, node in reads
        if name not in declared
    ]


def _declares(node: Node) -> bool:
    """Whether an identifier declares its name (a variable, parameter, function, import)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in ("variable_declarator", "function_declaration", "class_declaration"):
        return parent.child_by_field_name("name") == node
    return parent.type in (
        "formal_parameters", "import_specifier", "import_clause", "namespace_import",
        "assignment_pattern", "object_pattern", "array_pattern", "rest_pattern",
    )  # fmt: skip
