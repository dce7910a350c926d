"""JavaScript and TypeScript spec files at the base against now (mocha, jest, vitest, node:test).

A test is an ``it``/``test``/``specify`` call, named by its ``describe``
titles and its own joined with `` > ``; its body is compared token by token
(layout and comments aside), so a test moved or renamed with its body is
found again. Assertions (``assert.strictEqual``, ``assert.ok``,
``expect(x).toBe(y)``, chai's ``expect(x).to.equal(y)`` and ``.to.be.ok``,
``toThrow``, ``toBeCloseTo``) become :class:`~forge.test_runs.py_assertions.Check`
values; :mod:`.spec_js_diff` compares two revisions and judges them by
:func:`~forge.test_runs.spec_python_diff.judge_pair` like Python's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from forge.test_runs.file_kinds import LANGUAGES
from forge.test_runs.py_assertions import Check
from forge.test_runs.switched_off import ecmascript_parser

_TESTS = {
    "it", "test", "specify", "it.only", "test.only", "it.skip", "test.skip", "xit", "fit",
    "xtest", "it.skipIf", "test.skipIf", "it.runIf", "test.runIf",
}  # fmt: skip
_BLOCKS = {
    "describe", "suite", "context", "describe.only", "describe.skip", "xdescribe",
    "describe.skipIf", "describe.runIf",
}  # fmt: skip
_EQUAL = {
    "equal", "equals", "eq", "eql", "toBe", "toEqual", "toStrictEqual", "strictEqual",
    "deepEqual", "deepStrictEqual", "is", "same",
}  # fmt: skip
_WEAK = {
    "ok": "truthy", "toBeTruthy": "truthy", "true": "truthy", "exist": "notnone",
    "toBeDefined": "notnone", "defined": "notnone", "toBeInstanceOf": "isinstance",
    "instanceOf": "isinstance", "instanceof": "isinstance", "a": "isinstance", "an": "isinstance",
    "notStrictEqual": "ne", "notEqual": "ne", "notDeepStrictEqual": "ne", "include": "in",
    "includes": "in", "contain": "in", "toContain": "in", "match": "in", "toMatch": "in",
    "above": "order", "below": "order", "toBeGreaterThan": "order", "toBeLessThan": "order",
}  # fmt: skip
_THROWS = {"throws", "throw", "toThrow", "rejects", "toThrowError", "rejectedWith"}
#: A call of node:assert or chai's assert (``assert``, ``assert.x``, ``t.assert.x``).
ASSERT_CALL = re.compile(r"^(?:[A-Za-z_$][\w$]*\.)?assert\b")
_LITERALS = {"number", "string", "true", "false", "null", "undefined", "template_string"}


@dataclass
class JsTest:
    """One test call: its name, body tokens, assertions and its node."""

    name: str
    body: str
    node: Any
    source: bytes


def node_text(source: bytes, node: Any) -> str:
    """The source text of a tree-sitter node."""
    return source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def language_of(path: str) -> str:
    """The tree-sitter language of a JavaScript or TypeScript file."""
    return LANGUAGES.get(PurePath(path).suffix.lower(), "javascript")


def js_tests(path: str, text: str | None) -> dict[str, JsTest] | None:
    """The tests of a JavaScript or TypeScript file by name; None when it does not parse."""
    if text is None:
        return None
    source = text.encode()
    tree = ecmascript_parser(language_of(path)).parse(source)
    if tree.root_node.has_error:
        return None
    found: dict[str, JsTest] = {}
    _walk(tree.root_node, source, [], found)
    return found


def _walk(node: Any, source: bytes, titles: list[str], found: dict[str, JsTest]) -> None:
    for child in node.named_children:
        if child.type == "call_expression":
            callee = child.child_by_field_name("function")
            arguments = child.child_by_field_name("arguments")
            if callee is not None and callee.type == "call_expression":
                callee = callee.child_by_field_name("function")  # test.skipIf(c)("x", fn)
            spelled = node_text(source, callee) if callee is not None else ""
            title = _title(source, arguments)
            callback = _callback(arguments)
            if spelled in _TESTS and callback is not None:
                name = " > ".join([*titles, title])
                body = callback.child_by_field_name("body")
                tokens = _tokens(source, body) if body is not None else ""
                found.setdefault(name, JsTest(name, tokens, body, source))
                continue
            if spelled in _BLOCKS and callback is not None:
                _walk(callback, source, [*titles, title], found)
                continue
        _walk(child, source, titles, found)


def _title(source: bytes, arguments: Any) -> str:
    for child in arguments.named_children if arguments is not None else []:
        if child.type in {"string", "template_string"}:
            return node_text(source, child)[1:-1]
    return ""


def _callback(arguments: Any) -> Any:
    for child in arguments.named_children if arguments is not None else []:
        if child.type in {"arrow_function", "function_expression", "function"}:
            return child
    return None


def _tokens(source: bytes, node: Any) -> str:
    """The leaves of ``node``, comments left out: its text whatever the layout."""
    out: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "comment":
            continue
        if current.child_count == 0 or current.type in {"string", "template_string"}:
            out.append(node_text(source, current).replace('"', "'"))
            continue
        stack.extend(reversed(current.children))
    return " ".join(token for token in out if token not in {";", ","})


def js_checks(test: JsTest) -> Iterator[Check]:
    """The assertions of a test's body."""
    source = test.source
    stack = [test.node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type not in {"call_expression", "member_expression"}:
            continue
        check = _check(source, node)
        if check is not None:
            yield check


def _check(source: bytes, node: Any) -> Check | None:
    line = node.start_point[0] + 1
    text = node_text(source, node)
    if node.type == "call_expression":
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        args = list(arguments.named_children) if arguments is not None else []
        spelled = node_text(source, callee)
        # ``assert.x`` and node:test's context ``t.assert.x``.
        if ASSERT_CALL.match(spelled) and "expect(" not in spelled:
            method = spelled.rsplit(".", 1)[-1] if "." in spelled else "ok"
            if method in _EQUAL and len(args) >= 2:
                return _pair("eq", source, args[0], args[1], text, line)
            if method in _THROWS:
                expected = node_text(source, args[1]) if len(args) > 1 else ""
                return Check("raises", "", expected, text, line, literal=len(args) > 1)
            if method in _WEAK and args:
                bound = _absolute_tolerance(source, args[0])
                if bound is not None:  # Math.abs(x - 6) <= 1
                    near, target, allowed = bound
                    return Check(
                        "approx",
                        _tokens(source, near),
                        _tokens(source, target),
                        text,
                        line,
                        _literal(target),
                        allowed,
                    )
                return Check(_WEAK[method], _tokens(source, args[0]), None, text, line)
            return None
        if callee is None or callee.type != "member_expression":
            return None
        subject = expect_subject(source, callee)
        if subject is None:
            return None
        method = node_text(source, callee.child_by_field_name("property"))
        negated = ".not." in node_text(source, callee)
        if method in _EQUAL and args and not negated:
            return _pair("eq", source, subject, args[0], text, line)
        if method == "toBeCloseTo" and args:
            digits = node_text(source, args[1]) if len(args) > 1 else "2"
            tolerance = 10.0 ** -int(digits) if digits.isdigit() else None
            check = _pair("eq", source, subject, args[0], text, line)
            return Check(
                "approx", check.subject, check.expected, text, line, check.literal, tolerance
            )
        if method in _THROWS:
            expected = node_text(source, args[0]) if args else ""
            return Check("raises", "", expected, text, line, literal=bool(args))
        if method in _WEAK or (
            negated and method in {"toBeNull", "toBeUndefined", "null", "undefined"}
        ):
            kind = _WEAK.get(method, "notnone")
            return Check(kind, _tokens(source, subject), None, text, line)
        return None
    # chai's property assertions: expect(x).to.be.ok, expect(x).to.exist
    prop = node.child_by_field_name("property")
    parent = node.parent
    if prop is None or (
        parent is not None and parent.type in {"call_expression", "member_expression"}
    ):
        return None
    method = node_text(source, prop)
    subject = expect_subject(source, node)
    if subject is None or method not in _WEAK:
        return None
    return Check(_WEAK[method], _tokens(source, subject), None, text, line)


def _absolute_tolerance(source: bytes, node: Any) -> tuple[Any, Any, float] | None:
    """``(x, 6, 1.0)`` for ``Math.abs(x - 6) <= 1`` (``<`` too); None for anything else."""
    if node.type != "binary_expression":
        return None
    operator = node_text(source, node.child_by_field_name("operator"))
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if operator not in {"<=", "<"} or left is None or right is None or right.type != "number":
        return None
    if left.type != "call_expression":
        return None
    if node_text(source, left.child_by_field_name("function")) != "Math.abs":
        return None
    arguments = left.child_by_field_name("arguments")
    inside = (
        arguments.named_children[0] if arguments is not None and arguments.named_children else None
    )
    if inside is None or inside.type != "binary_expression":
        return None
    if node_text(source, inside.child_by_field_name("operator")) != "-":
        return None
    try:
        tolerance = float(node_text(source, right).replace("_", ""))
    except ValueError:
        return None
    subject, expected = inside.child_by_field_name("left"), inside.child_by_field_name("right")
    if _literal(subject) and not _literal(expected):
        subject, expected = expected, subject
    return subject, expected, tolerance


def expect_subject(source: bytes, member: Any) -> Any:
    """``x`` of an ``expect(x)...`` chain."""
    node = member
    while node is not None and node.type in {"member_expression", "call_expression"}:
        if node.type == "call_expression":
            callee = node.child_by_field_name("function")
            if callee is not None and node_text(source, callee) == "expect":
                arguments = node.child_by_field_name("arguments")
                args = arguments.named_children if arguments is not None else []
                return args[0] if args else None
            node = callee
        else:
            node = node.child_by_field_name("object")
    return None


def _literal(node: Any) -> bool:
    if node.type in _LITERALS:
        return node.type != "template_string" or not any(
            c.type == "template_substitution" for c in node.children
        )
    if node.type == "unary_expression":
        return all(_literal(c) for c in node.named_children)
    if node.type in {"array", "object", "pair"}:
        return all(_literal(c) or c.type == "property_identifier" for c in node.named_children)
    return False


def _pair(kind: str, source: bytes, subject: Any, expected: Any, text: str, line: int) -> Check:
    if _literal(subject) and not _literal(expected):
        subject, expected = expected, subject
    return Check(
        kind,
        _tokens(source, subject),
        _tokens(source, expected),
        text,
        line,
        literal=_literal(expected),
    )


def descendants(node: Any) -> Iterator[Any]:
    """``node`` and every node under it, in document order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))
