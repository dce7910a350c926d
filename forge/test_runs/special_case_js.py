"""JavaScript and TypeScript code answering a spec test's literal call with its literal
expectation (issue 39, case 8), read with the tree-sitter grammars :mod:`.spec_js` uses.

- :func:`js_expectations`: in a test file, ``assert.equal(mul(2, 3), 6)``
  (``strictEqual``, ``deepEqual``, ``deepStrictEqual``; node:assert and chai's
  ``assert``, either order), ``expect(mul(2, 3)).toBe(6)`` (``toEqual``,
  ``toStrictEqual``; chai's ``.to.equal``, ``.to.eql``), every argument a
  literal; ``calc.mul(2, 3)`` and ``new Calc().mul(2, 3)`` call ``mul``.
- :func:`js_literal_answers`: in a module file, a new ``if`` or ternary in a
  function ``f`` (a declaration, a method, a function or arrow assigned to a
  name) whose condition pins ``f``'s parameters to literals (``a === 2 && b ===
  3``, ``==`` too, either side) and whose branch returns a literal, judged by
  :func:`~forge.test_runs.literal_answers.answers_call` like Python's: every
  argument of a spec call pinned, exactly its expected value returned, one
  pinned parameter only when neither value is a base case's; and a new object
  literal in ``f`` holding nothing but such answers (``{ "2,3": 6 }``). A branch or
  table that was already in the same function at the base is not new.

Strings holding a backslash, template strings with substitutions, BigInts and
anything computed are not literals here: such a branch or call is not read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import tree_sitter

from forge.test_runs.literal_answers import Expectation, answers_call, table_answers
from forge.test_runs.spec_js import expect_subject, language_of, node_text
from forge.test_runs.special_case import Finding
from forge.test_runs.switched_off import ecmascript_parser

_NO_VALUE = object()
_ASSERT_EQUAL = frozenset({"equal", "strictEqual", "deepEqual", "deepStrictEqual"})
_EXPECT_EQUAL = frozenset({"toBe", "toEqual", "toStrictEqual", "equal", "equals", "eq", "eql"})
_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
    }
)
_NUMBER = re.compile(r"^(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?$")


def _tree(path: str, text: str | None) -> Any:
    if not text:
        return None
    tree = ecmascript_parser(language_of(path)).parse(text.encode())
    return None if tree.root_node.has_error else tree


def js_expectations(path: str, text: str) -> list[Expectation]:
    """The literal calls and literal expectations of a JavaScript or TypeScript test file."""
    tree = _tree(path, text)
    if tree is None:
        return []
    source = text.encode()
    found = []
    for node in _query(tree, "call", _EQUALITY_QUERY):
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        args = list(arguments.named_children) if arguments is not None else []
        method = node_text(source, callee.child_by_field_name("property"))
        pairs: list[tuple[Any, Any]] = []
        spelled = node_text(source, callee)
        if spelled.startswith("assert.") and method in _ASSERT_EQUAL and len(args) >= 2:
            pairs = [(args[0], args[1]), (args[1], args[0])]
        elif method in _EXPECT_EQUAL and args and ".not." not in spelled:
            subject = expect_subject(source, callee)
            if subject is not None:
                pairs = [(subject, args[0])]
        for call, other in pairs:
            expectation = _expectation(source, call, other, f"{path}:{node.start_point[0] + 1}")
            if expectation is not None:
                found.append(expectation)
                break
    return found


#: Calls of a method named like an equality assertion; their callees are read in Python.
_EQUALITY_QUERY = (
    "(call_expression function: (member_expression property: (property_identifier) @method)"
    ' (#any-of? @method "' + '" "'.join(sorted(_ASSERT_EQUAL | _EXPECT_EQUAL)) + '")) @call'
)
_BRANCH_QUERY = "[(if_statement) (ternary_expression)] @branch"
_queries: dict[tuple[Any, str], Any] = {}


def _query(tree: Any, capture: str, text: str) -> list[Any]:
    """The nodes ``text`` captures as ``capture`` in ``tree``, in document order. Queries run
    in tree-sitter: walking every node in Python costs seconds on a large suite."""
    query = _queries.get((tree.language, text))
    if query is None:
        query = _queries.setdefault((tree.language, text), tree_sitter.Query(tree.language, text))
    found = tree_sitter.QueryCursor(query).captures(tree.root_node).get(capture, [])
    return sorted(found, key=lambda node: node.start_byte)


def _expectation(source: bytes, call: Any, other: Any, where: str) -> Expectation | None:
    if call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    if function is None:
        return None
    if function.type == "member_expression":
        function = function.child_by_field_name("property")
    if function is None or function.type not in {"identifier", "property_identifier"}:
        return None
    expected = _value(source, other)
    arguments = call.child_by_field_name("arguments")
    args = tuple(_value(source, arg) for arg in (arguments.named_children if arguments else []))
    if expected is _NO_VALUE or _NO_VALUE in args:
        return None
    return Expectation(node_text(source, function), args, (), expected, where)


def _value(source: bytes, node: Any) -> Any:
    """A literal's value (numbers integral where they are), ``_NO_VALUE`` for anything else."""
    kind = node.type
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return _value(source, node.named_children[0])
    if kind == "number":
        text = node_text(source, node)
        if not _NUMBER.match(text):
            return _NO_VALUE
        number = float(text.replace("_", ""))
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    if kind in {"string", "template_string"}:
        text = node_text(source, node)
        if "\\" in text or any(c.type == "template_substitution" for c in node.children):
            return _NO_VALUE
        return text[1:-1]
    if kind in {"true", "false"}:
        return kind == "true"
    if kind in {"null", "undefined"}:
        return None
    if (
        kind == "unary_expression"
        and node_text(source, node.child_by_field_name("operator")) == "-"
    ):
        inner = _value(source, node.child_by_field_name("argument"))
        return (
            -inner if isinstance(inner, int | float) and not isinstance(inner, bool) else _NO_VALUE
        )
    if kind == "array":
        items = [_value(source, item) for item in node.named_children]
        return _NO_VALUE if _NO_VALUE in items else items
    return _NO_VALUE


def js_literal_answers(
    path: str, old: str | None, new: str, specs: list[Expectation]
) -> list[Finding]:
    """New branches of ``new`` that answer a spec test's literal call with its literal
    expectation."""
    tree = _tree(path, new)
    if tree is None or not specs:
        return []
    by_name: dict[str, list[Expectation]] = {}
    for spec in specs:
        by_name.setdefault(spec.function, []).append(spec)
    before = {key for key, *_ in _branches(_tree(path, old))}
    found = []
    for key, name, params, branch, bound, answer in _branches(tree):
        if key in before or name not in by_name or not bound.keys() <= set(params):
            continue
        for spec in by_name[name]:
            call = {p: v for p, v in zip(params, spec.args, strict=False) if p}
            if answers_call(bound, answer, call, spec.expected):
                shown = ", ".join(f"{p} === {_js(v)}" for p, v in bound.items())
                message = (
                    f"{name} returns {_js(answer)} when {shown}: the literal answer the spec "
                    f"test at {spec.where} expects, not a computation"
                )
                found.append(Finding(branch.start_point[0] + 1, message))
                break
    tables_before = {key for key, *_ in _tables(_tree(path, old))}
    for key, name, table, entries in _tables(tree):
        wanted = by_name.get(name)
        if key in tables_before or not wanted:
            continue
        answered = [
            next((spec for spec in wanted if table_answers(k, v, spec)), None) for k, v in entries
        ]
        if all(answered) and answered[0] is not None:
            message = (
                f"{name} looks its arguments up in a table of the literal answers the spec "
                f"test at {answered[0].where} expects, not a computation"
            )
            found.append(Finding(table.start_point[0] + 1, message))
    return found


def _tables(tree: Any) -> Iterator[tuple[str, str, Any, list[tuple[Any, Any]]]]:
    """``(key, function, object, entries)`` for each object literal of a named function whose
    every property is a literal key with a literal value (``{ "2,3": 6 }``)."""
    if tree is None:
        return
    source = tree.root_node.text or b""
    for node in _query(tree, "table", "(object) @table"):
        pairs = [child for child in node.named_children if child.type != "comment"]
        if not pairs or any(pair.type != "pair" for pair in pairs):
            continue
        entries = [
            (_key(source, pair), _value(source, pair.child_by_field_name("value")))
            for pair in pairs
        ]
        if any(k is _NO_VALUE or v is _NO_VALUE for k, v in entries):
            continue
        owner = _owner(source, node)
        if owner is not None:
            text = " ".join(node_text(source, node).split())
            yield f"{owner[0]} {text}", owner[0], node, entries


def _key(source: bytes, pair: Any) -> Any:
    """A property's literal key: a string's or a number's value; ``_NO_VALUE`` for a name."""
    key = pair.child_by_field_name("key")
    return (
        _value(source, key) if key is not None and key.type in {"string", "number"} else _NO_VALUE
    )


def _js(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _branches(
    tree: Any,
) -> Iterator[tuple[str, str, list[str], Any, dict[str, Any], Any]]:
    """``(key, function, parameters, branch, bound, answer)`` for each ``if`` or ternary of a
    named function that pins parameters to literals and returns a literal."""
    if tree is None:
        return
    source = tree.root_node.text or b""
    for node in _query(tree, "branch", _BRANCH_QUERY):
        condition = node.child_by_field_name("condition")
        consequence = node.child_by_field_name("consequence")
        bound = _bindings(source, condition) if condition is not None else {}
        answer = _returned(source, node, consequence)
        owner = _owner(source, node) if bound and answer is not _NO_VALUE else None
        if owner is None:
            continue
        name, params = owner
        parts = (name, node_text(source, condition), "?", node_text(source, consequence))
        yield " ".join(" ".join(parts).split()), name, params, node, bound, answer


def _owner(source: bytes, node: Any) -> tuple[str, list[str]] | None:
    """The named function holding ``node`` (through anonymous callbacks), its parameters."""
    while (node := node.parent) is not None:
        if node.type in _FUNCTIONS:
            name = _function_name(source, node)
            if name is not None:
                return name, _parameters(source, node)
    return None


def _function_name(source: bytes, node: Any) -> str | None:
    name = node.child_by_field_name("name")
    if name is not None:
        return node_text(source, name)
    parent = node.parent
    if parent is None:
        return None
    target = None
    if parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
    elif parent.type == "pair":
        target = parent.child_by_field_name("key")
    elif parent.type == "assignment_expression":
        target = parent.child_by_field_name("left")
        if target is not None and target.type == "member_expression":
            target = target.child_by_field_name("property")
    if target is None or target.type not in {"identifier", "property_identifier"}:
        return None
    return node_text(source, target)


def _parameters(source: bytes, function: Any) -> list[str]:
    """Parameter names in order; ``""`` where one is not a plain name (a pattern, a rest)."""
    single = function.child_by_field_name("parameter")
    if single is not None:
        return [node_text(source, single) if single.type == "identifier" else ""]
    parameters = function.child_by_field_name("parameters")
    names = []
    for param in parameters.named_children if parameters is not None else []:
        if param.type == "comment":
            continue
        if param.type in {"required_parameter", "optional_parameter"}:
            param = param.child_by_field_name("pattern")
        elif param.type == "assignment_pattern":
            param = param.child_by_field_name("left")
        plain = param is not None and param.type == "identifier"
        names.append(node_text(source, param) if plain else "")
    return names


def _bindings(source: bytes, node: Any) -> dict[str, Any]:
    """``a === 2 && b === 3`` as ``{"a": 2, "b": 3}``; {} for any other condition."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type != "binary_expression":
        return {}
    operator = node_text(source, node.child_by_field_name("operator"))
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if operator == "&&":
        first, second = _bindings(source, left), _bindings(source, right)
        return {**first, **second} if first and second else {}
    if operator not in {"===", "=="}:
        return {}
    for name, value in ((left, right), (right, left)):
        if name.type == "identifier":
            literal = _value(source, value)
            if literal is not _NO_VALUE:
                return {node_text(source, name): literal}
    return {}


def _returned(source: bytes, branch: Any, consequence: Any) -> Any:
    """The literal a branch answers: a ternary's consequence, an ``if``'s first ``return``."""
    if consequence is None:
        return _NO_VALUE
    if branch.type == "ternary_expression":
        return _value(source, consequence)
    statements = (
        consequence.named_children if consequence.type == "statement_block" else [consequence]
    )
    for statement in statements:
        if statement.type == "return_statement":
            values = [c for c in statement.named_children if c.type != "comment"]
            return _value(source, values[0]) if values else _NO_VALUE
    return _NO_VALUE
