"""Where a Python test's assertions cannot fail it, whatever the code under test does.

:func:`swallowing` lists each place: an assertion caught without a re-raise
(``except AssertionError``, ``suppress``), under ``if False``, behind a
``return`` (conditional or not) or a skip raised before it, in a loop over
nothing, inverted by ``pytest.raises(AssertionError)``, ended by a ``finally``
that returns, a ``parametrize`` with no case, and an assertion that can never
fail (a non-empty tuple, a lambda, ``x or True``, ``not (x and False)``); in the
test and in the helpers of its file it calls. The spec
judgement reports those a change added (:func:`~.spec_python_diff.newly_swallowed`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from forge.test_runs.py_assertions import assertions_in, dotted

#: Exceptions a handler catches an assertion with.
_CATCHING = frozenset({"AssertionError", "Exception", "BaseException"})
#: Calls and raises that skip the rest of a test.
_SKIPS = ("skip", "skipTest", "SkipTest", "skip.Exception", "xfail")
#: Context managers that pass when their block raises.
_RAISES = ("raises", "Raises", "assertRaises")


def _asserts(body: list[ast.stmt]) -> bool:
    return any(True for _ in assertions_in(body))


def swallowing(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    helpers: Mapping[str, ast.FunctionDef | ast.AsyncFunctionDef] | None = None,
) -> list[tuple[int, str]]:
    """Where a test's assertions cannot fail it: caught, returned or skipped before, under
    ``if False`` or in a loop over nothing, inverted by ``pytest.raises(AssertionError)``,
    ended by ``finally: return``, in no case, or always true; and the same in the file's
    ``helpers`` the test calls (said at the call)."""
    found = _swallowed_in(function)
    found += _cut_short(function)
    for decorator in function.decorator_list:
        if _no_case(decorator):
            found.append((decorator.lineno, "parametrized with no case: the test never runs"))
    for node in _own_nodes(function):
        if not isinstance(node, ast.Call):
            continue
        called = dotted(node.func)
        helper = (helpers or {}).get(called)
        if helper is not None and helper is not function:
            found += [
                (node.lineno, f"in helper {called}: {what}") for _, what in _swallowed_in(helper)
            ]
    return found


def _swallowed_in(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, str]]:
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
                names = {dotted(arg) for arg in getattr(expr, "args", [])} & _CATCHING
                if isinstance(expr, ast.Call) and names and dotted(expr).endswith("suppress"):
                    found.append((node.lineno, "assertion swallowed by `suppress(...)`"))
                elif (
                    isinstance(expr, ast.Call)
                    and "AssertionError"
                    in names  # not Exception: `assert f(bad)` raising is honest
                    and dotted(expr).endswith(_RAISES)
                ):
                    shown = ast.unparse(expr)
                    found.append(
                        (node.lineno, f"assertion inverted by `{shown}`: passes when it fails")
                    )
        elif isinstance(node, ast.If | ast.While) and _asserts(node.body):
            if _truth(node.test) is False:
                word = "if" if isinstance(node, ast.If) else "while"
                found.append(
                    (node.lineno, f"assertion under `{word} {ast.unparse(node.test)}:` never runs")
                )
        elif isinstance(node, ast.For | ast.AsyncFor) and _asserts(node.body):
            if _empty(node.iter):
                shown = ast.unparse(node.iter)
                found.append((node.lineno, f"assertion in a loop over `{shown}` never runs"))
        elif isinstance(node, ast.Assert) and _truth(node.test) is True:
            found.append((node.lineno, f"assertion can never fail: `{ast.unparse(node)}`"))
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


def _truth(node: ast.expr) -> bool | None:
    """Whether ``node`` is true whatever is computed (``True``), false whatever
    (``False``), or depends on what runs (``None``): ``(x, "why")``, a lambda and
    ``x or True`` hold; ``x and False`` does not; ``not``, and ``a if c else b`` with a
    known ``c`` or two known sides, follow."""
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict):
        return bool(node.keys if isinstance(node, ast.Dict) else node.elts) or None
    if isinstance(node, ast.Lambda):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _truth(node.operand)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        values = [_truth(value) for value in node.values]
        decisive = isinstance(node.op, ast.Or)  # or: any true is true; and: any false is false
        if decisive in values:
            return decisive
        return None if None in values else not decisive
    if isinstance(node, ast.IfExp):
        test, body, orelse = _truth(node.test), _truth(node.body), _truth(node.orelse)
        if test is not None:
            return body if test else orelse
        return body if body is not None and body == orelse else None
    return None


def _empty(node: ast.expr) -> bool:
    """A loop's iterable that holds nothing: ``[]``, ``()``, ``{}``, ``range(0)``."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    if isinstance(node, ast.Call) and dotted(node) == "range" and node.args:
        counts = [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
        return len(counts) == len(node.args) == 1 and counts[0] == 0
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
