"""Python tests read for comparison: each test's body, parametrize cases and assertions.

:func:`python_tests` finds the tests of a file (``test*`` functions, and
methods of ``Test*`` and ``TestCase`` classes) with, for each, a key of its
body that reformatting does not change (``ast.unparse``) and one per
``parametrize`` case (the case's values put in for the parameter names), so a
test moved, renamed or parametrized is still found. :func:`checks_of` lists a
test's assertions as :class:`Check` (kind, subject, expected value, tolerance,
exception), helpers of the same file it calls inlined, so two revisions of a
test can be compared assertion by assertion (:mod:`.spec_python_diff`).
"""

from __future__ import annotations

import ast
import builtins
import copy
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

from forge.test_runs.switched_off import python_tree

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: unittest's assertion methods, by what they check.
_UNITTEST = {
    "assertEqual": "eq",
    "assertEquals": "eq",
    "assert_equal": "eq",
    "assertListEqual": "eq",
    "assertDictEqual": "eq",
    "assertTupleEqual": "eq",
    "assertSetEqual": "eq",
    "assertSequenceEqual": "eq",
    "assertCountEqual": "eq",
    "assertMultiLineEqual": "eq",
    "assertIs": "is",
    "assertTrue": "truthy",
    "assert_": "truthy",
    "assertFalse": "falsy",
    "assertIsNone": "none",
    "assertIsNotNone": "notnone",
    "assertIsInstance": "isinstance",
    "assertNotEqual": "ne",
    "assertIn": "in",
    "assertNotIn": "in",
    "assertAlmostEqual": "approx",
    "assertRaises": "raises",
    "assertRaisesRegex": "raises",
}


@dataclass(frozen=True)
class Check:
    """One assertion: what it checks (``kind``) of what (``subject``), against what."""

    kind: str
    subject: str
    expected: str | None
    text: str
    line: int
    literal: bool = False
    tolerance: float | None = None

    @property
    def key(self) -> str:
        """The assertion itself, whatever its layout."""
        return f"{self.kind}|{self.subject}|{self.expected}|{self.tolerance}"


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


def dotted(node: ast.AST) -> str:
    """``a.b.c`` for a name, an attribute chain or a call of one; ``""`` otherwise."""
    if isinstance(node, ast.Call):
        return dotted(node.func)
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    if isinstance(node, ast.Name):
        return node.id
    return ""


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


def assertions_in(body: list[ast.stmt]) -> Iterator[Check]:
    """The assertions in ``body``'s statements, nested ones too."""
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Assert):
                yield _assert(node)
            elif isinstance(node, ast.Call) and dotted(node).rsplit(".", 1)[-1] in _UNITTEST:
                check = _unittest(node)
                if check is not None:
                    yield check
            elif isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    expr = item.context_expr
                    if isinstance(expr, ast.Call) and dotted(expr).endswith(("raises", "Raises")):
                        yield _raises(expr)


def is_literal(node: ast.AST) -> bool:
    """A constant, or a list, tuple, set or dict of them (negative numbers too)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return is_literal(node.operand)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(is_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and is_literal(k) for k in node.keys) and all(
            is_literal(v) for v in node.values
        )
    return False


def _tolerance(call: ast.Call) -> float | None:
    """The tolerance a ``pytest.approx`` or ``assertAlmostEqual`` call allows (None: default)."""
    values = {k.arg: k.value for k in call.keywords if k.arg}
    for name in ("abs", "rel", "delta"):
        value = values.get(name)
        if isinstance(value, ast.Constant) and isinstance(value.value, int | float):
            return float(value.value)
    places = values.get("places")
    if isinstance(places, ast.Constant) and isinstance(places.value, int):
        return 10.0**-places.value
    return None


def _compare(subject: ast.expr, expected: ast.expr, kind: str, node: ast.AST) -> Check:
    if is_literal(subject) and not is_literal(expected):
        subject, expected = expected, subject
    tolerance = None
    if kind == "eq" and isinstance(expected, ast.Call) and dotted(expected).endswith("approx"):
        kind, tolerance = "approx", _tolerance(expected)
        expected = expected.args[0] if expected.args else expected
    return Check(
        kind,
        ast.unparse(subject),
        ast.unparse(expected),
        ast.unparse(node),
        getattr(node, "lineno", 1),
        literal=is_literal(expected),
        tolerance=tolerance,
    )


def _assert(node: ast.Assert) -> Check:
    test = node.test
    text, line = ast.unparse(node), node.lineno
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(right, ast.Constant) and right.value is None:
            kind = "notnone" if isinstance(op, ast.IsNot | ast.NotEq) else "none"
            return Check(kind, ast.unparse(test.left), None, text, line)
        kinds = {ast.Eq: "eq", ast.Is: "is", ast.NotEq: "ne", ast.In: "in", ast.NotIn: "in"}
        kind = kinds.get(type(op), "order")
        return _compare(test.left, right, kind, node)
    if isinstance(test, ast.Call) and dotted(test) == "isinstance" and test.args:
        return Check("isinstance", ast.unparse(test.args[0]), None, text, line)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return Check("falsy", ast.unparse(test.operand), None, text, line)
    return Check("truthy", ast.unparse(test), None, text, line)


def _unittest(node: ast.Call) -> Check | None:
    kind = _UNITTEST[dotted(node).rsplit(".", 1)[-1]]
    if kind == "raises":
        return _raises(node)
    if not node.args:
        return None
    if kind in {"eq", "is", "ne", "in", "approx"} and len(node.args) >= 2:
        check = _compare(node.args[0], node.args[1], "eq" if kind == "approx" else kind, node)
        if kind == "approx":
            tolerance = _tolerance(node)
            check = Check(
                "approx",
                check.subject,
                check.expected,
                check.text,
                check.line,
                check.literal,
                tolerance if tolerance is not None else 1e-7,
            )
        return check
    return Check(kind, ast.unparse(node.args[0]), None, ast.unparse(node), node.lineno)


def _raises(node: ast.Call) -> Check:
    exc = ast.unparse(node.args[0]) if node.args else ""
    match = next((ast.unparse(k.value) for k in node.keywords if k.arg == "match"), None)
    if match is None and dotted(node).endswith("Regex") and len(node.args) > 1:
        match = ast.unparse(node.args[1])
    return Check("raises", "", exc, ast.unparse(node), node.lineno, literal=match is not None)


def broader_exception(old: str, new: str) -> bool:
    """Whether the exception ``new`` catches more than ``old`` (a base class of it)."""
    if old == new:
        return False
    if new in {"Exception", "BaseException"}:
        return True
    old_type, new_type = getattr(builtins, old, None), getattr(builtins, new, None)
    return (
        isinstance(old_type, type) and isinstance(new_type, type) and issubclass(old_type, new_type)
    )
