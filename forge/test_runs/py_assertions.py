"""A Python assertion read: what it checks (its kind) of what (its subject), against what.

:func:`assertions_in` reads ``assert`` statements (``x == 6``, ``x is None``,
``isinstance``, ``pytest.approx``, ``abs(x - 6) <= 1``), unittest's
``assert*`` methods and ``pytest.raises`` blocks as :class:`Check`, so that two
revisions of a test can be compared assertion by assertion
(:mod:`.spec_python_diff`).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from dataclasses import dataclass

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


def _absolute_tolerance(
    left: ast.expr, op: ast.cmpop, right: ast.expr
) -> tuple[ast.expr, ast.expr, float] | None:
    """``(x, 6, 1.0)`` for ``abs(x - 6) <= 1`` (``<`` too); None for any other comparison."""
    inside = (
        left.args[0] if isinstance(left, ast.Call) and dotted(left) == "abs" and left.args else None
    )
    if not isinstance(op, ast.LtE | ast.Lt) or not isinstance(inside, ast.BinOp):
        return None
    if not isinstance(inside.op, ast.Sub) or not isinstance(right, ast.Constant):
        return None
    if not isinstance(right.value, int | float) or isinstance(right.value, bool):
        return None
    subject, expected = inside.left, inside.right
    if is_literal(subject) and not is_literal(expected):
        subject, expected = expected, subject
    return subject, expected, float(right.value)


def _assert(node: ast.Assert) -> Check:
    test = node.test
    text, line = ast.unparse(node), node.lineno
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(right, ast.Constant) and right.value is None:
            kind = "notnone" if isinstance(op, ast.IsNot | ast.NotEq) else "none"
            return Check(kind, ast.unparse(test.left), None, text, line)
        bound = _absolute_tolerance(test.left, op, right)
        if bound is not None:  # abs(x - 6) <= 1: x == approx(6, abs=1)
            subject, expected, tolerance = bound
            shown = ast.unparse(expected)
            return Check(
                "approx", ast.unparse(subject), shown, text, line, is_literal(expected), tolerance
            )
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
