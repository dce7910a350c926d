"""Which tests a change switched off are spec tests: :func:`spec_switched_off`.

:func:`~forge.test_runs.switched_off.newly_switched_off` compares one file with
itself at the base, so a test moved in from another file with the
``skipif`` it had there, or a new test skipped on the platform, looks newly
switched off. Here each of its findings is tied to its test and the test to the
base: the same name in the file at the base, else the same body (layout,
name and decorators aside) or the same name in another test file the change
touched, at the base. Then:

- a test that exists at the base (a spec test, wherever it moved to) counts
  when its marker is new to it: one it carried at the base, in its old
  file, is not;
- a test new since the base counts only when it is switched off for good
  (``@pytest.mark.skip``, ``it.skip``, ``{ skip: true }``, ``.only``): a skip
  on a condition read at run time (``skipif(sys.platform == "win32")``,
  ``test.skipIf(process.platform === "win32")``, ``{ skip: process.platform
  === "win32" }``), a ``todo``, or no assertion hides no spec test and is honest.

Go and Rust findings are kept as they are.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from forge.test_runs.file_kinds import LANGUAGES
from forge.test_runs.spec_js import js_tests
from forge.test_runs.spec_python import parse_python
from forge.test_runs.switched_off import SwitchedOff, newly_switched_off, switched_off

#: Markers of a test at the base: (kind, message without the test's name).
Markers = set[tuple[str, str]]


@dataclass
class _Test:
    """A test of one text: its name, body key, where it stands, and where its blocks start."""

    name: str
    body: str
    start: int
    end: int
    column: int
    #: JavaScript: where the blocks around it start (``describe`` calls).
    blocks: frozenset[tuple[int, int]] = frozenset()
    #: Python: the lines of the class holding it.
    outer: tuple[int, int] | None = None


#: A text's tests by name, and the markers each carried.
_Base = tuple[dict[str, _Test], dict[str, Markers]]


def spec_switched_off(
    path: str,
    old: str | None,
    new: str,
    elsewhere: Callable[[], Mapping[str, str | None]],
    *,
    spec_here: bool = True,
) -> list[SwitchedOff]:
    """What the change from ``old`` to ``new`` switched off in ``path``, spec tests first.

    :param elsewhere: the base texts of the other test files the change touched,
        where a test may have moved from; called only when a finding needs it.
    :param spec_here: whether ``path``'s own tests at the base are spec tests; when
        False, only tests moved in from ``elsewhere`` are judged, and nothing else.
    """
    fresh = newly_switched_off(path, old, new)
    language = LANGUAGES.get(PurePath(path).suffix.lower())
    if not fresh or language not in {"python", "javascript", "typescript", "tsx"}:
        return fresh if spec_here else []
    now = _tests(path, new)
    here = _base(path, old)
    others: list[_Base] | None = None
    kept = []
    for finding in fresh:
        verdicts: list[bool | None] = []
        for test in _tests_of(finding, now):
            verdict = _judge(finding, test, here, spec_here)
            if verdict is None:
                if others is None:
                    others = [_base(p, text) for p, text in elsewhere().items() if p != path]
                verdict = _judge_elsewhere(finding, test, others)
            verdicts.append(verdict)
        if any(verdicts):
            kept.append(finding)
        elif spec_here and all(v is None for v in verdicts) and _for_good(finding):
            kept.append(finding)  # a new test (or a block of new tests), switched off for good
    return kept


def _for_good(finding: SwitchedOff) -> bool:
    """Whether a new test's finding switches a test off: ``.only`` (the others), a skip
    that is not on a condition nor a ``todo`` (a placeholder has nothing to hide). A new
    test without an assertion hides no spec test either (on real releases they are
    tests calling a project's own helper, ``approxEqual(...)``)."""
    if finding.kind != "skip":
        return finding.kind == "only"
    return (
        not finding.conditional
        and ".todo added" not in finding.message
        and ("{ todo: ... }" not in finding.message)
    )


def _judge(finding: SwitchedOff, test: _Test, here: _Base, spec_here: bool) -> bool | None:
    """True: a spec test newly switched off; False: as it was at the base, or no spec test;
    None: not in this file at the base."""
    tests, markers = here
    twin = tests.get(test.name) or next(
        (t for t in tests.values() if test.body and t.body == test.body), None
    )
    if twin is None:
        return None
    return spec_here and _marker(finding) not in markers.get(twin.name, set())


def _judge_elsewhere(finding: SwitchedOff, test: _Test, others: list[_Base]) -> bool | None:
    """As :func:`_judge`, for a test moved in from another file (same body, or same name
    in exactly one)."""
    for tests, markers in others:
        twin = next((t for t in tests.values() if test.body and t.body == test.body), None)
        if twin is not None:
            return _marker(finding) not in markers.get(twin.name, set())
    named = [(tests[test.name], markers) for tests, markers in others if test.name in tests]
    if len(named) == 1:
        twin, markers = named[0]
        return _marker(finding) not in markers.get(twin.name, set())
    return None


def _marker(finding: SwitchedOff) -> tuple[str, str]:
    """The finding without its test's name: a test renamed keeps its marker."""
    message = finding.message.removeprefix(f"{finding.test}: ")
    return (finding.kind, "" if finding.kind == "no_assertion" else message)


def _tests_of(finding: SwitchedOff, tests: Iterable[_Test]) -> list[_Test]:
    """The tests a finding switches off: its own, or every test of the block it marks."""
    at = (finding.line, finding.column)
    tests = list(tests)
    for test in tests:
        # A Python test (column 0) holds its decorators' and body's lines; a JavaScript
        # test is its call's position.
        if (test.start, test.column) == at or (
            test.column == 0 and test.start <= finding.line <= test.end
        ):
            return [test]
    python = [t for t in tests if t.column == 0]
    if python:
        # A class's marker switches its tests off; one outside every class, the file's.
        inside = [t for t in python if t.outer and t.outer[0] <= finding.line <= t.outer[1]]
        return inside or (python if not finding.test else [])
    return [t for t in tests if at in t.blocks]


def _base(path: str, text: str | None) -> _Base:
    """The tests of ``path`` at the base, and the markers each carried there."""
    if text is None:
        return {}, {}
    tests = {test.name: test for test in _tests(path, text)}
    markers: dict[str, Markers] = {}
    for finding in switched_off(path, text):
        for test in _tests_of(finding, tests.values()):
            markers.setdefault(test.name, set()).add(_marker(finding))
    return tests, markers


def _tests(path: str, text: str) -> list[_Test]:
    if path.endswith(".py"):
        parsed = parse_python(text)
        if parsed is None:
            return []
        classes = {
            node.name: (_first_line(node), node.end_lineno or node.lineno)
            for node in parsed.tree.body
            if isinstance(node, ast.ClassDef)
        }
        return [
            _Test(
                name,
                test.body,
                _first_line(test.node),
                test.node.end_lineno or test.node.lineno,
                0,
                outer=classes.get(name.partition("::")[0]) if "::" in name else None,
            )
            for name, test in parsed.tests.items()
        ]
    found = []
    for name, test in (js_tests(path, text) or {}).items():
        call = _enclosing_call(test.node)
        if call is None:
            continue
        row, column = call.start_point
        blocks = frozenset(
            (node.start_point[0] + 1, node.start_point[1] + 1) for node in _calls_around(call)
        )
        found.append(_Test(name, test.body, row + 1, row + 1, column + 1, blocks))
    return found


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _enclosing_call(node: Any) -> Any:
    while node is not None and node.type != "call_expression":
        node = node.parent
    return node


def _calls_around(call: Any) -> Iterable[Any]:
    node = call.parent
    while node is not None:
        if node.type == "call_expression":
            yield node
        node = node.parent
