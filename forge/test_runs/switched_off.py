"""Tests newly switched off in a changed file: the old text against the new.

A worker told to make the tests pass can make them stop running instead: a
``@pytest.mark.skip`` added, ``it.only`` leaving every other test out,
``t.Skip()``, ``#[ignore]``, or a test body emptied of its assertions.
:func:`newly_switched_off` compares a file's text at the base revision with
its text now and returns what the change switched off. Findings are matched
by kind and test name, never by line, so moving a test or editing above it
does not make an old marker look new.

Python is read with :mod:`ast`; JavaScript and TypeScript with their
tree-sitter grammars; Go and Rust line by line (:mod:`.switched_off_lines`).
A file that does not parse gives no finding (``syntax_check`` reports it).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import PurePath
from typing import Any, Literal

from forge.languages import grammars
from forge.test_runs.file_kinds import LANGUAGES, is_test_file
from forge.test_runs.switched_off_lines import go_tests, rust_tests

Kind = Literal["skip", "only", "no_assertion"]


@dataclass(frozen=True)
class SwitchedOff:
    """One test switched off: what, which test, and where in the new text."""

    kind: Kind
    test: str = ""
    line: int = 1
    column: int = 1
    message: str = ""
    #: Skipped on a condition the code reads (the platform, an import): not always off.
    conditional: bool = False

    @property
    def key(self) -> tuple[str, str, str]:
        """Identity across revisions: kind, test and marker, not the line."""
        return (self.kind, self.test, self.message)


def newly_switched_off(path: str, old: str | None, new: str) -> list[SwitchedOff]:
    """What the change from ``old`` to ``new`` switched off in the test file ``path``.

    ``old`` is None for a file the change adds: everything found counts. A
    finding present in both texts (same kind, test and marker) is not new;
    one of two identical markers added to the same test still is. A file
    that is not a test file (:func:`is_test_file`) gives nothing: a
    ``def test_connection()`` in application code is not a test.
    """
    language = LANGUAGES.get(PurePath(path).suffix.lower())
    if language is None or not is_test_file(path, new):
        return []
    found = _find(language, new)
    before = Counter(finding.key for finding in _find(language, old)) if old else Counter()
    fresh = []
    for finding in found:
        if before[finding.key]:
            before[finding.key] -= 1
        else:
            fresh.append(finding)
    return fresh


def switched_off(path: str, text: str) -> list[SwitchedOff]:
    """Every switched-off test in ``text`` (a file's whole content), in order."""
    language = LANGUAGES.get(PurePath(path).suffix.lower())
    return _find(language, text) if language else []


def _find(language: str, text: str) -> list[SwitchedOff]:
    if language == "python":
        found = list(_python(text))
    elif language in {"javascript", "typescript", "tsx"}:
        found = list(_ecmascript(language, text))
    elif language == "go":
        found = [SwitchedOff(*f) for f in go_tests(text)]  # type: ignore[arg-type]
    else:
        found = [SwitchedOff(*f) for f in rust_tests(text)]  # type: ignore[arg-type]
    return sorted(found, key=lambda finding: (finding.line, finding.column))


# --- Python ------------------------------------------------------------------------

_PY_SKIP_DECORATORS = {
    "pytest.mark.skip": "@pytest.mark.skip",
    "pytest.mark.skipif": "@pytest.mark.skipif",
    "pytest.mark.xfail": "@pytest.mark.xfail",
    "unittest.skip": "@unittest.skip",
    "unittest.skipIf": "@unittest.skipIf",
    "unittest.skipUnless": "@unittest.skipUnless",
    "unittest.expectedFailure": "@unittest.expectedFailure",
    "skip": "@skip",
    "skipIf": "@skipIf",
    "skipUnless": "@skipUnless",
    "expectedFailure": "@expectedFailure",
}
_PY_SKIP_CALLS = {"pytest.skip", "pytest.xfail", "self.skipTest"}
#: A call whose name holds one of these can be an assertion (helpers included).
_ASSERTING = re.compile(r"assert|raises|warns|fail|expect|verify|check|should|must", re.I)


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        return _dotted(node.func)
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return ""


@lru_cache(maxsize=8)
def python_tree(text: str) -> ast.Module | None:
    """``text`` parsed, None when it does not parse; remembered for the last few texts
    (the spec checks read the same test file several ways). Never edit the tree."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _python(text: str) -> Iterator[SwitchedOff]:
    tree = python_tree(text)
    if tree is None:
        return
    yield from _python_blocks(tree)
    for node, owner in _python_tests(tree):
        name = f"{owner}.{node.name}" if owner else node.name
        for decorator in node.decorator_list:
            marker = _PY_SKIP_DECORATORS.get(_dotted(decorator))
            if marker:
                found = _at(decorator, "skip", name, f"{name}: {marker} added")
                yield replace(found, conditional=_py_conditional(decorator, marker))
        asserts = skipped = False
        for inner in ast.walk(node):
            if isinstance(inner, ast.Assert | ast.Raise):
                asserts = True  # a raise fails the test as surely as an assert
            if isinstance(inner, ast.Call):
                called = _dotted(inner.func)
                if called in _PY_SKIP_CALLS and _on_the_test_level(node, inner):
                    skipped = True
                    yield _at(inner, "skip", name, f"{name}: {called}() added")
                elif _ASSERTING.search(called):
                    asserts = True
        if not asserts and not skipped:
            yield _at(node, "no_assertion", name, f"{name} has no assertion")


def _python_blocks(tree: ast.Module) -> Iterator[SwitchedOff]:
    """Markers switching off a test class (decorators, ``pytestmark``) or the whole file
    (``pytestmark``, ``pytest.skip(..., allow_module_level=True)``)."""
    classes = [c for c in tree.body if isinstance(c, ast.ClassDef) and _test_class(c)]
    blocks = [("", tree.body, []), *((c.name, c.body, c.decorator_list) for c in classes)]
    for owner, body, marks in blocks:
        whole = f"every test {f'of {owner}' if owner else 'in the file'} is switched off"
        for node in body:
            value = getattr(node, "value", None)
            if isinstance(node, ast.Assign) and "pytestmark" in map(_dotted, node.targets):
                marks = [
                    *marks,
                    *(value.elts if isinstance(value, ast.List | ast.Tuple) else [value]),
                ]
            elif (
                isinstance(value, ast.Call)
                and _dotted(value) == "pytest.skip"
                and any(k.arg == "allow_module_level" for k in value.keywords)
            ):
                yield _at(node, "skip", owner, f"pytest.skip() added: {whole}")
        for mark in marks:
            if marker := _PY_SKIP_DECORATORS.get(_dotted(mark)):
                found = _at(
                    mark, "skip", owner, f"{owner or 'pytestmark'}: {marker} added: {whole}"
                )
                yield replace(found, conditional=_py_conditional(mark, marker))


def _py_conditional(decorator: ast.expr, marker: str) -> bool:
    """A ``skipif``/``skipIf``/``skipUnless``/``xfail`` whose condition is not a constant
    (pytest's string conditions, ``"sys.platform == 'win32'"``, are read at run time)."""
    if not isinstance(decorator, ast.Call) or not marker.endswith(("if", "If", "Unless", "xfail")):
        return False
    keyword = next((k.value for k in decorator.keywords if k.arg == "condition"), None)
    condition = decorator.args[0] if decorator.args else keyword
    if condition is None:
        return False
    if isinstance(condition, ast.Constant):
        return isinstance(condition.value, str) and marker.startswith("@pytest")
    return True


def _on_the_test_level(function: ast.AST, call: ast.AST) -> bool:
    """A skip call on the test's own level (not under an ``if``) switches the whole test off."""
    body = getattr(function, "body", [])
    return any(isinstance(statement, ast.Expr) and statement.value is call for statement in body)


def _python_tests(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    functions = ast.FunctionDef | ast.AsyncFunctionDef
    for node in tree.body:
        if isinstance(node, functions) and node.name.startswith("test"):
            yield node, ""
        elif isinstance(node, ast.ClassDef) and _test_class(node):
            for item in node.body:
                if isinstance(item, functions) and item.name.startswith("test"):
                    yield item, node.name


def _test_class(node: ast.ClassDef) -> bool:
    return node.name.startswith("Test") or any("TestCase" in _dotted(b) for b in node.bases)


def _at(node: ast.AST, kind: Kind, test: str, message: str) -> SwitchedOff:
    return SwitchedOff(
        kind, test, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1, message
    )


# --- JavaScript and TypeScript ------------------------------------------------------

_JS_TEST_CALLS = {"it", "test", "specify"}
_JS_BLOCKS = {"describe", "suite", "context"}
_JS_SWITCHES = {"skip": "skip", "only": "only", "todo": "skip", "fixme": "skip"}
_JS_PREFIXED = {
    "xit": "skip",
    "xtest": "skip",
    "xdescribe": "skip",
    "xcontext": "skip",
    "xspecify": "skip",
    "fit": "only",
    "fdescribe": "only",
}


def ecmascript_parser(language: str) -> Any:
    """A tree-sitter parser of ``language`` (javascript, typescript, tsx)."""
    return grammars.parser(language)


def _ecmascript(language: str, text: str) -> Iterator[SwitchedOff]:
    source = text.encode()
    tree = ecmascript_parser(language).parse(source)
    if tree.root_node.has_error:
        return
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.children))
        if node.type != "call_expression":
            continue
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if callee is None or arguments is None:
            continue
        spelled = source[callee.start_byte : callee.end_byte].decode()
        head, _, switch = spelled.partition(".")
        name = _js_title(source, arguments)
        kind: Kind | None = None
        conditional = False
        condition = _js_condition(source, callee)
        if condition is not None:  # vitest's test.skipIf(condition)("x", fn), runIf
            kind, conditional = "skip", condition
            spelled = f"{spelled[: spelled.index('(')]}(...)"
        elif head in _JS_TEST_CALLS | _JS_BLOCKS and switch in _JS_SWITCHES:
            kind = "only" if _JS_SWITCHES[switch] == "only" else "skip"
        elif spelled in _JS_PREFIXED:
            kind = "only" if _JS_PREFIXED[spelled] == "only" else "skip"
        option = _js_option(source, arguments) if head in _JS_TEST_CALLS | _JS_BLOCKS else None
        if kind is None and option is not None:
            # node:test's options object: test("x", { skip: true }, fn)
            key, conditional = option
            kind = "only" if key == "only" else "skip"
            spelled = f"{{ {key}: ... }}"
        if kind is not None:
            what = (
                f"{spelled} added: every other test in the file is switched off"
                if kind == "only"
                else f"{spelled} added"
            )
            found = _node_at(node, kind, name, f"{name}: {what}" if name else what)
            yield replace(found, conditional=conditional)
        elif spelled in _JS_TEST_CALLS:
            body = _js_callback(arguments)
            if body is not None and not _js_asserts(source, body):
                yield _node_at(node, "no_assertion", name, f"{name or spelled} has no assertion")


def _js_condition(source: bytes, callee: Any) -> bool | None:
    """For ``test.skipIf(c)`` or ``describe.runIf(c)`` as a callee: whether ``c`` is read at
    run time (not a literal); None for any other callee."""
    if callee.type != "call_expression":
        return None
    inner = callee.child_by_field_name("function")
    arguments = callee.child_by_field_name("arguments")
    if inner is None or arguments is None:
        return None
    head, _, switch = source[inner.start_byte : inner.end_byte].decode().partition(".")
    if head not in _JS_TEST_CALLS | _JS_BLOCKS or switch not in {"skipIf", "runIf"}:
        return None
    return not all(child.type in _JS_LITERALS for child in arguments.named_children)


_JS_LITERALS = frozenset({"true", "false", "number", "string", "null", "undefined"})


def _js_option(source: bytes, arguments: Any) -> tuple[str, bool] | None:
    """``skip``, ``todo`` or ``only`` when an options object sets one (not to false), and
    whether its value is read at run time (``skip: process.platform === "win32"``)."""
    for child in arguments.named_children:
        if child.type != "object":
            continue
        for pair in child.named_children:
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if pair.type != "pair" or key is None or value is None:
                continue
            spelled = source[key.start_byte : key.end_byte].decode().strip("'\"")
            if spelled in {"skip", "todo", "only"} and value.type not in {"false", "null"}:
                return spelled, value.type not in _JS_LITERALS
    return None


def _js_title(source: bytes, arguments: Any) -> str:
    for child in arguments.named_children:
        if child.type in {"string", "template_string"}:
            return source[child.start_byte + 1 : child.end_byte - 1].decode()
    return ""


def _js_callback(arguments: Any) -> Any:
    for child in arguments.named_children:
        if child.type in {"arrow_function", "function_expression", "function"}:
            return child.child_by_field_name("body")
    return None


def _js_asserts(source: bytes, body: Any) -> bool:
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type in {"call_expression", "throw_statement", "new_expression"}:
            callee = node.child_by_field_name("function") or node
            spelled = source[callee.start_byte : callee.end_byte].decode()
            if node.type == "throw_statement" or _ASSERTING.search(spelled):
                return True
        stack.extend(node.children)
    return False


def _node_at(node: Any, kind: Kind, test: str, message: str) -> SwitchedOff:
    row, column = node.start_point
    return SwitchedOff(kind, test, row + 1, column + 1, message)
