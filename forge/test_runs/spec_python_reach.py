"""Where a Python test's assertions cannot fail it, whatever the code under test does.

:func:`swallowing` lists each place: an assertion caught without a re-raise
(``except AssertionError``, ``suppress``), under ``if False``, behind a
``return`` (conditional or not) or a skip raised before it, ended by a
``finally`` that returns, a ``parametrize`` with no case, and an assertion
that can never fail (a non-empty tuple, a lambda, ``x or True``). The spec
judgement reports those a change added (:func:`~.spec_python_diff.newly_swallowed`).
"""

from __future__ import annotations

import ast

from forge.test_runs.py_assertions import assertions_in, dotted

#: Exceptions a handler catches an assertion with.
_CATCHING = frozenset({"AssertionError", "Exception", "BaseException"})
#: Calls and raises that skip the rest of a test.
_SKIPS = ("skip", "skipTest", "SkipTest", "skip.Exception", "xfail")


def _asserts(body: list[ast.stmt]) -> bool:
    return any(True for _ in assertions_in(body))


def swallowing(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, str]]:
    """Where a test's assertions cannot fail it: caught, returned or skipped before, under
    ``if False``, ended by ``finally: return``, in no case, or always true."""
    found: list[tuple[int, str]] = []
    for node in _own_nodes(function):
        if isinstance(node, ast.Try) and _asserts(node.body):
            for handler in node.handlers:
                caught = _caught(handler.type)
                raises = any(isinstance(n, ast.Raise) for s in handler.body for n in ast.walk(s))
                if caught and not raises:
                    found.append(
                        (node.lineno, f"assertion swallowed by `except {caught}` (no re-raise)")
                    )
            ends = [
                s for s in node.finalbody if isinstance(s, ast.Return | ast.Break | ast.Continue)
            ]
            if ends:
                word = type(ends[0]).__name__.lower()
                found.append((ends[0].lineno, f"assertion swallowed by `finally: {word}`"))
        elif isinstance(node, ast.With | ast.AsyncWith) and _asserts(node.body):
            for item in node.items:
                expr = item.context_expr
                if isinstance(expr, ast.Call) and dotted(expr).endswith("suppress"):
                    names = {dotted(arg) for arg in expr.args}
                    if names & _CATCHING:
                        found.append((node.lineno, "assertion swallowed by `suppress(...)`"))
        elif isinstance(node, ast.If | ast.While) and _asserts(node.body):
            test = node.test
            if isinstance(test, ast.Constant) and not test.value:
                found.append((node.lineno, f"assertion under `if {ast.unparse(test)}:` never runs"))
        elif isinstance(node, ast.Assert) and _always_true(node.test):
            found.append((node.lineno, f"assertion can never fail: `{ast.unparse(node)}`"))
    found += _cut_short(function)
    for decorator in function.decorator_list:
        if _no_case(decorator):
            found.append((decorator.lineno, "parametrized with no case: the test never runs"))
    return found


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes of ``function``'s body, not those of functions or classes defined in it."""
    nodes: list[ast.AST] = []
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        nodes.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return nodes


def _cut_short(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, str]]:
    """The first ``return`` or skip (any depth, conditional too) before the test's last assertion."""
    last = max((check.line for check in assertions_in(function.body)), default=0)
    # A skip call on the test's own level is the switched_off check's to report.
    on_level = [s.value for s in function.body if isinstance(s, ast.Expr)]
    for node in _own_nodes(function):
        line = getattr(node, "lineno", 0)
        if not last or line >= last:
            continue
        if isinstance(node, ast.Return):
            return [(line, "`return` before its assertions")]
        if isinstance(node, ast.Raise):
            skip = node.exc
        elif isinstance(node, ast.Call) and not any(node is call for call in on_level):
            skip = node
        else:
            continue
        if skip is not None and dotted(skip).endswith(_SKIPS):
            return [(line, f"`{ast.unparse(node)}` skips the test before its assertions")]
    return []


def _always_true(test: ast.expr) -> bool:
    """An assertion's test that holds whatever is computed: a non-empty tuple (``assert (x ==
    6, "why")``), a lambda, a true constant, ``x or True``."""
    if isinstance(test, ast.Tuple):
        return bool(test.elts)
    if isinstance(test, ast.Lambda):
        return True
    if isinstance(test, ast.Constant):
        return bool(test.value) and not isinstance(test.value, str)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(_always_true(value) for value in test.values)
    return False


def _no_case(decorator: ast.expr) -> bool:
    """``@pytest.mark.parametrize(names, [])``: a parametrize that gives no case at all."""
    if not (isinstance(decorator, ast.Call) and dotted(decorator).endswith("parametrize")):
        return False
    values = decorator.args[1] if len(decorator.args) > 1 else None
    values = next((k.value for k in decorator.keywords if k.arg == "argvalues"), values)
    return isinstance(values, ast.List | ast.Tuple) and not values.elts


def _caught(node: ast.expr | None) -> str:
    if node is None:
        return "(everything)"
    names = [dotted(e) for e in node.elts] if isinstance(node, ast.Tuple) else [dotted(node)]
    return next((name for name in names if name in _CATCHING), "")
