"""Python tests read for comparison: each test's body, parametrize cases and assertions.

:func:`python_tests` finds the tests of a file (``test*`` functions, and
methods of ``Test*`` and ``TestCase`` classes) with, for each, a key of its
body that reformatting does not change (``ast.unparse``) and one per
``parametrize`` case (the case's values put in for the parameter names), so a
test moved, renamed or parametrized is still found. :func:`checks_of` lists a
test's assertions as :class:`~.py_assertions.Check` (kind, subject, expected value, tolerance,
exception), helpers of the same file it calls inlined, so two revisions of a
test can be compared assertion by assertion (:mod:`.spec_python_diff`).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

from forge.test_runs.py_assertions import Check, assertions_in, dotted
from forge.test_runs.switched_off import python_tree

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class PyTest:
    """One test function of a file."""

    name: str
    node: ast.FunctionDef | ast.AsyncFunctionDef
    #: Its lines, decorators included, stripped: equal texts need no closer look.
    source: str

    @cached_property
    def body(self) -> str:
        """Its body, layout and docstring aside (computed when asked: it costs)."""
        return _body_key(self.node.body)

    @cached_property
    def cases(self) -> list[str]:
        """The body of each parametrize case, the case's values put in."""
        return _case_bodies(self.node)

    @property
    def line(self) -> int:
        """Where the test is defined."""
        return self.node.lineno


@dataclass
class PyFile:
    """A file's tests and the plain functions a test may call (helpers)."""

    tests: dict[str, PyTest]
    helpers: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    tree: ast.Module


def parse_python(text: str | None) -> PyFile | None:
    """The tests and helpers of ``text``; None when it does not parse.

    Remembered for the last few texts: a base read by several judgements (an
    edit after an edit, the benchmark's variants) is parsed once. Never edit
    what it returns.
    """
    if text is None:
        return None
    return _parsed(text)


@lru_cache(maxsize=8)
def _parsed(text: str) -> PyFile | None:
    tree = python_tree(text)
    if tree is None:
        return None
    lines = text.splitlines()
    tests: dict[str, PyTest] = {}
    helpers = {}
    for node in tree.body:
        if isinstance(node, _FUNCTIONS) and not node.name.startswith("test"):
            helpers[node.name] = node
    for node, owner in _tests(tree):
        name = f"{owner}::{node.name}" if owner else node.name
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        source = "\n".join(line.strip() for line in lines[start - 1 : node.end_lineno])
        tests[name] = PyTest(name, node, source)
    return PyFile(tests, helpers, tree)


def _tests(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    for node in tree.body:
        if isinstance(node, _FUNCTIONS) and node.name.startswith("test"):
            yield node, ""
        elif isinstance(node, ast.ClassDef) and (
            node.name.startswith("Test") or any("TestCase" in dotted(b) for b in node.bases)
        ):
            for item in node.body:
                if isinstance(item, _FUNCTIONS) and item.name.startswith("test"):
                    yield item, node.name


def _body_key(body: list[ast.stmt]) -> str:
    statements = body
    if (
        statements
        and isinstance(statements[0], ast.Expr)
        and isinstance(statements[0].value, ast.Constant)
        and isinstance(statements[0].value.value, str)
    ):
        statements = statements[1:]
    return "\n".join(ast.unparse(statement) for statement in statements)


class _Substitute(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        value = self.values.get(node.id)
        return (
            copy.deepcopy(value) if value is not None and isinstance(node.ctx, ast.Load) else node
        )


def cases_of(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[dict[str, ast.expr]]:
    """The values of each case of the test's ``parametrize`` decorators (their product)."""
    cases: list[dict[str, ast.expr]] = [{}]
    for decorator in node.decorator_list:
        if not (isinstance(decorator, ast.Call) and dotted(decorator).endswith("parametrize")):
            continue
        if len(decorator.args) < 2:
            continue
        names_node, values_node = decorator.args[0], decorator.args[1]
        if isinstance(names_node, ast.Constant) and isinstance(names_node.value, str):
            names = [name.strip() for name in names_node.value.split(",") if name.strip()]
        elif isinstance(names_node, ast.List | ast.Tuple):
            names = [
                n.value
                for n in names_node.elts
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
        else:
            return []
        if not isinstance(values_node, ast.List | ast.Tuple):
            return []
        rows = []
        for value in values_node.elts:
            if isinstance(value, ast.Call) and dotted(value).endswith("param"):
                value = ast.Tuple(elts=list(value.args), ctx=ast.Load())
            items = value.elts if isinstance(value, ast.Tuple) and len(names) > 1 else [value]
            if len(items) != len(names):
                return []
            rows.append(dict(zip(names, items, strict=True)))
        cases = [{**case, **row} for case in cases for row in rows]
    return cases if cases != [{}] else []


def _case_bodies(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    bodies = []
    for case in cases_of(node):
        body = [_Substitute(case).visit(copy.deepcopy(statement)) for statement in node.body]
        bodies.append(_body_key(body))
    return bodies


def inlined(
    body: list[ast.stmt], helpers: dict[str, ast.FunctionDef | ast.AsyncFunctionDef], depth: int = 0
) -> list[ast.stmt]:
    """``body`` with each statement calling a helper of the file replaced by the helper's body.

    A test whose assertions moved into a helper (``check_mul(2, 3, 6)``) keeps
    them: the helper's parameters take the call's arguments.
    """
    out: list[ast.stmt] = []
    for statement in body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        helper = (
            helpers.get(call.func.id)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            else None
        )
        if helper is None or depth > 2 or not isinstance(call, ast.Call):
            out.append(statement)
            continue
        params = [arg.arg for arg in helper.args.args]
        values = dict(zip(params, call.args, strict=False))
        values.update({k.arg: k.value for k in call.keywords if k.arg})
        inner = [_Substitute(values).visit(copy.deepcopy(s)) for s in helper.body]
        out.extend(inlined(inner, helpers, depth + 1))
    return out


def checks_of(
    test: PyTest, helpers: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
) -> list[Check]:
    """The assertions of ``test`` (of every parametrize case, values put in), helpers inlined."""
    cases = cases_of(test.node) or [{}]
    found: list[Check] = []
    seen: set[str] = set()
    for case in cases:
        body = [_Substitute(case).visit(copy.deepcopy(s)) for s in test.node.body]
        for check in assertions_in(inlined(body, helpers)):
            if len(cases) == 1 or check.key not in seen:
                seen.add(check.key)
                found.append(check)
    return found
