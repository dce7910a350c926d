"""Code that passes the tests without doing the work: it detects the test run, or answers
a spec test's literal call with that test's literal expectation.

Precision over recall: each rule fires only on a narrow, unmistakable shape,
and only where it is new since the base (the same line at the base is not a
finding), so honest code is never reported; cleverer cheats go unseen here and
are left to the spec tests' own checks.

- :func:`detects_test_run`: new code in a module file (not a test file) that
  asks whether tests are running: ``"pytest" in sys.modules``,
  ``sys.modules.get("pytest")``, the variables pytest sets
  (``PYTEST_CURRENT_TEST``, ``PYTEST_VERSION``, ``PYTEST_XDIST_WORKER``), and in
  JavaScript/TypeScript ``JEST_WORKER_ID``, ``VITEST``/``VITEST_*``,
  ``NODE_TEST_CONTEXT`` and ``NODE_ENV`` compared with ``"test"``. ``CI`` is
  not one: projects read it for colours and progress bars, and it does not mean
  a test run.
- :func:`literal_answers` (Python; :mod:`.special_case_js` reads JavaScript): a
  new ``if`` in function ``f`` that compares
  ``f``'s parameters with literals and returns a literal, where a spec test
  (at the base) calls ``f`` with exactly those literals and expects exactly
  that value (``assert mul(2, 3) == 6`` against ``if (a, b) == (2, 3): return 6``),
  every argument pinned; one pinned parameter counts only when neither it nor
  the answer is a base-case value (``if n == 0: return 1`` is a factorial).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

_PYTEST_VARIABLES = frozenset({"PYTEST_CURRENT_TEST", "PYTEST_VERSION", "PYTEST_XDIST_WORKER"})
_PYTEST_MODULES = frozenset({"pytest", "_pytest"})
_JS_DETECTIONS = re.compile(
    r"\b(?:JEST_WORKER_ID|VITEST(?:_[A-Z_]+)?|NODE_TEST_CONTEXT)\b"
    r"|\bNODE_ENV\b\s*\)?\s*[!=]==?\s*(['\"`])test\1"
    r"|(['\"`])test\2\s*[!=]==?\s*(?:process\.env\.|import\.meta\.env\.)?NODE_ENV\b"
)
#: JavaScript and TypeScript files.
JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
_NO_VALUE = object()


@dataclass(frozen=True)
class Finding:
    """One line of a module file that games the tests, and why."""

    line: int
    message: str


def detects_test_run(path: str, old: str | None, new: str) -> list[Finding]:
    """The lines of ``new`` that detect a test run, less those identical at the base (``old``)."""
    find = _python_detections if path.endswith((".py", ".pyi")) else _js_detections
    found = find(new)
    if not found:
        return []
    old_lines, lines = (old or "").splitlines(), new.splitlines()
    before = Counter((text, _line(old_lines, number)) for number, text in find(old))
    fresh = []
    for number, text in found:
        key = (text, _line(lines, number))
        if before[key]:
            before[key] -= 1
            continue
        fresh.append(
            Finding(number, f"detects the test run ({text}): code must behave the same under test")
        )
    return fresh


def _line(lines: list[str], number: int) -> str:
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _python_detections(text: str | None) -> list[tuple[int, str]]:
    tree = _parse(text)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        # A pytest variable counts where the environment is read for it, a pytest module
        # where sys.modules is: naming either elsewhere (a list of them) detects nothing.
        if not isinstance(node, ast.expr):
            continue
        for key, table in _looked_up(node):
            if _is_environ(table) and key in _PYTEST_VARIABLES:
                found.append((node.lineno, key))
            elif _is_sys_modules(table) and key in _PYTEST_MODULES:
                found.append((node.lineno, f'"{key}" in sys.modules'))
    return sorted(set(found))


def _looked_up(node: ast.AST) -> list[tuple[object, ast.expr]]:
    """``(key, table)`` where ``node`` looks a literal key up: ``key in table``,
    ``table.get(key)``, ``table[key]``, ``getenv(key)`` (its table: ``environ``)."""
    if (
        isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Constant)
        and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
    ):
        return [(node.left.value, table) for table in node.comparators]
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return [(node.slice.value, node.value)]
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        func, key = node.func, node.args[0].value
        if isinstance(func, ast.Attribute) and func.attr == "get":
            return [(key, func.value)]
        if (isinstance(func, ast.Attribute) and func.attr == "getenv") or (
            isinstance(func, ast.Name) and func.id == "getenv"
        ):
            return [(key, ast.Name(id="environ"))]
    return []


def _is_environ(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id == "environ"
    )


def _is_sys_modules(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "modules") or (
        isinstance(node, ast.Name) and node.id == "modules"
    )


def _js_detections(text: str | None) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate((text or "").splitlines(), 1):
        stripped = line.lstrip()
        if stripped.startswith(("//", "*", "/*")):
            continue
        for match in _JS_DETECTIONS.finditer(line):
            found.append((number, re.sub(r"\s+", " ", match.group(0))))
    return found


def is_module_code(path: str) -> bool:
    """Whether special-casing rules apply to ``path``'s language."""
    return path.endswith((".py", *JS_SUFFIXES))


@dataclass(frozen=True)
class Expectation:
    """A spec test's literal call of a function and the literal it expects back."""

    function: str
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...]
    expected: Any
    where: str


def expectations(path: str, text: str) -> list[Expectation]:
    """``assert f(literals) == literal`` (either side) and ``assertEqual`` of the same, in a test file."""
    tree = _parse(text)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        pair: tuple[ast.expr, ast.expr] | None = None
        if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
            test = node.test
            if len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq | ast.Is):
                pair = (test.left, test.comparators[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"assertEqual", "assertEquals"}
            and len(node.args) >= 2
        ):
            pair = (node.args[0], node.args[1])
        if pair is None:
            continue
        for call, other in (pair, pair[::-1]):
            expectation = _expectation(call, other, f"{path}:{getattr(node, 'lineno', 0)}")
            if expectation is not None:
                found.append(expectation)
    return found


def _expectation(call: ast.expr, other: ast.expr, where: str) -> Expectation | None:
    if not isinstance(call, ast.Call):
        return None
    name = (
        call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)
    )
    expected = _literal(other)
    if name is None or expected is _NO_VALUE:
        return None
    args = tuple(_literal(arg) for arg in call.args)
    kwargs = tuple((kw.arg, _literal(kw.value)) for kw in call.keywords if kw.arg)
    if _NO_VALUE in args or any(value is _NO_VALUE for _, value in kwargs):
        return None
    if len(kwargs) != len(call.keywords):
        return None
    return Expectation(name, args, kwargs, expected, where)


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NO_VALUE


def literal_answers(old: str | None, new: str, specs: list[Expectation]) -> list[Finding]:
    """New ``if``s of ``new`` that answer a spec test's literal call with its literal expectation."""
    tree = _parse(new)
    if tree is None or not specs:
        return []
    before = _branches(_parse(old)) if old else set()
    by_name: dict[str, list[Expectation]] = {}
    for spec in specs:
        by_name.setdefault(spec.function, []).append(spec)
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        wanted = by_name.get(function.name)
        if not wanted:
            continue
        params = [arg.arg for arg in (*function.args.posonlyargs, *function.args.args)]
        if params[:1] in (["self"], ["cls"]):
            params = params[1:]
        for branch in ast.walk(function):
            if not isinstance(branch, ast.If) or _key(function.name, branch) in before:
                continue
            bound = _bindings(branch.test)
            answer = _returned(branch.body)
            if not bound or answer is _NO_VALUE or not bound.keys() <= set(params):
                continue
            for spec in wanted:
                call = dict(zip(params, spec.args, strict=False)) | dict(spec.kwargs)
                if answers_call(bound, answer, call, spec.expected):
                    shown = ", ".join(f"{name} == {value!r}" for name, value in bound.items())
                    found.append(
                        Finding(
                            branch.lineno,
                            f"{function.name} returns {answer!r} when {shown}: the literal "
                            f"answer the spec test at {spec.where} expects, not a computation",
                        )
                    )
                    break
    return found


#: Values an honest base case returns or tests for (``if n == 0: return 1``).
_TRIVIAL: tuple[Any, ...] = (0, 1, 2, -1, "", None, True, False, (), [], {})


def answers_call(bound: dict[str, Any], answer: Any, call: dict[str, Any], expected: Any) -> bool:
    """Whether a branch pinning ``bound`` and returning ``answer`` special-cases this call.

    Every argument of the call must be pinned to its value (``if b == 0`` in
    ``mul`` pins one of two: a shortcut, not an answer), the answer must be
    the expected value, and a branch pinning a single parameter counts only
    when neither its value nor its answer is one a base case uses.
    """
    if call.keys() != bound.keys() or any(call[name] != value for name, value in bound.items()):
        return False
    if answer != expected or type(answer) is not type(expected):
        return False
    if len(bound) == 1:
        (value,) = bound.values()
        return not _trivial(value) and not _trivial(answer)
    return True


def _trivial(value: Any) -> bool:
    return any(type(value) is type(t) and value == t for t in _TRIVIAL)


def _branches(tree: ast.Module | None) -> set[str]:
    if tree is None:
        return set()
    return {
        _key(function.name, branch)
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for branch in ast.walk(function)
        if isinstance(branch, ast.If)
    }


def _key(function: str, branch: ast.If) -> str:
    return f"{function}:{ast.dump(branch.test)}:{ast.dump(ast.Module(body=branch.body, type_ignores=[]))}"


def _bindings(test: ast.expr) -> dict[str, Any]:
    """``a == 2 and b == 3`` or ``(a, b) == (2, 3)`` as ``{"a": 2, "b": 3}``; {} for other tests."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        merged: dict[str, Any] = {}
        for value in test.values:
            part = _bindings(value)
            if not part:
                return {}
            merged.update(part)
        return merged
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return {}
    for names, values in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        if isinstance(names, ast.Name):
            value = _literal(values)
            if value is not _NO_VALUE:
                return {names.id: value}
        if isinstance(names, ast.Tuple | ast.List) and all(
            isinstance(e, ast.Name) for e in names.elts
        ):
            value = _literal(values)
            if isinstance(value, tuple | list) and len(value) == len(names.elts):
                return {e.id: v for e, v in zip(names.elts, value, strict=True)}  # type: ignore[attr-defined]
    return {}


def _returned(body: list[ast.stmt]) -> Any:
    for statement in body:
        if isinstance(statement, ast.Return) and statement.value is not None:
            return _literal(statement.value)
    return _NO_VALUE


def _parse(text: str | None) -> ast.Module | None:
    if not text:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
