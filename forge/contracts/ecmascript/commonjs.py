"""The CommonJS exports of a JavaScript-family module, for contract checks.

``exports.x = ...``, ``module.exports.x = ...`` and ``module.exports = value``
are found anywhere with ``javascript_exports.scm``, in source order: a
replacement of ``module.exports`` starts the export set over. A replacement
by an object literal, a function, ``require()`` of another module or a
top-level name whose members can be read statically gives known names;
anything else makes the exports unknowable. TypeScript's ``export = value``
is read the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from forge.contracts.ecmascript.syntax import (
    VALUE_DECLARATIONS,
    declared_names,
    keyword_tokens,
    specifier_names,
    string_value,
)
from forge.contracts.extractor import ParsedSource, load_query, matches, node_text

if TYPE_CHECKING:
    from tree_sitter import Node

#: What every function and class has, read as ``m.prototype`` through a
#: require (undici: ``Object.assign(Dispatcher.prototype, api)``).
FUNCTION_PROPERTIES = frozenset({"prototype", "name", "length", "call", "apply", "bind"})

#: Declarations whose members are their static properties (an enum's are not).
_CALLABLE_DECLARATIONS = {
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "function_signature",
    "class",
}
_FUNCTION_LIKE = {
    "function_expression",
    "function",
    "arrow_function",
    "class",
    "generator_function",
    "generator_function_declaration",
}


@dataclass
class CommonJSExports:
    """The exports a module's CommonJS forms give, as they are read in source order."""

    names: set[str] = field(default_factory=set)
    open_reason: str | None = None
    default_alias: str | None = None
    star_sources: list[tuple[str, int]] = field(default_factory=list)
    used: bool = False
    #: Properties every function has (``prototype``, ``call``): members of an
    #: exported function or class, never bindings a star import takes.
    implicit: set[str] = field(default_factory=set)


def read_common_js(cjs: CommonJSExports, parsed: ParsedSource) -> None:
    """Every CommonJS export form of ``parsed``, in source order, into ``cjs``."""
    source = parsed.source
    root = parsed.tree.root_node
    query = load_query(
        parsed.tree.language, "javascript_exports.scm", package="forge.contracts.ecmascript"
    )
    events: list[tuple[int, str, Node]] = []
    for _, found in matches(query, root):
        for capture in ("replace", "name", "alias_name", "star_source"):
            for node in found.get(capture, ()):
                events.append((node.start_byte, capture, node))
    alias_live = True
    for _, capture, node in sorted(events, key=lambda event: event[0]):
        cjs.used = True
        if capture == "replace":
            alias_live = _keeps_exports_alias(node, source) or _assigned_to_exports(node)
            cjs.names.clear()
            cjs.implicit.clear()
            cjs.star_sources.clear()
            cjs.open_reason = None
            cjs.default_alias = None
            replace_exports(cjs, node, root, source)
        elif capture == "star_source":
            cjs.star_sources.append((node_text(node, source), node.start_point[0] + 1))
        elif capture == "name" or alias_live:
            cjs.names.add(node_text(node, source))


def replace_exports(cjs: CommonJSExports, value: Node, root: Node, source: bytes) -> None:
    """``module.exports = value`` (or ``export = value``): the new export set."""
    cjs.used = True
    cjs.names.add("default")
    while value.type in {"assignment_expression", "parenthesized_expression"}:
        inner = value.child_by_field_name("right") or (
            value.named_children[0] if value.named_children else None
        )
        if inner is None:
            break
        value = inner
    line = value.start_point[0] + 1
    if value.type == "object":
        _object_keys(cjs, value, source, line)
    elif value.type in _FUNCTION_LIKE:
        name = value.child_by_field_name("name")
        cjs.default_alias = node_text(name, source) if name is not None else None
        # undici's `module.exports = class WrapHandler { static wrap () {} }`
        cjs.names.update(_static_members(value, source))
        cjs.implicit.update(FUNCTION_PROPERTIES)
    elif value.type == "call_expression" and _is_require(value, source):
        argument = value.child_by_field_name("arguments")
        strings = [c for c in argument.named_children if c.type == "string"] if argument else []
        if strings:
            cjs.star_sources.append((string_value(strings[0], source), line))
    elif value.type == "identifier":
        _identifier(cjs, node_text(value, source), root, source, line)
    else:
        cjs.open_reason = (
            f"line {line}: module.exports is assigned a computed value "
            f"({value.type.replace('_', ' ')}), so its members cannot be known"
        )


def _object_keys(cjs: CommonJSExports, value: Node, source: bytes, line: int) -> None:
    for member in value.named_children:
        if member.type == "shorthand_property_identifier":
            cjs.names.add(node_text(member, source))
        elif member.type in {"pair", "method_definition"}:
            key = member.child_by_field_name("key") or member.child_by_field_name("name")
            if key is None or key.type == "computed_property_name":
                cjs.open_reason = f"line {line}: module.exports has a computed key"
            else:
                cjs.names.add(string_value(key, source))
        elif member.type == "spread_element":
            cjs.open_reason = f"line {line}: module.exports spreads another object"


def _identifier(cjs: CommonJSExports, name: str, root: Node, source: bytes, line: int) -> None:
    """``module.exports = name``: a top-level function, class or object literal.

    TypeScript merges a function (or class) with a namespace of the same
    name (``function f() {}`` + ``namespace f { export const v }``): the
    namespace's exports are then members of the exported value too.
    """
    cjs.default_alias = name
    known = False
    for stmt in _top_level_declarations(root):
        if stmt.type in VALUE_DECLARATIONS:
            for declarator in stmt.named_children:
                declared = declarator.child_by_field_name("name")
                if declared is None or node_text(declared, source) != name:
                    continue
                value = declarator.child_by_field_name("value")
                if value is not None and value.type == "object":
                    _object_keys(cjs, value, source, line)
                    known = True
                elif value is not None and value.type in _FUNCTION_LIKE:
                    cjs.names.update(_static_members(value, source))
                    cjs.implicit.update(FUNCTION_PROPERTIES)
                    known = True
            continue
        declared = stmt.child_by_field_name("name")
        if declared is None or node_text(declared, source) != name:
            continue
        if stmt.type in {"internal_module", "module"}:
            # Members of a `declare namespace` are exported without saying so.
            ambient = stmt.parent is not None and stmt.parent.type == "ambient_declaration"
            body = stmt.child_by_field_name("body")
            for member in body.named_children if body is not None else ():
                if member.type == "export_statement":
                    # pino's `declare namespace pino { export { pino as default, pino } }`
                    for clause in member.named_children:
                        if clause.type == "export_clause":
                            cjs.names.update(
                                specifier_names(spec, source)[1]
                                for spec in clause.named_children
                                if spec.type == "export_specifier"
                            )
                    member = member.child_by_field_name("declaration") or member
                elif not ambient:
                    continue
                cjs.names.update(declared_names(member, source))
            known = True
        elif stmt.type in _CALLABLE_DECLARATIONS:
            cjs.names.update(_static_members(stmt, source))
            cjs.implicit.update(FUNCTION_PROPERTIES)
            known = True
    if known:
        cjs.names.update(_static_properties(name, root, source))
        return
    cjs.open_reason = (
        f"line {line}: module.exports = {name}, whose members cannot be read statically"
    )


def _is_require(call: Node, source: bytes) -> bool:
    function = call.child_by_field_name("function")
    return function is not None and node_text(function, source) == "require"


def _keeps_exports_alias(replace: Node, source: bytes) -> bool:
    """``module.exports = exports = {...}`` keeps ``exports.x = ...`` meaningful."""
    node = replace
    while node.type == "assignment_expression":
        left = node.child_by_field_name("left")
        if left is not None and node_text(left, source) == "exports":
            return True
        right = node.child_by_field_name("right")
        if right is None:
            break
        node = right
    return False


def _static_members(declaration: Node, source: bytes) -> set[str]:
    """A class's ``static`` methods and fields (none for a function)."""
    body = declaration.child_by_field_name("body")
    if body is None or body.type != "class_body":
        return set()
    found: set[str] = set()
    for member in body.named_children:
        if "static" not in keyword_tokens(member) and not any(
            c.type == "static" for c in member.children
        ):
            continue
        key = member.child_by_field_name("name") or member.child_by_field_name("property")
        if key is not None and key.type in {"property_identifier", "private_property_identifier"}:
            found.add(node_text(key, source))
    return found


def _top_level_declarations(root: Node) -> Iterator[Node]:
    """Top-level declarations, looking into ``declare ...`` and ``namespace`` statements."""
    for stmt in root.named_children:
        if stmt.type in {"ambient_declaration", "expression_statement"}:
            yield from stmt.named_children
        else:
            yield stmt


def _assigned_to_exports(replace: Node) -> bool:
    """``exports = module.exports = value`` (express's form) also keeps the alias."""
    inner = replace.parent  # the `module.exports = value` assignment
    outer = inner.parent if inner is not None else None
    while outer is not None and outer.type == "parenthesized_expression":
        inner, outer = outer, outer.parent
    if outer is None or outer.type != "assignment_expression":
        return False
    left = outer.child_by_field_name("left")
    return (
        outer.child_by_field_name("right") == inner
        and left is not None
        and (left.type == "identifier" and left.text == b"exports")
    )


def _static_properties(name: str, root: Node, source: bytes) -> set[str]:
    """``name.prop = ...`` assignments anywhere in the file (properties of an exported function).

    At the top level (``app.listen = ...``) or inside a function, the exported
    one included: an ajv standalone validator sets ``validate10.errors`` from
    its own body (fastify's ``lib/config-validator.js``).
    """
    found: set[str] = set()
    if f"{name}.".encode() not in source:
        return found
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "assignment_expression":
            continue
        left = node.child_by_field_name("left")
        if left is None or left.type != "member_expression":
            continue
        obj, prop = left.child_by_field_name("object"), left.child_by_field_name("property")
        if obj is not None and prop is not None and node_text(obj, source) == name:
            found.add(node_text(prop, source))
    return found
