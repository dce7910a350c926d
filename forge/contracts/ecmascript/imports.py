"""The imports of a JavaScript-family module (JavaScript, TypeScript, TSX), for contract checks.

Import statements and re-exports are read from the top level of the tree;
``require()`` / ``import()`` calls anywhere, with the queries in
``javascript_imports.scm`` and, for TypeScript, ``typescript_imports.scm``.
The names taken from a namespace binding are its member uses in the
binding's scope, less those of a variable of the same name declared below it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import TYPE_CHECKING

from forge.contracts.ecmascript.syntax import keyword_tokens, specifier_names, string_value
from forge.contracts.extractor import (
    ImportedName,
    ImportRef,
    ParsedSource,
    captures,
    imported,
    load_query,
    matches,
    node_text,
    position,
)

if TYPE_CHECKING:
    from tree_sitter import Node, Query


def imports(parsed: ParsedSource, *, typescript: bool) -> list[ImportRef]:
    """Import statements, re-exports, ``require()`` and ``import()`` (see module docs)."""
    import_queries = ("javascript_imports.scm",) + (
        ("typescript_imports.scm",) if typescript else ()
    )
    declaration_queries = (
        "javascript_declarations.scm",
        "typescript_parameters.scm" if typescript else "javascript_parameters.scm",
    )
    source = parsed.source
    root = parsed.tree.root_node
    query = load_query(parsed.tree.language, *import_queries, package="forge.contracts.ecmascript")
    members: dict[str, list[Node]] = defaultdict(list)
    types: dict[str, list[Node]] = defaultdict(list)
    patterns: dict[str, list[Node]] = defaultdict(list)  # const {a} = ns: ns -> {a}
    calls: list[tuple[str, Node, Node]] = []
    for _, found in matches(query, root):
        if "member.object" in found:
            obj = found["member.object"][0]
            members[node_text(obj, source)].extend(found["member.property"])
        if "destructure.object" in found:
            obj = found["destructure.object"][0]
            patterns[node_text(obj, source)].extend(found["destructure.pattern"])
        if "type.object" in found:
            obj = found["type.object"][0]
            types[node_text(obj, source)].extend(found["type.property"])
        for kind in ("require", "dynamic_import"):
            if kind in found and not _substituted(found["source"][0]):
                calls.append((kind, found[kind][0], found["source"][0]))
    both = _merged(members, types, patterns)
    shadows = _Shadows(
        root,
        source,
        load_query(
            parsed.tree.language, *declaration_queries, package="forge.contracts.ecmascript"
        ),
    )
    refs: list[ImportRef] = []
    for stmt in root.named_children:
        if stmt.type == "import_statement":
            # A binding of `import type` is never a value: a value-position
            # `ns.x` is some other variable of that name.
            typed = "type" in keyword_tokens(stmt)
            uses = _merged(types, patterns) if typed else both
            refs.append(_types_only(_import_statement(stmt, source, uses, shadows), typed))
        elif stmt.type == "export_statement" and stmt.child_by_field_name("source"):
            typed = "type" in keyword_tokens(stmt)
            refs.append(_types_only(_reexport(stmt, source), typed))
    for kind, call, specifier in calls:
        refs.append(_call(kind, call, specifier, source, both, shadows))
    refs.sort(key=lambda ref: (ref.line, ref.column))
    return refs


def _import_statement(
    stmt: Node, source: bytes, members: dict[str, list[Node]], shadows: _Shadows
) -> ImportRef:
    specifier = stmt.child_by_field_name("source")
    names: list[ImportedName] = []
    for clause in stmt.named_children:
        if clause.type == "import_require_clause":  # import x = require("./y")
            specifier = clause.child_by_field_name("source")
            binding = clause.named_children[0]
            names.extend(_members(binding, members, source, shadows))
        if clause.type != "import_clause":
            continue
        for part in clause.named_children:
            if part.type == "identifier":
                default = imported(part, source, "default", node_text(part, source))
                names.append(_with_members(default, part, members, source, shadows))
            elif part.type == "namespace_import":
                for binding in part.named_children:
                    names.extend(_members(binding, members, source, shadows))
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type == "import_specifier":
                        name, local = specifier_names(spec, source)
                        local_node = spec.child_by_field_name("alias")
                        local_node = local_node or spec.child_by_field_name("name")
                        named = imported(spec, source, name, local)
                        names.append(_with_members(named, local_node, members, source, shadows))
    return _ref(stmt, specifier, source, names)


def _reexport(stmt: Node, source: bytes) -> ImportRef:
    names = [
        imported(spec, source, specifier_names(spec, source)[0])
        for clause in stmt.named_children
        if clause.type == "export_clause"
        for spec in clause.named_children
        if spec.type == "export_specifier"
    ]
    return _ref(stmt, stmt.child_by_field_name("source"), source, names)


def _types_only(ref: ImportRef, typed: bool) -> ImportRef:
    """``import type``/``export type`` of a package: erased at run time, and found by the
    type checker through ``typeRoots``, ``types`` and ambient declarations forge may not see.
    Its not resolving is no finding; a relative one must still name a file."""
    if not typed or ref.specifier.startswith((".", "/")):
        return ref
    return replace(ref, tentative=True)


#: Methods of the promise ``import()`` returns.
_PROMISE_METHODS = frozenset({"then", "catch", "finally"})


def _call(
    kind: str,
    call: Node,
    specifier: Node,
    source: bytes,
    members: dict[str, list[Node]],
    shadows: _Shadows,
) -> ImportRef:
    names: list[ImportedName] = []
    context = call.parent
    if kind == "dynamic_import" and context is not None and context.type == "await_expression":
        call, context = context, context.parent
    if context is not None and context.type == "member_expression":
        prop = context.child_by_field_name("property")
        promised = call.type == "call_expression" and kind == "dynamic_import"
        if prop is not None and prop.type == "property_identifier":
            name = node_text(prop, source)
            # import('./x.js').then(...): the promise's method, not a name of the module.
            if not (promised and name in _PROMISE_METHODS):
                names.append(imported(prop, source, name))
    elif context is not None and context.type == "variable_declarator":
        binding = context.child_by_field_name("name")
        if binding is not None and binding.type == "identifier":
            names.extend(_members(binding, members, source, shadows))
        elif binding is not None and binding.type == "object_pattern":
            names.extend(_destructured(binding, source))
    elif context is not None and context.type == "assignment_expression":
        left = context.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            names.extend(_members(left, members, source, shadows))
    return _ref(call, specifier, source, names)


def _substituted(specifier: Node) -> bool:
    """Whether a template literal computes its text (`./${name}`): no file to name."""
    return any(part.type == "template_substitution" for part in specifier.named_children)


def _ref(node: Node, specifier: Node | None, source: bytes, names: list[ImportedName]) -> ImportRef:
    # A finding about the import points at the specifier, as editors do.
    line, column = position(specifier if specifier is not None else node, source)
    text = string_value(specifier, source) if specifier is not None else ""
    return ImportRef(specifier=text, line=line, column=column, names=tuple(names))


def _merged(*uses: dict[str, list[Node]]) -> dict[str, list[Node]]:
    """Member uses of value and type positions together, in source order."""
    merged: dict[str, list[Node]] = defaultdict(list)
    for use in uses:
        for name, nodes in use.items():
            merged[name].extend(nodes)
    for nodes in merged.values():
        nodes.sort(key=lambda node: node.start_byte)
    return merged


def _members(
    binding: Node, members: dict[str, list[Node]], source: bytes, shadows: _Shadows
) -> list[ImportedName]:
    """``binding.member`` uses in the binding's scope, each an imported name.

    A use inside a function, block, loop or ``catch`` that declares a
    variable of the same name is that variable's, not the module's
    (``import * as checks``, then ``const checks = def.checks; checks.length``).
    """
    name = node_text(binding, source)
    uses = members.get(name, ())
    if not uses:
        return []
    home = _scope_of(binding)
    if home is None:
        return []
    inner = [
        (start, end)
        for start, end in shadows.scopes(name)
        if home.start_byte <= start and end <= home.end_byte and (start, end) != home.byte_range
    ]
    found: list[ImportedName] = []
    for use in uses:
        if not home.start_byte <= use.start_byte < home.end_byte or any(
            start <= use.start_byte < end for start, end in inner
        ):
            continue
        if use.type == "object_pattern":  # const { a, b: { c } } = ns
            found.extend(_destructured(use, source))
        else:
            found.append(_deeper(imported(use, source, string_value(use, source)), use, source))
    return found


def _with_members(
    name: ImportedName,
    binding: Node | None,
    members: dict[str, list[Node]],
    source: bytes,
    shadows: _Shadows,
) -> ImportedName:
    """``name`` with the members its binding is read for (``import { b }``, then ``b.e``).

    They count where the module exports the name as another module's
    namespace (``export * as b from './b'``); elsewhere they are ignored.
    """
    if binding is None or binding.type != "identifier":
        return name
    read = _members(binding, members, source, shadows)
    return replace(name, members=tuple(read)) if read else name


def _deeper(name: ImportedName, prop: Node, source: bytes) -> ImportedName:
    """``name`` with the member read from it in turn: ``ns.b.e`` gives ``b`` its ``e``."""
    use = prop.parent  # the member expression `ns.b`
    outer = use.parent if use is not None else None
    if outer is None or outer.type != "member_expression":
        return name
    if outer.child_by_field_name("object") != use:
        return name
    next_prop = outer.child_by_field_name("property")
    if next_prop is None or next_prop.type != "property_identifier":
        return name
    member = _deeper(imported(next_prop, source, node_text(next_prop, source)), next_prop, source)
    return replace(name, members=(member,))


class _Shadows:
    """Where names are declared below the top level: the byte ranges of their scopes.

    Read with one query over the file, the first time a binding has uses.
    """

    def __init__(self, root: Node, source: bytes, query: Query) -> None:
        self._root, self._source, self._query = root, source, query
        self._declared: dict[str, list[Node]] | None = None
        self._ranges: dict[str, list[tuple[int, int]]] = {}

    def scopes(self, name: str) -> list[tuple[int, int]]:
        """The byte ranges of the scopes below the top level that declare ``name``."""
        if self._declared is None:
            self._declared = defaultdict(list)
            for node in captures(self._query, self._root).get("declared", ()):
                self._declared[node_text(node, self._source)].append(node)
        if name not in self._ranges:
            scopes = (_scope_of(node) for node in self._declared.get(name, ()))
            self._ranges[name] = [
                scope.byte_range
                for scope in scopes
                if scope is not None and scope.type != "program"
            ]
        return self._ranges[name]


#: Nodes that open a scope for ``let``/``const``/parameters (``var`` is approximated by them).
_SCOPES = {
    "program",
    "statement_block",
    "function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "method_definition",
    "generator_function",
    "generator_function_declaration",
    "for_statement",
    "for_in_statement",
    "catch_clause",
}


def _scope_of(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type not in _SCOPES:
        parent = parent.parent
    return parent


def _destructured(pattern: Node, source: bytes) -> list[ImportedName]:
    """Keys of ``const {a, b: c} = require(...)`` (a rest element takes no name)."""
    names: list[ImportedName] = []
    for part in pattern.named_children:
        if part.type == "shorthand_property_identifier_pattern":
            names.append(imported(part, source, node_text(part, source)))
        elif part.type == "object_assignment_pattern":
            left = part.child_by_field_name("left")
            if left is not None:
                names.append(imported(left, source, node_text(left, source)))
        elif part.type == "pair_pattern":
            key = part.child_by_field_name("key")
            value = part.child_by_field_name("value")
            if key is not None and key.type in {"property_identifier", "string"}:
                name = imported(key, source, string_value(key, source))
                if value is not None and value.type == "object_pattern":  # { b: { e } }
                    name = replace(name, members=tuple(_destructured(value, source)))
                names.append(name)
    return names
