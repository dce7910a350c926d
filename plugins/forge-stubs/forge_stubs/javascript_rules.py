"""JavaScript and TypeScript placeholders: empty bodies and bodies that only throw "not implemented".

Signatures without a body (TypeScript overloads, ``declare``, interface and
abstract members) never match the query. Exempt besides: anything inside a
``declare`` block; members of abstract classes and of classes another class of
the file extends (default hooks); a throw whose message declares an abstract
member ("must be implemented by subclasses"); and empty bodies that are
values rather than units of work left undone:

- an anonymous function, or one in an object literal, handed to a call
  (``promise.catch(() => {})``, ``onClick={() => {}}``, ``{then: () => {}}``,
  ``createSlice({reducers: {reset() {}}})``);
- a no-op stored at run time (``this.flush = async () => {}``,
  ``x.check ?? (x.check = () => {})``, ``e.persist = () => {}`` on a
  parameter), or held by a ``let`` its scope assigns again;
- a cast for the type checker: ``assertCast<T>(v: any): asserts v is T {}``;
- ``noop`` and friends, ``close``/``flush``/``dispose`` with nothing to
  release, functions whose parameters are all ``_``-named (``assertIs<T>(_arg:
  T): void {}``), and a constructor whose parameters are TypeScript parameter
  properties (``constructor(private readonly db: Db) {}``);
- in test code, everything but the tests themselves: an empty ``it(...)`` or
  ``test(...)`` body still counts.
"""

from __future__ import annotations

from pathlib import PurePath

from tree_sitter import Node

from forge_stubs.functions import (
    FileFacts,
    Function,
    Placeholder,
    is_test_file,
    refusal_is_placeholder,
    says_abstract,
    says_not_implemented,
    stands_in,
)
from forge_stubs.javascript_deliberate import deliberate
from forge_stubs.javascript_names import extended_classes, function_name, in_ambient
from forge_stubs.options import StubOptions
from forge_stubs.source import Source

_STRINGS = {"string", "template_string"}
_LITERALS = _STRINGS | {"number", "true", "false", "null", "undefined"}


def functions(
    src: Source,
    options: StubOptions,
    path: PurePath,
    extended: frozenset[str],
    overrides: frozenset[str] = frozenset(),
) -> list[Function]:
    """Every function of the file with a body, with its placeholder body if it has one.

    ``extended`` names classes other files extend, beside those this file extends;
    ``overrides`` the methods (``Class.method``) that override one doing real
    work in a base class of another file.
    """
    facts = FileFacts(
        test_file=is_test_file(path) or stands_in(path),
        extended=extended_classes(src) | extended,
        overrides=overrides,
    )
    found = []
    for match in src.matches("javascript"):
        node, body = match["function"], match["body"]
        name = function_name(src, node)
        placeholder = None if in_ambient(node) else _placeholder(src, node, body, options)
        if placeholder is not None and deliberate(src, node, name, placeholder, facts):
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
    if len(statements) == 1 and statements[0].type == "return_statement":
        values = statements[0].named_children
        if len(values) == 1 and _is_literal(values[0]):
            return ("hardcoded_return", statements[0])
    if len(statements) == 1 and statements[0].type == "throw_statement":
        thrown = statements[0].named_children[0] if statements[0].named_children else None
        if thrown is not None and _throws_placeholder(src, thrown, options):
            return ("not_implemented", statements[0])
    return None


def _is_literal(node: Node) -> bool:
    if node.type in _LITERALS:
        return not any(child.type == "template_substitution" for child in node.named_children)
    if node.type == "unary_expression":
        operand = node.child_by_field_name("argument")
        return operand is not None and _is_literal(operand)
    if node.type == "pair":
        value = node.child_by_field_name("value")
        return value is not None and _is_literal(value)
    if node.type in {"array", "object", "parenthesized_expression"}:
        return all(_is_literal(child) for child in node.named_children if child.type != "comment")
    return False


def _throws_placeholder(src: Source, thrown: Node, options: StubOptions) -> bool:
    """``new Error("not implemented")``, ``Error("TODO")``, ``new NotImplementedError()``, a string."""
    if thrown.type in _STRINGS:
        return says_not_implemented(src.text(thrown), options)
    if thrown.type not in {"new_expression", "call_expression"}:
        return False
    callee = thrown.child_by_field_name(
        "constructor" if thrown.type == "new_expression" else "function"
    )
    arguments = thrown.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments and arguments.named_children else None
    message = src.text(first) if first is not None and first.type in _STRINGS else None
    if callee is not None and "notimplemented" in src.text(callee).lower().replace("_", ""):
        return refusal_is_placeholder(message, options)
    return (
        message is not None
        and says_not_implemented(message, options)
        and not says_abstract(message)
    )
