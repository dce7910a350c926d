"""The shapes of a Python body: what looks like a placeholder, and what does work.

A body looks like a placeholder when it holds nothing but a docstring,
``pass`` or ``...`` (:func:`trivial_kind`, :func:`is_docstring`), returns
only a literal (:func:`returns_literal`), or raises ``NotImplementedError``
or an error whose message says the code is missing
(:func:`raises_placeholder`). A method's body does work (:func:`does_work`)
when it is more than a docstring, ``pass``, ``...``, ``return None`` or
``raise NotImplementedError``: that is what an empty override turns off.
"""

from __future__ import annotations

from collections.abc import Collection

from tree_sitter import Node

from forge_stubs.functions import refusal_is_placeholder, says_abstract, says_not_implemented
from forge_stubs.options import StubOptions
from forge_stubs.python_syntax import last_name
from forge_stubs.source import Source

NOT_IMPLEMENTED_ERRORS = {"NotImplementedError", "NotImplemented"}


_LITERALS = {"integer", "float", "string", "concatenated_string", "true", "false", "none"}


_CONTAINERS = {"list", "tuple", "set", "dictionary", "pair", "parenthesized_expression"}


def docstring_of(node: Node) -> Node | None:
    """The docstring statement of a function or class, or None."""
    body = node.child_by_field_name("body")
    statements = [c for c in body.named_children if c.type != "comment"] if body else []
    return statements[0] if statements and is_docstring(statements[0]) else None


def trivial_kind(statement: Node) -> str | None:
    """``"pass"`` or ``"ellipsis"`` for a statement that is only that, else None."""
    if statement.type == "pass_statement":
        return "pass"
    if statement.type == "expression_statement" and [c.type for c in statement.named_children] == [
        "ellipsis"
    ]:
        return "ellipsis"
    return None


def is_docstring(statement: Node) -> bool:
    """Whether a statement is a lone string: a docstring where it comes first."""
    children = statement.named_children
    return (
        statement.type == "expression_statement"
        and len(children) == 1
        and children[0].type in {"string", "concatenated_string"}
    )


def returns_literal(statement: Node) -> bool:
    """Whether a ``return`` statement returns a literal: ``return 0``, ``return []``."""
    values = statement.named_children
    return len(values) == 1 and _is_literal(values[0])


def _is_literal(node: Node) -> bool:
    if node.type in _LITERALS:
        return not any(child.type == "interpolation" for child in node.named_children)
    if node.type == "unary_operator":
        operand = node.child_by_field_name("argument")
        return operand is not None and _is_literal(operand)
    if node.type in _CONTAINERS:
        return all(_is_literal(child) for child in node.named_children if child.type != "comment")
    return False


def raise_message(src: Source, raise_node: Node) -> tuple[str, str | None] | None:
    """The raised error's name and its message (None without a string message)."""
    exception = raise_node.named_children[0] if raise_node.named_children else None
    if exception is None:
        return None
    callee = exception.child_by_field_name("function") if exception.type == "call" else exception
    arguments = exception.child_by_field_name("arguments") if exception.type == "call" else None
    first = arguments.named_children[0] if arguments and arguments.named_children else None
    message: str | None = None
    if first is not None and first.type in _LITERALS - {"integer"}:
        message = src.text(first)
    elif first is not None:
        # A message built at run time ("Operator '%s' is not supported" % op.__name__,
        # "...".format(x), a variable): its words are those of its strings, and
        # a message without any is still one the author wrote, not a missing one.
        message = " ".join(src.text(string) for string in _strings_in(first))
    return last_name(src.text(callee)) if callee is not None else "", message


def _strings_in(node: Node) -> list[Node]:
    """The string literals of an expression, in order (those of nested calls too)."""
    if node.type in {"string", "concatenated_string"}:
        return [node]
    return [string for child in node.named_children for string in _strings_in(child)]


def raises_placeholder(
    src: Source, raise_node: Node, options: StubOptions, names: Collection[str] = ()
) -> bool:
    """``raise NotImplementedError[(...)]`` marking missing code, or any error saying so.

    ``names``: the raising function's own name and those it is defined in.
    """
    raised = raise_message(src, raise_node)
    if raised is None:
        return False
    name, message = raised
    if name in NOT_IMPLEMENTED_ERRORS:
        return refusal_is_placeholder(message, options, names)
    return (
        message is not None
        and says_not_implemented(message, options)
        and not says_abstract(message)
    )


def _statements(block: Node) -> list[Node]:
    """A body's statements after its docstring, comments left out."""
    statements = [child for child in block.named_children if child.type != "comment"]
    return statements[1:] if statements and is_docstring(statements[0]) else statements


def is_empty_body(block: Node) -> bool:
    """A body of nothing but a docstring, ``pass`` or ``...``."""
    return all(trivial_kind(statement) for statement in _statements(block))


def does_work(src: Source, block: Node) -> bool:
    """Whether a method's body does something: more than a docstring, ``pass``, ``...``,
    ``return None`` or ``raise NotImplementedError`` (whatever its message: a base's
    refusal declares a member).

    Another literal returned is a default a subclass may turn off: it counts as work.
    """
    statements = _statements(block)
    if all(trivial_kind(statement) for statement in statements):
        return False
    if len(statements) != 1:
        return True
    if statements[0].type == "return_statement":
        value = statements[0].named_children
        return bool(value) and value[0].type != "none"
    if statements[0].type == "raise_statement":
        raised = raise_message(src, statements[0])
        return raised is None or raised[0] not in NOT_IMPLEMENTED_ERRORS
    return True
