"""Code that answers a spec test's literal call with that test's literal expectation.

Precision over recall, as in :mod:`.special_case`: each rule fires only on a
narrow shape, and only where it is new since the base.

:func:`literal_answers` (Python; :mod:`.special_case_js` reads JavaScript)
finds a new ``if`` in function ``f`` that compares
``f``'s parameters with literals and returns a literal, where a spec test
(at the base) calls ``f`` with exactly those literals and expects exactly
that value (``assert mul(2, 3) == 6`` against ``if (a, b) == (2, 3): return 6``),
every argument pinned; one pinned parameter counts only when neither it nor
the answer is a base-case value (``if n == 0: return 1`` is a factorial); and a
new dict literal in ``f`` holding nothing but such answers (``{(2, 3): 6}``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from forge.test_runs.special_case import Finding, parse_module

_NO_VALUE = object()
#: A number in a table's string key, and what else such a key may hold: separators.
_NUMBERS = re.compile(r"-?\d+(?:\.\d+)?")
_NOT_NUMBERS = re.compile(r"-?\d+(?:\.\d+)?|[\s,;:x*_|/-]")


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
    tree = parse_module(text)
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
    tree = parse_module(new)
    if tree is None or not specs:
        return []
    before = _branches(parse_module(old)) if old else set()
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
        found += _answer_tables(function, wanted, before)
    return found


def _answer_tables(
    function: ast.FunctionDef | ast.AsyncFunctionDef, wanted: list[Expectation], before: set[str]
) -> list[Finding]:
    """New dict literals in ``function`` whose every entry maps a spec test's literal
    arguments to its literal expectation (``{(2, 3): 6}`` looked up in ``mul``)."""
    found = []
    for table in ast.walk(function):
        if not isinstance(table, ast.Dict) or _table_key(function.name, table) in before:
            continue
        entries = [
            (_literal(k), _literal(v)) for k, v in zip(table.keys, table.values, strict=True) if k
        ]
        if not entries or len(entries) != len(table.keys):
            continue
        answered = [
            next((spec for spec in wanted if table_answers(key, value, spec)), None)
            for key, value in entries
        ]
        if all(answered):
            spec = answered[0]
            assert spec is not None
            found.append(
                Finding(
                    table.lineno,
                    f"{function.name} looks its arguments up in a table of the literal answers "
                    f"the spec test at {spec.where} expects, not a computation",
                )
            )
    return found


def table_answers(key: Any, value: Any, spec: Expectation) -> bool:
    """Whether a table entry ``key: value`` is a spec call's arguments and its expectation.

    The key is the argument itself (one argument), their tuple, or for numbers a
    string of them (``"2,3"``, ``"2x3"``: numbers and separators only); a single
    argument counts only when neither it nor the answer is a base case's value.
    """
    if spec.kwargs or key is _NO_VALUE or value is _NO_VALUE:
        return False
    if value != spec.expected or type(value) is not type(spec.expected):
        return False
    numeric = all(isinstance(a, int | float) and not isinstance(a, bool) for a in spec.args)
    if isinstance(key, str) and numeric and not _NOT_NUMBERS.sub("", key):
        numbers = tuple(_number(token) for token in _NUMBERS.findall(key))
        key = numbers if len(spec.args) > 1 else (numbers[0] if len(numbers) == 1 else key)
    if len(spec.args) == 1:
        return key == spec.args[0] and not _trivial(key) and not _trivial(value)
    return isinstance(key, tuple | list) and tuple(key) == spec.args


def _number(token: str) -> int | float:
    number = float(token)
    return int(number) if number.is_integer() else number


def _table_key(function: str, table: ast.Dict) -> str:
    return f"{function}:{ast.dump(table)}"


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
    """The ``if``s and dict literals of each function at the base: not new, not findings."""
    if tree is None:
        return set()
    found = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.If):
                    found.add(_key(function.name, node))
                elif isinstance(node, ast.Dict):
                    found.add(_table_key(function.name, node))
    return found


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
        if isinstance(names, ast.Tuple | ast.List):
            ids = [e.id for e in names.elts if isinstance(e, ast.Name)]
            value = _literal(values)
            whole = len(ids) == len(names.elts)
            if whole and isinstance(value, tuple | list) and len(value) == len(ids):
                return dict(zip(ids, value, strict=True))
    return {}


def _returned(body: list[ast.stmt]) -> Any:
    for statement in body:
        if isinstance(statement, ast.Return) and statement.value is not None:
            return _literal(statement.value)
    return _NO_VALUE
