"""Exports and imports of Python modules for contract checks.

A module exports its top-level bindings: ``def``, ``async def``, ``class``,
assignments (annotated ones only with a value; tuple unpacking too),
``for`` and ``with`` targets, imports, ``type`` aliases, and the same inside
top-level ``if`` / ``try`` / ``with`` / ``for`` / ``while`` blocks. ``__all__``
does not restrict ``from m import name``; it only decides what ``from m
import *`` takes (else: the public names). A module-level ``__getattr__``
makes the exports unknowable, unless it answers a literal set of names and
raises ``AttributeError`` otherwise (then those names are exports too). A
package's submodules are importable from it.

Imports are read anywhere in the file with ``python_imports.scm``: ``from
a.b import x, y as z`` (relative at any depth), ``import a.b as m`` then
``m.attr``, ``import a.b`` then ``a.b.attr``. Names imported inside ``try:``
with an ``except ImportError`` (or broader) handler are anticipated to be
absent and never reported missing. ``m.__file__`` and the other attributes
every module has are not names taken from ``m``.

:meth:`PythonExtractor.diagnose` says why an import resolves to no file: a
missing module of the project, or a package the project's environment and
manifests do not provide (see :mod:`forge.extractors.packages`).
"""

# Resolution runs for every import of every file: plain os.path strings
# here, pathlib objects only for what is returned.
# ruff: noqa: PTH112, PTH113, PTH118, PTH120, PTH123

from __future__ import annotations

import os
import sys
import types
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forge.contracts import (
    ExportSet,
    ImportContext,
    ImportedName,
    ImportRef,
    ParsedSource,
    close_names,
    did_you_mean,
    imported,
    load_query,
    matches,
    node_text,
    position,
)
from forge.extractors.packages import (
    normalize_distribution,
    python_declared,
    python_environment,
    scan_folder,
)

if TYPE_CHECKING:
    from tree_sitter import Node

#: Compound statements whose blocks bind at module level when the statement is at module level.
_COMPOUND = {
    "if_statement",
    "elif_clause",
    "else_clause",
    "try_statement",
    "except_clause",
    "except_group_clause",
    "finally_clause",
    "with_statement",
    "for_statement",
    "while_statement",
    "block",
}
_PATTERNS = {"pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "tuple", "list"}
_IMPORT_ERRORS = ("ImportError", "ModuleNotFoundError", "Exception", "BaseException")
_INIT_NAMES = ("__init__.py", "__init__.pyi")


@dataclass
class _Module:
    names: set[str] = field(default_factory=set)
    stars: list[tuple[str, int]] = field(default_factory=list)
    all_names: list[str] | None = None
    all_dynamic: bool = False
    open_reason: str | None = None
    getattr_node: Node | None = None


def _strings(node: Node | None, source: bytes) -> list[str] | None:
    """The strings of a list or tuple literal of plain strings; None for anything else."""
    if node is None or node.type not in {"list", "tuple"}:
        return None
    found: list[str] = []
    for item in node.named_children:
        text = _plain_string(item, source)
        if text is None:
            return None
        found.append(text)
    return found


def _plain_string(node: Node | None, source: bytes) -> str | None:
    """A string literal's value when it has no interpolation; None otherwise."""
    if node is None or node.type != "string":
        return None
    if any(c.type == "interpolation" for c in node.named_children):
        return None
    return "".join(node_text(c, source) for c in node.named_children if c.type == "string_content")


def target_names(node: Node | None, source: bytes) -> list[str]:
    """Names an assignment, ``for`` or ``as`` target binds (attributes and subscripts bind none)."""
    if node is None:
        return []
    if node.type == "identifier":
        return [node_text(node, source)]
    if node.type in _PATTERNS or node.type == "as_pattern_target":
        return [name for child in node.named_children for name in target_names(child, source)]
    return []


class PythonExtractor:
    """The contract extractor of Python (``.py``, ``.pyi``)."""

    family = "python"

    # -- exports ------------------------------------------------------------

    def exports(self, parsed: ParsedSource) -> ExportSet:
        """Top-level bindings, star re-exports, ``__all__`` and a package's submodules."""
        module = _Module()
        root = parsed.tree.root_node
        self._bind(root, parsed.source, module)
        if module.getattr_node is not None:
            handled = _getattr_names(module.getattr_node, root, parsed.source)
            if handled is None:
                line = module.getattr_node.start_point[0] + 1
                module.open_reason = (
                    f"line {line}: a module-level __getattr__ makes the exports unknowable"
                )
            else:
                module.names |= handled
        star_names: frozenset[str] | None = None
        if module.all_names is not None and not module.all_dynamic:
            star_names = frozenset(module.all_names)
        return ExportSet(
            names=frozenset(module.names),
            star_sources=tuple(module.stars),
            star_names=star_names,
            implicit=frozenset(_submodules(parsed.path) - module.names),
            open_reason=module.open_reason,
        )

    def _bind(self, block: Node, source: bytes, module: _Module) -> None:
        for stmt in block.named_children:
            kind = stmt.type
            if kind == "decorated_definition":
                stmt = stmt.child_by_field_name("definition") or stmt
                kind = stmt.type
            if kind in {"function_definition", "class_definition"}:
                name = node_text(stmt.child_by_field_name("name") or stmt, source)
                module.names.add(name)
                if name == "__getattr__" and kind == "function_definition":
                    module.getattr_node = stmt
            elif kind == "expression_statement":
                for expression in stmt.named_children:
                    self._expression(expression, source, module)
            elif kind == "import_statement":
                for item in stmt.children_by_field_name("name"):
                    if item.type == "aliased_import":
                        alias = item.child_by_field_name("alias")
                        module.names.add(node_text(alias or item, source))
                    else:
                        module.names.add(node_text(item, source).split(".")[0].strip())
            elif kind == "import_from_statement":
                self._import_from(stmt, source, module)
            elif kind == "type_alias_statement":
                left = stmt.child_by_field_name("left")  # type Alias = ...
                for child in left.named_children[:1] if left is not None else []:
                    module.names.update(target_names(child, source))
            elif kind in _COMPOUND:
                self._compound(stmt, source, module)

    def _compound(self, stmt: Node, source: bytes, module: _Module) -> None:
        if stmt.type == "for_statement":
            module.names.update(target_names(stmt.child_by_field_name("left"), source))
        elif stmt.type == "with_statement":
            for clause in stmt.named_children:
                if clause.type != "with_clause":
                    continue
                for item in clause.named_children:
                    value = item.child_by_field_name("value")
                    if value is not None and value.type == "as_pattern":
                        module.names.update(
                            target_names(value.child_by_field_name("alias"), source)
                        )
        for child in stmt.named_children:
            if child.type == "block":
                self._bind(child, source, module)
            elif child.type in _COMPOUND:
                self._compound(child, source, module)

    def _expression(self, node: Node, source: bytes, module: _Module) -> None:
        if node.type == "assignment":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if right is None:  # a bare annotation (`x: int`) binds nothing
                return
            names = target_names(left, source)
            module.names.update(names)
            if names == ["__all__"]:
                module.all_names = _strings(right, source)
                module.all_dynamic = module.all_names is None
            if right.type == "assignment":  # a = b = value
                self._expression(right, source, module)
        elif node.type == "augmented_assignment":
            names = target_names(node.child_by_field_name("left"), source)
            module.names.update(names)
            if names == ["__all__"]:
                self._extend_all(_strings(node.child_by_field_name("right"), source), module)
        elif node.type == "call":
            function = node.child_by_field_name("function")
            method = node_text(function, source) if function is not None else ""
            if method in {"__all__.extend", "__all__.append"}:
                arguments = node.child_by_field_name("arguments")
                first = (
                    arguments.named_children[0] if arguments and arguments.named_children else None
                )
                if method.endswith("append"):
                    single = _plain_string(first, source)
                    self._extend_all(None if single is None else [single], module)
                else:
                    self._extend_all(_strings(first, source), module)

    @staticmethod
    def _extend_all(strings: list[str] | None, module: _Module) -> None:
        if strings is None:
            module.all_dynamic = True
        else:
            module.all_names = [*(module.all_names or []), *strings]

    def _import_from(self, stmt: Node, source: bytes, module: _Module) -> None:
        if any(child.type == "wildcard_import" for child in stmt.named_children):
            specifier = _specifier(stmt.child_by_field_name("module_name"), source)
            module.stars.append((specifier, stmt.start_point[0] + 1))
            return
        for name in stmt.children_by_field_name("name"):
            if name.type == "aliased_import":
                name = name.child_by_field_name("alias") or name
            module.names.add(node_text(name, source))

    # -- imports ------------------------------------------------------------

    def imports(self, parsed: ParsedSource) -> list[ImportRef]:
        """Every import statement of the file, with the attribute uses of imported modules."""
        source = parsed.source
        query = load_query(parsed.tree.language, "python_imports.scm")
        statements: list[Node] = []
        chains = _Chains(source)
        for _, found in matches(query, parsed.tree.root_node):
            if "attribute" in found:
                start = found["attribute.root"][0]
                chains.add(node_text(start, source), start, _chain(found["attribute"][0]))
            else:
                statements.extend([*found.get("import", []), *found.get("import_from", [])])
        refs: list[ImportRef] = []
        plain: dict[str, set[tuple[str, ...]]] = defaultdict(set)
        plain_at: dict[tuple[str, ...], Node] = {}
        for stmt in statements:
            guarded = _guarded(stmt, source)
            if stmt.type == "import_from_statement":
                refs.extend(self._from_refs(stmt, source, chains, guarded))
                continue
            for name in stmt.children_by_field_name("name"):
                if name.type == "aliased_import":
                    module = node_text(name.child_by_field_name("name") or name, source)
                    alias = node_text(name.child_by_field_name("alias") or name, source)
                    attributes = _attributes(chains.get(alias, ()), source)
                    refs.append(_ref(name, module, source, attributes, guarded))
                else:
                    parts = tuple(part.strip() for part in node_text(name, source).split("."))
                    for end in range(1, len(parts) + 1):
                        plain[parts[0]].add(parts[:end])
                        plain_at.setdefault(parts[:end], name)
        for root, modules in plain.items():
            members: dict[tuple[str, ...], list[ImportedName]] = defaultdict(list)
            for chain in chains.get(root, ()):
                names = (root, *(node_text(link, source) for link in chain))
                prefix = max(
                    (m for m in modules if len(m) < len(names) and names[: len(m)] == m),
                    key=len,
                    default=None,
                )
                if prefix is not None:
                    members[prefix].extend(_attributes([chain[len(prefix) - 1 :]], source))
            for path in sorted(modules):
                where = plain_at[path]
                refs.append(
                    _ref(where, ".".join(path), source, members[path], _guarded(where, source))
                )
        refs.sort(key=lambda ref: (ref.line, ref.column))
        return refs

    def _from_refs(
        self, stmt: Node, source: bytes, chains: _Chains, guarded: bool
    ) -> list[ImportRef]:
        specifier = _specifier(stmt.child_by_field_name("module_name"), source)
        names: list[ImportedName] = []
        refs: list[ImportRef] = []
        for node in stmt.children_by_field_name("name"):
            target = node.child_by_field_name("name") if node.type == "aliased_import" else node
            alias = node.child_by_field_name("alias") if node.type == "aliased_import" else None
            name = node_text(target or node, source)
            local = node_text(alias, source) if alias is not None else name
            names.append(imported(node, source, name, local))
            # `from pkg import sub` may import the submodule pkg/sub.py: then
            # `sub.attr` uses are names taken from it.
            submodule = specifier + name if specifier.endswith(".") else f"{specifier}.{name}"
            members = _attributes(chains.get(local, ()), source)
            refs.append(_ref(node, submodule, source, members, guarded, tentative=True))
        module = stmt.child_by_field_name("module_name") or stmt
        return [_ref(module, specifier, source, names, guarded), *refs]

    # -- resolution ---------------------------------------------------------

    def resolve(self, specifier: str, importer: Path, root: Path) -> Path | None:
        """The module file of ``specifier`` (``a.b``, ``..x``) written in ``importer``."""
        level = len(specifier) - len(specifier.lstrip("."))
        dotted = specifier[level:]
        parts = dotted.split(".") if dotted else []
        if level:
            base = importer.parent
            for _ in range(level - 1):
                base = base.parent
            return _module_file(str(base), parts)
        if not parts:
            return None
        for start in _search_roots(importer, root):
            found = _module_file(start, parts)
            if found is not None:
                return found
        return None

    def star_visible(self, name: str) -> bool:
        """``from m import *`` without ``__all__`` takes the names not starting with ``_``."""
        return not name.startswith("_")

    # -- findings -----------------------------------------------------------

    def diagnose(self, specifier: str, importer: Path, context: ImportContext) -> str | None:
        """Why ``specifier`` (which resolved to no file) cannot be imported; None if it can or forge cannot know.

        A relative import, or an absolute one into a package of the project,
        must name a module that exists; any other absolute import must name
        the standard library or a package the project's environment provides
        or its manifests declare. Without an environment forge cannot map
        import names to distributions, so it says nothing about packages.
        """
        level = len(specifier) - len(specifier.lstrip("."))
        parts = [part for part in specifier[level:].split(".") if part]
        if not parts:
            return None  # `from . import x`: the package itself, maybe a namespace package
        if level:
            base = str(importer.parent)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            if _module_exists(base, parts) or _rewires_imports(base, parts):
                return None
            candidates = _near_modules(base, parts, "." * level)
            for other in range(1, level + 3):  # one level too deep or too shallow
                up = str(importer.parent)
                for _ in range(other - 1):
                    up = os.path.dirname(up)
                if other != level and _module_exists(up, parts) and _is_package(up):
                    candidates.append("." * other + ".".join(parts))
            return f"'{specifier}' resolves to no module{did_you_mean(candidates)}"
        top = parts[0]
        for start in _search_roots(importer, context.root):
            if not (_is_package(os.path.join(start, top)) or _is_module(start, top)):
                if os.path.isdir(os.path.join(start, top)):
                    return None  # a namespace package may have other portions: cannot know
                continue
            if _module_exists(start, parts) or _rewires_imports(start, parts):
                return None
            candidates = _near_modules(start, parts, "")
            return f"'{specifier}' resolves to no module{did_you_mean(candidates)}"
        for folder in _ancestors(importer.parent, context.root):
            if _is_module(folder, top) or os.path.isdir(os.path.join(folder, top)):
                return None  # on the path of a runner that adds it (pytest's rootdir, conftest)
        environment = context.remember(
            "python-environment",
            lambda: python_environment(context.root, context.options.get("python-environment")),
        )
        stdlib = environment.stdlib if environment is not None else sys.stdlib_module_names
        if top in stdlib or environment is None:
            return None
        declared = context.remember("python-declared", lambda: python_declared(context.root))
        if top in environment.modules or normalize_distribution(top) in declared:
            return None
        candidates = close_names(top, environment.modules | declared)
        return f"package '{top}' is not installed or declared{did_you_mean(candidates)}"


def _getattr_names(function: Node, root: Node, source: bytes) -> set[str] | None:
    """The names a module-level ``__getattr__`` answers, when it says them literally.

    It must compare its parameter with string literals (``name == "X"``,
    ``name in {"X", "Y"}`` or a module-level literal of them), return only
    inside such tests, and end by raising ``AttributeError``. Anything else:
    None (the names cannot be known).
    """
    parameters = function.child_by_field_name("parameters")
    first = parameters.named_children[0] if parameters and parameters.named_children else None
    if first is not None and first.type != "identifier":
        first = next((c for c in first.named_children if c.type == "identifier"), None)
    body = function.child_by_field_name("body")
    if first is None or body is None:
        return None
    parameter = node_text(first, source)
    statements = [s for s in body.named_children if s.type != "comment"]
    if not statements or not _raises_attribute_error(statements[-1], source):
        return None
    names: set[str] = set()
    for stmt in statements[:-1]:
        if stmt.type != "if_statement":
            if _returns(stmt):
                return None
            continue
        tests = [stmt.child_by_field_name("condition")]
        for clause in stmt.children_by_field_name("alternative"):
            if clause.type == "else_clause":
                return None
            tests.append(clause.child_by_field_name("condition"))
        for test in tests:
            found = _literal_test(test, parameter, root, source)
            if found is None:
                return None
            names |= found
    return names


def _raises_attribute_error(stmt: Node, source: bytes) -> bool:
    if stmt.type != "raise_statement" or not stmt.named_children:
        return False
    return node_text(stmt.named_children[0], source).startswith("AttributeError")


def _returns(node: Node) -> bool:
    """Whether ``node`` holds a ``return`` of its own (nested functions' returns are theirs)."""
    if node.type == "return_statement":
        return True
    return any(
        _returns(child)
        for child in node.named_children
        if child.type not in {"function_definition", "lambda", "class_definition"}
    )


def _literal_test(test: Node | None, parameter: str, root: Node, source: bytes) -> set[str] | None:
    """The strings ``test`` compares ``parameter`` with; None for any other test."""
    if test is None:
        return None
    if test.type == "parenthesized_expression" and test.named_children:
        return _literal_test(test.named_children[0], parameter, root, source)
    if (
        test.type == "boolean_operator"
        and node_text(test.child_by_field_name("operator") or test, source) == "or"
    ):
        first = _literal_test(test.child_by_field_name("left"), parameter, root, source)
        second = _literal_test(test.child_by_field_name("right"), parameter, root, source)
        return None if first is None or second is None else first | second
    if test.type != "comparison_operator" or len(test.named_children) != 2:
        return None
    operators = [c.type for c in test.children if not c.is_named]
    left, right = test.named_children
    if node_text(left, source) != parameter:
        left, right = right, left
        if operators != ["=="]:
            return None
    if node_text(left, source) != parameter:
        return None
    if operators == ["=="]:
        value = _plain_string(right, source)
        return None if value is None else {value}
    if operators == ["in"]:
        return _string_collection(right, root, source)
    return None


def _string_collection(node: Node, root: Node, source: bytes) -> set[str] | None:
    """Strings of a set, list, tuple or dict-keys literal, or of a module-level one named so."""
    if node.type == "identifier":
        name = node_text(node, source)
        value: Node | None = None
        for stmt in root.named_children:
            assignment = (
                stmt.named_children[0]
                if stmt.type == "expression_statement" and stmt.named_children
                else None
            )
            if assignment is None or assignment.type != "assignment":
                continue
            target = assignment.child_by_field_name("left")
            if target is not None and node_text(target, source) == name:
                value = assignment.child_by_field_name("right")
        return (
            None
            if value is None or value.type == "identifier"
            else _string_collection(value, root, source)
        )
    if node.type == "dictionary":
        items = [c.child_by_field_name("key") for c in node.named_children if c.type == "pair"]
        if len(items) != len([c for c in node.named_children if c.type != "comment"]):
            return None
    elif node.type in {"set", "list", "tuple"}:
        items = [c for c in node.named_children if c.type != "comment"]
    else:
        return None
    strings = {_plain_string(item, source) for item in items}
    return None if None in strings else {s for s in strings if s is not None}


def _specifier(node: Node | None, source: bytes) -> str:
    return "".join(node_text(node, source).split()) if node is not None else ""


#: Attributes every module object has (``m.__file__``, ``m.__name__``): never exports to check.
MODULE_ATTRIBUTES = frozenset(dir(types.ModuleType("_"))) | {
    "__file__",
    "__dict__",
    "__cached__",
    "__builtins__",
    "__path__",
}


def _attributes(chains: Iterable[list[Node]], source: bytes) -> list[ImportedName]:
    """The first link of each attribute chain, as a name taken from the module."""
    found = []
    for chain in chains:
        name = node_text(chain[0], source)
        if name not in MODULE_ATTRIBUTES:
            found.append(imported(chain[0], source, name))
    return found


class _Chains:
    """Attribute chains by the name they start at, without those a function's local owns.

    ``import config`` then ``def load(config): config.debug``: that
    ``config`` is the parameter, not the module. Read lazily, per name asked.
    """

    def __init__(self, source: bytes) -> None:
        self._source = source
        self._found: dict[str, list[tuple[Node, list[Node]]]] = defaultdict(list)
        self._visible: dict[str, list[list[Node]]] = {}
        self._locals: dict[int, set[str]] = {}

    def add(self, name: str, start: Node, chain: list[Node]) -> None:
        self._found[name].append((start, chain))

    def get(self, name: str, default: Iterable[list[Node]] = ()) -> list[list[Node]]:
        if name not in self._found:
            return list(default)
        if name not in self._visible:
            self._visible[name] = [
                chain for start, chain in self._found[name] if not self._shadowed(start, name)
            ]
        return self._visible[name]

    def _shadowed(self, node: Node, name: str) -> bool:
        parent = node.parent
        while parent is not None:
            if parent.type in {"function_definition", "lambda"}:
                if parent.id not in self._locals:
                    self._locals[parent.id] = _function_locals(parent, self._source)
                if name in self._locals[parent.id]:
                    return True
            parent = parent.parent
        return False


def _function_locals(function: Node, source: bytes) -> set[str]:
    """Names a function binds itself: parameters and assignments (not imports), less ``global``."""
    names: set[str] = set()
    parameters = function.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else ():
        named = parameter.child_by_field_name("name")
        if parameter.type == "identifier":
            names.add(node_text(parameter, source))
        elif named is not None:
            names.add(node_text(named, source))
        else:
            names.update(
                node_text(c, source) for c in parameter.named_children if c.type == "identifier"
            )
    body = function.child_by_field_name("body")
    declared: set[str] = set()
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in {"function_definition", "class_definition", "lambda"}:
            names.update(target_names(node.child_by_field_name("name"), source))
            continue
        if kind in {"assignment", "augmented_assignment", "for_statement", "for_in_clause"}:
            names.update(target_names(node.child_by_field_name("left"), source))
        elif kind == "named_expression":
            names.update(target_names(node.child_by_field_name("name"), source))
        elif kind == "as_pattern":
            names.update(target_names(node.child_by_field_name("alias"), source))
        elif kind in {"global_statement", "nonlocal_statement"}:
            declared.update(node_text(c, source) for c in node.named_children)
        stack.extend(node.named_children)
    return names - declared


def _chain(innermost: Node) -> list[Node]:
    """The attribute names of a chain ``a.b.c`` from its innermost link: [b, c]."""
    links: list[Node] = []
    node: Node | None = innermost
    while node is not None and node.type == "attribute":
        attribute = node.child_by_field_name("attribute")
        if attribute is None:
            break
        links.append(attribute)
        parent = node.parent
        if (
            parent is None
            or parent.type != "attribute"
            or parent.child_by_field_name("object") != node
        ):
            break
        node = parent
    return links


def _guarded(node: Node, source: bytes) -> bool:
    """Whether ``node`` sits in a ``try:`` body whose handlers catch ImportError."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "try_statement" and parent.child_by_field_name("body") == child:
            for handler in parent.named_children:
                if handler.type not in {"except_clause", "except_group_clause"}:
                    continue
                caught = [c for c in handler.named_children if c.type != "block"]
                if not caught or any(
                    error in node_text(c, source) for c in caught for error in _IMPORT_ERRORS
                ):
                    return True
        child, parent = parent, parent.parent
    return False


def _ref(
    node: Node,
    specifier: str,
    source: bytes,
    names: list[ImportedName],
    guarded: bool,
    *,
    tentative: bool = False,
) -> ImportRef:
    line, column = position(node, source)
    return ImportRef(specifier, line, column, tuple(names), guarded=guarded, tentative=tentative)


# Resolution runs once per import specifier, hundreds of times per large file:
# plain os.path strings here, pathlib objects only for what is returned.


def _module_file(base: str, parts: list[str]) -> Path | None:
    if not parts:
        found = [os.path.join(base, name) for name in _INIT_NAMES]
    else:
        # One stat rules out most absolute imports (installed packages)
        # before the four candidate files are tried.
        folder = os.path.join(base, *parts[:-1])
        if not os.path.isdir(folder):
            return None
        stem = os.path.join(folder, parts[-1])
        found = [stem + ".py", stem + "/__init__.py", stem + ".pyi", stem + "/__init__.pyi"]
    for candidate in found:
        if os.path.isfile(candidate):
            return Path(candidate)
    return None


def _search_roots(importer: Path, root: Path) -> list[str]:
    """Where absolute imports start: above the importer's top package, the working dir, ``src/``."""
    top, parent = os.path.split(importer)[0], ""
    while top != parent and os.path.isfile(top + "/__init__.py"):
        top, parent = os.path.split(top)[0], top
    return list(dict.fromkeys([top, str(root), os.path.join(root, "src")]))


def _is_module(folder: str, name: str) -> bool:
    """Whether ``folder`` holds the module ``name`` (source, stub or compiled extension)."""
    stem = os.path.join(folder, name)
    if os.path.lexists(stem + ".py") or os.path.lexists(stem + ".pyi"):  # a FIFO is there too
        return True
    return any(
        entry.name.startswith(name + ".") and entry.name.endswith((".so", ".pyd"))
        for entry in scan_folder(folder)
    )


def _is_package(folder: str) -> bool:
    return any(os.path.isfile(os.path.join(folder, name)) for name in _INIT_NAMES)


def _module_exists(base: str, parts: list[str]) -> bool:
    """Whether ``parts`` names a module, a package or a namespace folder under ``base``."""
    folder = os.path.join(base, *parts)
    return os.path.isdir(folder) or _is_module(os.path.dirname(folder), parts[-1])


def _rewires_imports(base: str, parts: list[str]) -> bool:
    """Whether a module on the way to ``parts`` edits ``__path__`` or ``sys.modules``.

    Such a module (requests' ``packages.py`` aliases ``requests.packages.urllib3``)
    makes submodules importable that no file holds: forge cannot know them.
    """
    for end in range(1, len(parts)):
        folder = os.path.join(base, *parts[:end])
        source = os.path.join(folder, "__init__.py") if os.path.isdir(folder) else folder + ".py"
        try:
            with open(source, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        if "__path__" in text or "sys.modules" in text:
            return True
    return False


def _near_modules(base: str, parts: list[str], prefix: str) -> list[str]:
    """Specifiers like ``prefix + parts`` that exist, one segment respelled."""
    for index in range(len(parts)):
        folder = os.path.join(base, *parts[:index])
        if _module_exists(base, parts[: index + 1]):
            continue
        names = {
            name
            for entry in scan_folder(folder)
            if (name := Path(entry.name).stem if entry.is_file() else entry.name).isidentifier()
        }
        found = []
        for near in close_names(parts[index], names - {"__init__"}):
            respelled = [*parts[:index], near, *parts[index + 1 :]]
            if _module_exists(base, respelled):
                found.append(prefix + ".".join(respelled))
        return found
    return []


def _ancestors(folder: Path, root: Path) -> list[str]:
    """``folder`` and its parents up to ``root`` (none when ``folder`` is outside it)."""
    found: list[str] = []
    current = str(folder)
    while current.startswith(str(root)):
        found.append(current)
        if current == str(root):
            break
        current = os.path.dirname(current)
    return found


def _submodules(path: Path) -> set[str]:
    """A package's submodules and subpackages, for ``__init__``.

    Modules (``sub.py``, ``sub.pyi``, compiled ``sub.cpython-311-x86_64-linux-gnu.so``),
    packages, and folders without ``__init__`` (namespace portions).
    """
    if path.name not in _INIT_NAMES:
        return set()
    found: set[str] = set()
    for entry in scan_folder(str(path.parent)):
        if entry.is_dir():
            if entry.name.isidentifier() and entry.name != "__pycache__":
                found.add(entry.name)
            continue
        stem, _, suffix = entry.name.partition(".")
        compiled = suffix.endswith(("so", "pyd"))
        if stem != "__init__" and stem.isidentifier() and (suffix in {"py", "pyi"} or compiled):
            found.add(stem)
    return found


PYTHON = PythonExtractor()
