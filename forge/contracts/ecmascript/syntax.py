"""Names in the syntax tree of the JavaScript family: declarations, binding patterns, specifiers.

What exports, CommonJS exports and imports read alike: the names a
declaration or a binding pattern binds, the two names of an import or export
specifier, the text of a string literal.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from forge.contracts.extractor import node_text

if TYPE_CHECKING:
    from tree_sitter import Node

_NAMED_DECLARATIONS = {
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "interface_declaration",
    "type_alias_declaration",
    "enum_declaration",
    "internal_module",
    "module",
    "function_signature",
}
#: Declarations of variables (``const``, ``let``, ``var``): their declarators bind the names.
VALUE_DECLARATIONS = {"lexical_declaration", "variable_declaration"}


def string_value(node: Node, source: bytes) -> str:
    """A string literal's contents (a template literal's too), or an identifier's text.

    Escapes are read as JavaScript reads them: ``'./\\u0062ar'`` is ``./bar``.
    """
    text = node_text(node, source)
    if node.type not in ("string", "template_string"):
        return text
    text = text[1:-1]
    return _ESCAPE.sub(_unescape, text) if "\\" in text else text


#: A JavaScript string escape: \u{...}, \uXXXX, \xXX, a line continuation, one character.
_ESCAPE = re.compile(r"\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r\n|[\s\S]))")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1) or match.group(2) or match.group(3)
    if code is not None:
        value = int(code, 16)
        return chr(value) if value <= 0x10FFFF else match.group(0)
    char = match.group(4)
    if char in ("\n", "\r", "\r\n", "\u2028", "\u2029"):
        return ""  # a line continuation
    return _SIMPLE.get(char, char)


def keyword_tokens(node: Node) -> set[str]:
    """The anonymous tokens of ``node`` (``export``, ``default``, ``*``, ``=``, ``type``)."""
    return {child.type for child in node.children if not child.is_named}


def pattern_names(node: Node | None, source: bytes) -> list[str]:
    """The names a binding pattern binds (``{a, b: c, ...d}``, ``[x, y = 1]``, ``name``)."""
    if node is None:
        return []
    kind = node.type
    if kind in {"identifier", "shorthand_property_identifier_pattern"}:
        return [node_text(node, source)]
    if kind == "pair_pattern":
        return pattern_names(node.child_by_field_name("value"), source)
    if kind in {"object_assignment_pattern", "assignment_pattern"}:
        return pattern_names(node.child_by_field_name("left"), source)
    if kind in {"object_pattern", "array_pattern", "rest_pattern"}:
        return [name for child in node.named_children for name in pattern_names(child, source)]
    return []


def declared_names(node: Node, source: bytes) -> list[str]:
    """Names an exported declaration binds (``export const {a, b} = ...``: a, b)."""
    kind = node.type
    if kind in _NAMED_DECLARATIONS:
        name = node.child_by_field_name("name")
        # `declare module "x" {}` is named by a string: an ambient module, not a binding.
        return [node_text(name, source)] if name is not None and name.type != "string" else []
    if kind in VALUE_DECLARATIONS:
        return [
            name
            for declarator in node.named_children
            if declarator.type == "variable_declarator"
            for name in pattern_names(declarator.child_by_field_name("name"), source)
        ]
    if kind == "ambient_declaration":  # export declare const|function|class|namespace ...
        return [name for child in node.named_children for name in declared_names(child, source)]
    if kind == "import_alias":  # export import A = B.C
        first = node.named_children[0] if node.named_children else None
        return [node_text(first, source)] if first is not None else []
    return []


def specifier_names(spec: Node, source: bytes) -> tuple[str, str]:
    """(name in the other module, name here) of an import or export specifier."""
    name_node = spec.child_by_field_name("name")
    alias_node = spec.child_by_field_name("alias")
    name = string_value(name_node, source) if name_node is not None else "default"
    if alias_node is not None:
        return name, string_value(alias_node, source)
    if name_node is not None and spec.children and spec.children[-1].type == "default":
        return name, "default"  # export { a as default }
    return name, name
