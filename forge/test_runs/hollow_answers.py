"""Code whose answers pass a test's equality whatever they are, or come from the tests.

Precision over recall, as in :mod:`.special_case`: each rule fires on a narrow
shape, only where the line is new since the base, and only in a module file
(not a test file).

- an object equal to anything: a class whose ``__eq__`` only returns ``True``
  (``__eq__ = lambda self, other: True`` too), or whose ``__ne__`` only returns
  ``False``; and ``unittest.mock.ANY``, which equals everything, in the code;
- answers read from the tests: a function the spec tests call that reads a file
  (``open``, ``read_text``, ``read_bytes``) and names a test file or the tests
  folder (``"tests"``, ``"test_calc.py"``) in the same function. Only those: a
  documentation tool reading example tests is honest.
"""

from __future__ import annotations

import ast
from collections.abc import Collection

from forge.test_runs.file_kinds import names_tests
from forge.test_runs.py_assertions import dotted
from forge.test_runs.special_case import Finding, fresh_findings, parse_module

#: Calls that read a file.
_READS = ("open", "read_text", "read_bytes")


def hollow_answers(old: str | None, new: str, tested: Collection[str] = ()) -> list[Finding]:
    """The new lines of the Python module ``new`` whose answers pass any equality, or that
    read the tests in a function the spec tests call (``tested``, by name)."""
    return fresh_findings(old, new, lambda text: _hollow(text, tested), lambda text: text)


def _hollow(text: str | None, tested: Collection[str]) -> list[tuple[int, str]]:
    tree = parse_module(text)
    if tree is None:
        return []
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            found += _always_equal(node)
        elif isinstance(node, ast.ImportFrom) and node.module in {"unittest.mock", "mock"}:
            if any(alias.name == "ANY" for alias in node.names):
                found.append((node.lineno, "unittest.mock.ANY imported: it equals anything"))
        elif isinstance(node, ast.Attribute) and node.attr == "ANY":
            if dotted(node).endswith(("mock.ANY", "unittest.mock.ANY")):
                found.append((node.lineno, "unittest.mock.ANY used: it equals anything"))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in tested:
            found += _reads_the_tests(node)
    return found


def _always_equal(cls: ast.ClassDef) -> list[tuple[int, str]]:
    """``__eq__`` that only says True, ``__ne__`` that only says False."""
    found = []
    for item in cls.body:
        for name, wanted in (("__eq__", True), ("__ne__", False)):
            if _only_returns(item, name, wanted):
                line = getattr(item, "lineno", cls.lineno)
                found.append(
                    (line, f"{cls.name}.{name} always returns {wanted}: equal to anything")
                )
    return found


def _only_returns(item: ast.stmt, name: str, value: bool) -> bool:
    """Whether ``item`` defines method ``name`` as only returning the constant ``value``."""
    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == name:
        body = [
            s
            for s in item.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ]
        return (
            len(body) == 1
            and isinstance(body[0], ast.Return)
            and isinstance(body[0].value, ast.Constant)
            and body[0].value.value is value
        )
    if isinstance(item, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == name for t in item.targets
    ):
        lam = item.value
        return (
            isinstance(lam, ast.Lambda)
            and isinstance(lam.body, ast.Constant)
            and lam.body.value is value
        )
    return False


def _reads_the_tests(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, str]]:
    """A function that reads a file and names a test file or the tests folder."""
    names = [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and names_tests(node.value)
    ]
    reads = any(
        isinstance(node, ast.Call) and dotted(node.func).rsplit(".", 1)[-1] in _READS
        for node in ast.walk(function)
    )
    if not names or not reads:
        return []
    return [(names[0].lineno, f"{function.name} reads {names[0].value!r}: answers from the tests")]
