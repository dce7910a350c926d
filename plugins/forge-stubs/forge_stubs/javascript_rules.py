"""JavaScript and TypeScript placeholders: empty bodies and bodies that only throw "not implemented".

Signatures without a body (TypeScript overloads, ``declare``, interface and
abstract members) never match the query. Exempt besides: anything inside a
``declare`` block, an empty anonymous function (a callback argument such as
``promise.catch(() => {})`` or a JSX ``onClick={() => {}}`` is a deliberate
no-op handed to someone, not a unit of work left undone), and a
constructor whose parameters are TypeScript parameter properties
(``constructor(private readonly db: Db) {}`` does its work in the signature).
"""

from __future__ import annotations

from tree_sitter import Node

from forge_stubs.functions import Function, Placeholder, says_not_implemented
from forge_stubs.options import StubOptions
from forge_stubs.source import Source

_CLASSES = {"class_declaration", "abstract_class_declaration", "class"}
_STRINGS = {"string", "template_string"}
_FUNCTIONS = {
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "generator_function",
    "arrow_function",
    "method_definition",
}


def functions(src: Source, options: StubOptions) -> list[Function]:
    """Every function of the file with a body, with its placeholder body if it has one."""
    found = []
    for match in src.matches("javascript"):
        node, body = match["function"], match["body"]
        name = _name(src, node)
        placeholder = None if _in_ambient(node) else _placeholder(src, node, body, options)
        if placeholder and placeholder[0] == "empty_body" and _exempt_when_empty(src, node, name):
            placeholder = None
        found.append(Function(node=node, name=name or "<anonymous>", placeholder=placeholder))
    return found


def is_empty_module(src: Source) -> Node | None:
    """The program node when it holds no statement (comments and ``"use strict"`` aside)."""
    root = src.tree.root_node
    for child in root.named_children:
        if child.type in {"comment", "hash_bang_line"}:
            continue
        if child.type == "expression_statement" and [c.type for c in child.named_children] == [
            "string"
        ]:
            continue  # a directive such as "use strict"
        return None
    return root


def _placeholder(src: Source, node: Node, body: Node, options: StubOptions) -> Placeholder | None:
    statements = [child for child in body.named_children if child.type != "comment"]
    if not statements:
        return ("empty_body", body)
    if len(statements) == 1 and statements[0].type == "throw_statement":
        thrown = statements[0].named_children[0] if statements[0].named_children else None
        if thrown is not None and _throws_placeholder(src, thrown, options):
            return ("not_implemented", statements[0])
    return None


def _throws_placeholder(src: Source, thrown: Node, options: StubOptions) -> bool:
    """``new Error("not implemented")``, ``Error("TODO")``, ``new NotImplementedError()``, a string."""
    if thrown.type in _STRINGS:
        return says_not_implemented(src.text(thrown), options)
    if thrown.type not in {"new_expression", "call_expression"}:
        return False
    callee = thrown.child_by_field_name(
        "constructor" if thrown.type == "new_expression" else "function"
    )
    if callee is not None and "notimplemented" in src.text(callee).lower().replace("_", ""):
        return True
    arguments = thrown.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments and arguments.named_children else None
    return (
        first is not None
        and first.type in _STRINGS
        and says_not_implemented(src.text(first), options)
    )


def _exempt_when_empty(src: Source, node: Node, name: str | None) -> bool:
    if name is None:
        return True
    if node.type == "method_definition" and name and name.rsplit(".", 1)[-1] == "constructor":
        parameters = node.child_by_field_name("parameters")
        return parameters is not None and any(
            child.type in {"accessibility_modifier", "readonly", "override_modifier"}
            for parameter in parameters.named_children
            for child in parameter.children
        )
    return False


def _in_ambient(node: Node) -> bool:
    current = node.parent
    while current is not None:
        if current.type == "ambient_declaration":
            return True
        current = current.parent
    return False


def _own_name(src: Source, node: Node) -> str | None:
    """The name a function gets from itself or from what it is assigned to."""
    name = node.child_by_field_name("name")
    if name is not None:
        return src.text(name)
    parent = node.parent
    if parent is None:
        return None
    field = {
        "variable_declarator": "name",
        "assignment_expression": "left",
        "pair": "key",
        "public_field_definition": "name",
        "field_definition": "property",
    }.get(parent.type)
    target = parent.child_by_field_name(field) if field else None
    if target is not None:
        return src.text(target)
    if parent.type == "export_statement":
        return "default"
    return None


def _name(src: Source, node: Node) -> str | None:
    """``Outer.method`` through enclosing classes and named functions; None when anonymous."""
    own = _own_name(src, node)
    if own is None:
        return None
    parts = [own]
    current = node.parent
    while current is not None:
        if current.type in _CLASSES:
            class_name = current.child_by_field_name("name")
            parts.append(src.text(class_name) if class_name else "<class>")
        elif current.type in _FUNCTIONS and (outer := _own_name(src, current)) is not None:
            parts.append(outer)
        current = current.parent
    return ".".join(reversed(parts))
