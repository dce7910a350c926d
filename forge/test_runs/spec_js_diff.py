"""A JavaScript or TypeScript spec file at the base against its text now: what the change
took away.

:func:`compare_js` finds each test of the base again (same name, or the same
body anywhere) or reports it removed, compares the assertions of a test found
again (:func:`~forge.test_runs.spec_python_diff.assertion_changes`), and
:func:`js_swallowing` lists where a test's assertions cannot fail it: caught,
returned or skipped before (a conditional ``return`` too), ended by a
``finally`` that returns, under ``if (false)``, or always true
(``assert.ok([...])``, ``x || true``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from forge.test_runs.spec_findings import SpecFinding
from forge.test_runs.spec_js import ASSERT_CALL, JsTest, descendants, js_checks, js_tests, node_text
from forge.test_runs.spec_python_diff import assertion_changes, newly_swallowed

#: Statements that end a ``finally`` block's try early.
_ENDS = {"return_statement", "break_statement", "continue_statement"}
#: A call that skips the rest of a test: node:test's ``t.skip()``, mocha's ``this.skip()``.
_SKIP = re.compile(r"(?:^|\.)(?:skip|todo)$")
_FUNCTION_NODES = {
    "function_expression", "function", "arrow_function", "function_declaration",
    "generator_function", "generator_function_declaration", "method_definition",
}  # fmt: skip


def compare_js(
    path: str, old: str | None, new: str | None, others: dict[str, str | None]
) -> list[SpecFinding]:
    """What the change did to each test of the JavaScript spec file ``path``."""
    before = js_tests(path, old)
    if not before:
        return []
    after = js_tests(path, new) or {}
    pool = [after, *(js_tests(p, t) or {} for p, t in others.items())]
    bodies = {test.body for tests in pool for test in tests.values()}
    findings: list[SpecFinding] = []
    for name, test in before.items():
        found = after.get(name)
        if found is None:
            if test.body in bodies:
                continue
            line = test.node.start_point[0] + 1
            message = f"{name} removed (line {line} at the base); no test with its body is left"
            findings.append(SpecFinding("removed", path, name, message))
            continue
        if found.body != test.body:
            findings += _compare_one(path, name, test, found)
    return findings


def _compare_one(path: str, name: str, old: JsTest, new: JsTest) -> Iterator[SpecFinding]:
    was, now = list(js_checks(old)), list(js_checks(new))
    yield from assertion_changes(path, name, was, now, new.node.start_point[0] + 1)
    yield from newly_swallowed(path, name, js_swallowing(old), js_swallowing(new))


def js_swallowing(test: JsTest) -> list[tuple[int, str]]:
    """Where a JavaScript test's assertions cannot fail it: caught, returned or skipped before
    (conditional too), ended by a ``finally`` that returns, under ``if (false)``, always true."""
    found: list[tuple[int, str]] = []
    source = test.source
    last = max((check.line for check in js_checks(test)), default=0)
    cut: tuple[int, str] | None = None
    for node in _own_nodes(test.node):
        line = node.start_point[0] + 1
        if node.type == "try_statement":
            body = node.child_by_field_name("body")
            handler = node.child_by_field_name("handler")
            finalizer = node.child_by_field_name("finalizer")
            if body is None or not _has_check(source, body):
                continue
            if handler is not None and not any(
                n.type == "throw_statement" for n in descendants(handler)
            ):
                found.append((line, "assertion swallowed by try/catch"))
            if finalizer is not None and any(n.type in _ENDS for n in descendants(finalizer)):
                found.append((line, "assertion swallowed by a `finally` that returns"))
        elif node.type == "if_statement":
            condition = node_text(source, node.child_by_field_name("condition"))
            if condition.strip("() ") in {"false", "0", "null", "undefined"}:
                found.append((line, f"assertion under `if {condition}`"))
        elif node.type == "call_expression" and _always_true(source, node):
            found.append((line, f"assertion can never fail: `{node_text(source, node)}`"))
        if cut is None and line < last:
            if node.type == "return_statement":
                cut = (line, "`return` before its assertions")
            elif node.type == "call_expression" and _SKIP.search(
                node_text(source, node.child_by_field_name("function"))
            ):
                cut = (line, f"`{node_text(source, node)}` skips the test before its assertions")
    return [*found, *([cut] if cut else [])]


def _own_nodes(node: Any) -> Iterator[Any]:
    """``node`` and the nodes under it, in document order, not those of functions defined in it."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if current is not node and current.type in _FUNCTION_NODES:
            continue
        stack.extend(reversed(current.children))


def _always_true(source: bytes, call: Any) -> bool:
    """``assert.ok([...])``, ``assert(() => ...)``, ``assert.ok(x || true)``: a truthiness
    assertion whose argument holds whatever is computed."""
    callee = node_text(source, call.child_by_field_name("function"))
    if not ASSERT_CALL.match(callee) or callee.rsplit(".", 1)[-1] not in {"assert", "ok"}:
        return False
    arguments = call.child_by_field_name("arguments")
    first = (
        arguments.named_children[0] if arguments is not None and arguments.named_children else None
    )
    return first is not None and _holds(source, first)


def _holds(source: bytes, node: Any) -> bool:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type in {"array", "object", "arrow_function", "function_expression", "true"}:
        return True
    if (
        node.type == "binary_expression"
        and node_text(source, node.child_by_field_name("operator")) == "||"
    ):
        return any(
            _holds(source, side)
            for side in (node.child_by_field_name("left"), node.child_by_field_name("right"))
            if side is not None
        )
    return False


def _has_check(source: bytes, node: Any) -> bool:
    return any(True for _ in js_checks(JsTest("", "", node, source)))
