"""Python placeholders: functions whose body is ``pass``, ``...``, a docstring, or a raise.

Exempt, because there the body is a declaration rather than a missing
implementation: ``@abstractmethod`` and ``@overload`` functions (and any
decorator the options add), and the methods of ``typing.Protocol`` classes.
"""

from __future__ import annotations

from tree_sitter import Node

from forge_stubs.functions import Function, Placeholder, says_not_implemented
from forge_stubs.options import StubOptions
from forge_stubs.source import Source

_TRIVIAL = {"pass_statement": "pass", "ellipsis": "ellipsis"}


def functions(src: Source, options: StubOptions) -> list[Function]:
    """Every function and method of the file, with its placeholder body if it has one."""
    found = []
    for match in src.matches("python"):
        node, body = match["function"], match["body"]
        exempt = _decorated_exempt(src, node, options) or _protocol_member(src, node)
        placeholder = None if exempt else _placeholder(src, body, options)
        found.append(Function(node=node, name=_qualified_name(src, node), placeholder=placeholder))
    return found


def is_empty_module(src: Source) -> Node | None:
    """The module's root node when it holds nothing but a docstring, ``pass`` or ``...``."""
    root = src.tree.root_node
    statements = [child for child in root.named_children if child.type != "comment"]
    if statements and _is_docstring(statements[0]):
        statements = statements[1:]
    if all(_trivial_kind(statement) for statement in statements):
        return root
    return None


def _placeholder(src: Source, body: Node, options: StubOptions) -> Placeholder | None:
    statements = [child for child in body.named_children if child.type != "comment"]
    docstring = statements[0] if statements and _is_docstring(statements[0]) else None
    rest = statements[1:] if docstring else statements
    if not rest:
        return ("docstring_only", docstring) if docstring else None
    kinds = [_trivial_kind(statement) for statement in rest]
    if all(kinds):
        return (kinds[0], rest[0])  # type: ignore[return-value]
    if (
        len(rest) == 1
        and rest[0].type == "raise_statement"
        and _raises_placeholder(src, rest[0], options)
    ):
        return ("not_implemented", rest[0])
    return None


def _trivial_kind(statement: Node) -> str | None:
    if statement.type == "pass_statement":
        return "pass"
    if statement.type == "expression_statement" and [c.type for c in statement.named_children] == [
        "ellipsis"
    ]:
        return "ellipsis"
    return None


def _is_docstring(statement: Node) -> bool:
    children = statement.named_children
    return (
        statement.type == "expression_statement"
        and len(children) == 1
        and children[0].type in {"string", "concatenated_string"}
    )


def _raises_placeholder(src: Source, raise_node: Node, options: StubOptions) -> bool:
    """``raise NotImplementedError[(...)]``, ``raise NotImplemented``, or any error saying so."""
    exception = raise_node.named_children[0] if raise_node.named_children else None
    if exception is None:
        return False
    callee = exception.child_by_field_name("function") if exception.type == "call" else exception
    if callee is not None and _last_name(src.text(callee)) in {
        "NotImplementedError",
        "NotImplemented",
    }:
        return True
    arguments = exception.child_by_field_name("arguments") if exception.type == "call" else None
    first = arguments.named_children[0] if arguments and arguments.named_children else None
    return (
        first is not None
        and first.type in {"string", "concatenated_string"}
        and (says_not_implemented(src.text(first), options))
    )


def _decorated_exempt(src: Source, node: Node, options: StubOptions) -> bool:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    exempt = options.exempt_decorators
    for decorator in parent.named_children:
        if decorator.type != "decorator" or not decorator.named_children:
            continue
        expression = decorator.named_children[0]
        if expression.type == "call":
            expression = expression.child_by_field_name("function") or expression
        dotted = src.text(expression)
        if dotted in exempt or _last_name(dotted) in exempt:
            return True
    return False


def _enclosing_class(node: Node) -> Node | None:
    """The class ``node`` is a direct member of (through a decorator), or None."""
    parent = node.parent
    if parent is not None and parent.type == "decorated_definition":
        parent = parent.parent
    if parent is None or parent.type != "block":
        return None
    owner = parent.parent
    return owner if owner is not None and owner.type == "class_definition" else None


def _protocol_member(src: Source, node: Node) -> bool:
    cls = _enclosing_class(node)
    bases = cls.child_by_field_name("superclasses") if cls else None
    if bases is None:
        return False
    for base in bases.named_children:
        if base.type == "subscript":  # Protocol[T]
            base = base.child_by_field_name("value") or base
        if _last_name(src.text(base)) == "Protocol":
            return True
    return False


def _qualified_name(src: Source, node: Node) -> str:
    parts = []
    current: Node | None = node
    while current is not None:
        if current.type in {"function_definition", "class_definition"}:
            name = current.child_by_field_name("name")
            if name is not None:
                parts.append(src.text(name))
        current = current.parent
    return ".".join(reversed(parts))


def _last_name(dotted: str) -> str:
    return dotted.rsplit(".", 1)[-1].strip()
