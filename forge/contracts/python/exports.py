"""The exports of a Python module, for contract checks.

A module exports its top-level bindings: ``def``, ``async def``, ``class``,
assignments (annotated ones only with a value; tuple unpacking too),
``for`` and ``with`` targets, imports, ``type`` aliases, and the same inside
top-level ``if`` / ``try`` / ``with`` / ``for`` / ``while`` blocks; and the
names a function declares ``global`` (it binds them in the module when it
runs: pyyaml's tests define ``MyLoader`` so). ``__all__``
does not restrict ``from m import name``; it only decides what ``from m
import *`` takes (else: the public names). A module-level ``__getattr__``
makes the exports unknowable, unless it answers a literal set of names and
raises ``AttributeError`` otherwise (then those names are exports too). A
package's submodules are importable from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forge.contracts.extractor import ExportSet, ParsedSource, captures, load_query, node_text
from forge.contracts.packages import scan_folder
from forge.contracts.python.resolution import INIT_NAMES, fills_its_package

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


@dataclass
class _Module:
    names: set[str] = field(default_factory=set)
    stars: list[tuple[str, int]] = field(default_factory=list)
    all_names: list[str] | None = None
    all_dynamic: bool = False
    open_reason: str | None = None
    getattr_node: Node | None = None
    #: A ``.pyi`` file: its bare annotations (``__author__: str``) declare names.
    stub: bool = False
    #: Modules of its own package the file imports (``from . import _build``, ``from ._x import y``).
    relative: set[str] = field(default_factory=set)


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


def exports(parsed: ParsedSource) -> ExportSet:
    """Top-level bindings, star re-exports, ``__all__`` and a package's submodules."""
    module = _Module(stub=parsed.path.suffix == ".pyi")
    root = parsed.tree.root_node
    _bind(root, parsed.source, module)
    if b"global" in parsed.source:  # one scan of the bytes spares most files the query
        module.names |= _global_names(parsed)
    if module.getattr_node is not None:
        handled = _getattr_names(module.getattr_node, root, parsed.source)
        if handled is None:
            line = module.getattr_node.start_point[0] + 1
            module.open_reason = (
                f"line {line}: a module-level __getattr__ makes the exports unknowable"
            )
        else:
            module.names |= handled
    if module.open_reason is None and module.relative and parsed.path.name in INIT_NAMES:
        module.open_reason = fills_its_package(parsed.path, module.relative)
    star_names: frozenset[str] | None = None
    if module.all_names is not None and not module.all_dynamic:
        star_names = frozenset(module.all_names)
    return ExportSet(
        names=frozenset(module.names),
        star_sources=tuple(module.stars),
        star_names=star_names,
        implicit=frozenset(package_submodules(parsed.path) - module.names),
        open_reason=module.open_reason,
    )


def _bind(block: Node, source: bytes, module: _Module) -> None:
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
                _expression(expression, source, module)
        elif kind == "import_statement":
            for item in stmt.children_by_field_name("name"):
                if item.type == "aliased_import":
                    alias = item.child_by_field_name("alias")
                    module.names.add(node_text(alias or item, source))
                else:
                    module.names.add(node_text(item, source).split(".")[0].strip())
        elif kind == "import_from_statement":
            _import_from(stmt, source, module)
        elif kind == "type_alias_statement":
            left = stmt.child_by_field_name("left")  # type Alias = ...
            for child in left.named_children[:1] if left is not None else []:
                module.names.update(target_names(child, source))
        elif kind in _COMPOUND:
            _compound(stmt, source, module)


def _global_names(parsed: ParsedSource) -> set[str]:
    """Names declared ``global`` anywhere in the module.

    ``def initialize(): global python_grammar; python_grammar = load()`` (black's
    blib2to3) makes ``python_grammar`` a module attribute once it runs, and
    importers take it. A declaration that the function never assigns is
    counted too: forge cannot tell when a function runs, and a name wrongly
    reported missing is worse than one not reported.
    """
    query = load_query(parsed.tree.language, "python_globals.scm", package="forge.contracts.python")
    found = captures(query, parsed.tree.root_node).get("name", [])
    return {node_text(node, parsed.source) for node in found}


def _compound(stmt: Node, source: bytes, module: _Module) -> None:
    if stmt.type == "for_statement":
        module.names.update(target_names(stmt.child_by_field_name("left"), source))
    elif stmt.type == "with_statement":
        for clause in stmt.named_children:
            if clause.type != "with_clause":
                continue
            for item in clause.named_children:
                value = item.child_by_field_name("value")
                if value is not None and value.type == "as_pattern":
                    module.names.update(target_names(value.child_by_field_name("alias"), source))
    for child in stmt.named_children:
        if child.type == "block":
            _bind(child, source, module)
        elif child.type in _COMPOUND:
            _compound(child, source, module)


def _expression(node: Node, source: bytes, module: _Module) -> None:
    if node.type == "assignment":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if right is None:  # a bare annotation (`x: int`) binds nothing, but declares in a stub
            if module.stub:
                module.names.update(target_names(left, source))
            return
        names = target_names(left, source)
        module.names.update(names)
        if names == ["__all__"]:
            module.all_names = _strings(right, source)
            module.all_dynamic = module.all_names is None
        if "__getattr__" in names and module.open_reason is None:
            # attrs binds ``__getattr__ = _make_getattr(__name__)``: whatever it
            # answers, no literal says.
            line = node.start_point[0] + 1
            module.open_reason = (
                f"line {line}: a module-level __getattr__ makes the exports unknowable"
            )
        if right.type == "assignment":  # a = b = value
            _expression(right, source, module)
    elif node.type == "augmented_assignment":
        names = target_names(node.child_by_field_name("left"), source)
        module.names.update(names)
        if names == ["__all__"]:
            _extend_all(_strings(node.child_by_field_name("right"), source), module)
    elif node.type == "call":
        function = node.child_by_field_name("function")
        method = node_text(function, source) if function is not None else ""
        if method in {"__all__.extend", "__all__.append"}:
            arguments = node.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments and arguments.named_children else None
            if method.endswith("append"):
                single = _plain_string(first, source)
                _extend_all(None if single is None else [single], module)
            else:
                _extend_all(_strings(first, source), module)


def _extend_all(strings: list[str] | None, module: _Module) -> None:
    if strings is None:
        module.all_dynamic = True
    else:
        module.all_names = [*(module.all_names or []), *strings]


def _import_from(stmt: Node, source: bytes, module: _Module) -> None:
    specifier = specifier_text(stmt.child_by_field_name("module_name"), source)
    if specifier == ".":
        module.relative.update(
            node_text(name.child_by_field_name("name") or name, source)
            for name in stmt.children_by_field_name("name")
        )
    elif specifier.startswith(".") and not specifier.startswith(".."):
        module.relative.add(specifier[1:].split(".")[0])
    if any(child.type == "wildcard_import" for child in stmt.named_children):
        module.stars.append((specifier, stmt.start_point[0] + 1))
        return
    for name in stmt.children_by_field_name("name"):
        if name.type == "aliased_import":
            name = name.child_by_field_name("alias") or name
        module.names.add(node_text(name, source))


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


def specifier_text(node: Node | None, source: bytes) -> str:
    return "".join(node_text(node, source).split()) if node is not None else ""


def package_submodules(path: Path) -> set[str]:
    """A package's submodules and subpackages, for ``__init__``.

    Modules (``sub.py``, ``sub.pyi``, compiled ``sub.cpython-311-x86_64-linux-gnu.so``),
    packages, and folders without ``__init__`` (namespace portions).
    """
    if path.name not in INIT_NAMES:
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
