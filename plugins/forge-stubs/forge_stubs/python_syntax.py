"""Where a Python definition sits and what it is called: names, parameters, decorators.

The tree-sitter lookups the Python rule modules share; nothing here decides
whether a body is a placeholder or whether one is deliberate.
"""

from __future__ import annotations

from tree_sitter import Node

from forge_stubs.source import Source


def own_name(src: Source, node: Node) -> str:
    """The name a function or class definition gives itself (empty without one)."""
    name = node.child_by_field_name("name")
    return src.text(name) if name is not None else ""


def last_name(dotted: str) -> str:
    """The last part of a dotted name: ``pluggy.HookspecMarker`` gives ``HookspecMarker``."""
    return dotted.rsplit(".", 1)[-1].strip()


def at_top_level(node: Node) -> bool:
    """Whether a definition (through its decorators) is a statement of the module itself."""
    parent = node.parent
    if parent is not None and parent.type == "decorated_definition":
        parent = parent.parent
    return parent is not None and parent.type == "module"


def parameter_names(src: Source, node: Node, cls: Node | None) -> list[str]:
    """A function's parameter names; for a method, a leading ``self`` or ``cls`` left out."""
    parameters = node.child_by_field_name("parameters")
    names = []
    for parameter in parameters.named_children if parameters is not None else []:
        identifier = parameter if parameter.type == "identifier" else _first_identifier(parameter)
        if identifier is not None:
            names.append(src.text(identifier))
    if cls is not None and names and names[0] in {"self", "cls"}:
        names = names[1:]
    return names


def _first_identifier(node: Node) -> Node | None:
    for child in node.named_children:
        if child.type == "identifier":
            return child
        found = _first_identifier(child) if child.type.endswith("pattern") else None
        if found is not None:
            return found
    return None


def decorated_exempt(src: Source, node: Node, exempt: frozenset[str]) -> bool:
    """Whether a decorator of the definition is named in ``exempt`` (dotted or by last name)."""
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    for decorator in parent.named_children:
        if decorator.type != "decorator" or not decorator.named_children:
            continue
        expression = decorator.named_children[0]
        if expression.type == "call":
            expression = expression.child_by_field_name("function") or expression
        dotted = src.text(expression)
        if dotted in exempt or last_name(dotted) in exempt:
            return True
    return False
