"""Code that passes the tests without doing the work: it detects the test run.

Precision over recall: each rule fires only on a narrow, unmistakable shape,
and only where it is new since the base (the same line at the base is not a
finding), so honest code is never reported; cleverer cheats go unseen here and
are left to the spec tests' own checks.

- :func:`detects_test_run`: new code in a module file (not a test file) that
  asks whether tests are running: ``"pytest" in sys.modules``,
  ``sys.modules.get("pytest")``, the variables pytest sets
  (``PYTEST_CURRENT_TEST``, ``PYTEST_VERSION``, ``PYTEST_XDIST_WORKER``), the
  command line compared with a runner's name (``"pytest" in sys.argv[0]``), the
  call stack searched for a test (``inspect.stack()`` beside ``"test"``), and in
  JavaScript/TypeScript ``JEST_WORKER_ID``, ``VITEST``/``VITEST_*``,
  ``NODE_TEST_CONTEXT``, ``NODE_ENV`` compared with ``"test"``, ``process.argv``
  beside a runner's name and ``new Error().stack`` beside ``"test"``. ``CI`` is
  not one: projects read it for colours and progress bars, and it does not mean
  a test run.

A spec test's literal call answered with its literal expectation is
:mod:`.literal_answers`'s to find.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from forge.test_runs.py_assertions import dotted

_PYTEST_VARIABLES = frozenset({"PYTEST_CURRENT_TEST", "PYTEST_VERSION", "PYTEST_XDIST_WORKER"})
_PYTEST_MODULES = frozenset({"pytest", "_pytest"})
#: Test runners a command line names.
_RUNNER_NAMES = ("pytest", "py.test", "unittest", "nosetests", "nose2")
#: The names a module reading its command line or call stack uses (the last part of each).
_ARGV_OR_STACK = frozenset(
    {
        "argv",
        "stack",
        "currentframe",
        "getouterframes",
        "_getframe",
        "extract_stack",
        "format_stack",
    }
)
#: Calls that give the call stack.
_STACK_READERS = frozenset(
    {
        "inspect.stack",
        "inspect.currentframe",
        "inspect.getouterframes",
        "sys._getframe",
        "traceback.extract_stack",
        "traceback.format_stack",
        "stack",
        "currentframe",
        "_getframe",
        "extract_stack",
    }
)
_JS_DETECTIONS = re.compile(
    r"\b(?:JEST_WORKER_ID|VITEST(?:_[A-Z_]+)?|NODE_TEST_CONTEXT)\b"
    r"|\bNODE_ENV\b\s*\)?\s*[!=]==?\s*(['\"`])test\1"
    r"|(['\"`])test\2\s*[!=]==?\s*(?:process\.env\.|import\.meta\.env\.)?NODE_ENV\b"
)
#: JavaScript's command line, and a runner's name in a literal beside it.
_JS_ARGV = re.compile(r"\bprocess\.(?:argv|execArgv)\b")
_JS_RUNNER_WORD = re.compile(r"(['\"`/])[^'\"`/\n]*\b(?:mocha|jest|vitest|ava|tap)\b[^'\"`/\n]*\1")
#: JavaScript's call stack, and "test" in a literal beside it.
_JS_STACK = re.compile(r"\bError\s*\([^)]*\)\s*\.stack\b")
#: Characters either side of a read within which its literal must sit.
_REACH = 80
_JS_TEST_WORD = re.compile(r"(['\"`/])[^'\"`/\n]*(?<![A-Za-z])test[^'\"`/\n]*\1")
#: "test" starting a word: ``test_``, ``tests/``, ``.test.``; not ``latest``.
_TEST_WORD = re.compile(r"(?<![A-Za-z])test", re.IGNORECASE)
#: JavaScript and TypeScript files.
JS_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")


@dataclass(frozen=True)
class Finding:
    """One line of a module file that games the tests, and why."""

    line: int
    message: str


def detects_test_run(path: str, old: str | None, new: str) -> list[Finding]:
    """The lines of ``new`` that detect a test run, less those identical at the base (``old``)."""
    find = _python_detections if path.endswith((".py", ".pyi")) else _js_detections
    return fresh_findings(
        old,
        new,
        find,
        lambda text: f"detects the test run ({text}): code must behave the same under test",
    )


def fresh_findings(
    old: str | None,
    new: str,
    find: Callable[[str | None], list[tuple[int, str]]],
    message: Callable[[str], str],
) -> list[Finding]:
    """What ``find`` finds in ``new``, less what it finds on an identical line at the base."""
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
        fresh.append(Finding(number, message(text)))
    return fresh


def _line(lines: list[str], number: int) -> str:
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _python_detections(text: str | None) -> list[tuple[int, str]]:
    tree = parse_module(text)
    if tree is None:
        return []
    found = []
    asking: list[ast.Compare | ast.Call] = []
    reads_argv_or_stack = False
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
        if isinstance(node, ast.Compare | ast.Call):
            asking.append(node)
        name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        reads_argv_or_stack = reads_argv_or_stack or name in _ARGV_OR_STACK
    # Each comparison is searched whole only in the rare module that reads either.
    for node in asking if reads_argv_or_stack else []:
        found += [(node.lineno, text) for text in _asks_who_runs(node)]
    return sorted(set(found))


def _asks_who_runs(node: ast.Compare | ast.Call) -> list[str]:
    """A comparison or call that reads the command line for a test runner's name, or the
    call stack for a test (``"pytest" in sys.argv[0]``, ``any("test_" in f.function for f in
    inspect.stack())``)."""
    inside = list(ast.walk(node))
    words = [n.value for n in inside if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    names = {dotted(n) for n in inside if isinstance(n, ast.Name | ast.Attribute | ast.Call)}
    found = []
    if any(n == "argv" or n.endswith(".argv") for n in names) and any(
        runner in word for word in words for runner in _RUNNER_NAMES
    ):
        found.append("sys.argv names the test runner")
    if names & _STACK_READERS and any(_TEST_WORD.search(word) for word in words):
        found.append("its callers are searched for a test")
    return found


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
        if _beside(_JS_ARGV, _JS_RUNNER_WORD, line):
            found.append((number, "process.argv names the test runner"))
        if _beside(_JS_STACK, _JS_TEST_WORD, line):
            found.append((number, "its callers are searched for a test"))
    return found


def _beside(read: re.Pattern[str], word: re.Pattern[str], line: str) -> bool:
    """Whether ``read`` matches ``line`` with ``word`` within one expression's reach of it
    (a minified bundle is one line: its far ends say nothing of each other)."""
    return any(
        word.search(line, max(0, match.start() - _REACH), match.end() + _REACH)
        for match in read.finditer(line)
    )


def is_module_code(path: str) -> bool:
    """Whether special-casing rules apply to ``path``'s language."""
    return path.endswith((".py", *JS_SUFFIXES))


@lru_cache(maxsize=8)
def parse_module(text: str | None) -> ast.Module | None:
    """``text`` parsed, None when empty or not Python; remembered for the last few texts
    (each rule of the special_case check reads the same file and its base). Never edit it."""
    if not text:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
