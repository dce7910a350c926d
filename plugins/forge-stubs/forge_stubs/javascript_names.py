"""JavaScript and TypeScript functions and classes by name: what a stub finding is about.

The names forge-stubs reports (``Class.method``, ``object.key``, a variable a
function is bound to), the classes a file extends, and whether a node is
inside an ambient ``declare`` block.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from forge_stubs.source import Source

_EXTENDS = r"extends\s+([\w$.]+)"
CLASSES = {"class_declaration", "abstract_class_declaration", "class"}
FUNCTIONS = {
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "generator_function",
    "arrow_function",
    "method_definition",
}


def extended_classes(src: Source) -> frozenset[str]:
    """The last names of the classes this file's classes extend."""
    names: set[str] = set()
    for heritage in src.captures("classes", "heritage"):
        names.update(name.rsplit(".", 1)[-1] for name in re.findall(_EXTENDS, src.text(heritage)))
    return frozenset(names)


def class_name(src: Source, cls: Node) -> str | None:
    """A class's own name, else the name it is bound to: ``var Subscribable = class {...}``.

    Bundlers (esbuild, tsup) compile ``export class Subscribable`` to the
    anonymous form; its subclasses still say ``extends Subscribable``.
    """
    name = cls.child_by_field_name("name")
    if name is not None:
        return src.text(name)
    parent = cls.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    field = {"variable_declarator": "name", "assignment_expression": "left"}.get(
        parent.type if parent is not None else ""
    )
    target = parent.child_by_field_name(field) if parent is not None and field else None
    if target is None or target.type not in {"identifier", "member_expression"}:
        return None
    return src.text(target).rsplit(".", 1)[-1]


def in_ambient(node: Node) -> bool:
    current = node.parent
    while current is not None:
        if current.type == "ambient_declaration":
            return True
        current = current.parent
    return False


def own_name(src: Source, node: Node) -> str | None:
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


def function_name(src: Source, node: Node) -> str | None:
    """``Outer.method`` through enclosing classes and named functions; None when anonymous."""
    own = own_name(src, node)
    if own is None:
        return None
    parts = [own]
    current = node.parent
    while current is not None:
        if current.type in CLASSES:
            parts.append(class_name(src, current) or "<class>")
        elif current.type in FUNCTIONS and (outer := own_name(src, current)) is not None:
            parts.append(outer)
        current = current.parent
    return ".".join(reversed(parts))
