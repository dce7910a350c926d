"""Python placeholders: each case a small file, the findings it must (or must not) give."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Find, Findings


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("def f():\n    pass\n", [(2, "f", "pass")], id="pass"),
        pytest.param("def f(): ...\n", [(1, "f", "ellipsis")], id="ellipsis-same-line"),
        pytest.param(
            'async def f():\n    """Doc."""\n    ...\n',
            [(3, "f", "ellipsis")],
            id="async-doc-ellipsis",
        ),
        pytest.param(
            "def f():\n    raise NotImplementedError\n",
            [(2, "f", "not_implemented")],
            id="raise-class",
        ),
        pytest.param(
            'def f():\n    """Doc."""\n    raise NotImplementedError("soon")\n',
            [(3, "f", "not_implemented")],
            id="raise-call-after-docstring",
        ),
        pytest.param(
            "def f():\n    raise NotImplemented\n", [(2, "f", "not_implemented")], id="raise-typo"
        ),
        pytest.param(
            'def f():\n    raise RuntimeError("not implemented yet")\n',
            [(2, "f", "not_implemented")],
            id="raise-message",
        ),
        pytest.param(
            'def f():\n    """Return the answer."""\n',
            [(2, "f", "docstring_only")],
            id="docstring-only",
        ),
        pytest.param(
            "class A:\n    def m(self):\n        pass\n\n    class B:\n        def n(self): ...\n",
            [(3, "A.m", "pass"), (6, "A.B.n", "ellipsis")],
            id="methods-qualified",
        ),
        pytest.param(
            "def outer():\n    def inner():\n        pass\n    return inner\n",
            [(3, "outer.inner", "pass")],
            id="nested",
        ),
        pytest.param(
            "import functools\n\n@functools.cache\ndef f():\n    pass\n",
            [(5, "f", "pass")],
            id="other-decorator-still-flagged",
        ),
        pytest.param(
            "def f():\n    # TODO: implement\n    return None\n",
            [(2, "f", "todo_comment")],
            id="todo-implement",
        ),
        pytest.param(
            "x = 1  # FIXME\n", [(1, None, "todo_comment")], id="bare-fixme-at-module-level"
        ),
        pytest.param(
            "def f():\n    pass  # TODO: implement\n",
            [(2, "f", "pass")],
            id="todo-inside-flagged-function-not-repeated",
        ),
        pytest.param('"""Only a docstring."""\n', [(1, None, "empty_module")], id="empty-module"),
        pytest.param("", [(1, None, "empty_module")], id="empty-file"),
    ],
)
def test_python_placeholders_are_found(source: str, expected: list[object], find: Find) -> None:
    assert find(source, "mod.py") == expected


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("def f():\n    return 1\n", id="real-body"),
        pytest.param('def f():\n    """Doc."""\n    return 1\n', id="docstring-and-code"),
        pytest.param("def f():\n    pass\n    return 1\n", id="pass-then-code"),
        pytest.param(
            "def f(x):\n    if x:\n        raise NotImplementedError\n    return x\n",
            id="conditional-raise",
        ),
        pytest.param('def f():\n    raise ValueError("bad input")\n', id="other-raise"),
        pytest.param("def __eq__(self, other):\n    return NotImplemented\n", id="return-notimpl"),
        pytest.param(
            "from abc import ABC, abstractmethod\n\nclass A(ABC):\n    @abstractmethod\n"
            "    def m(self):\n        raise NotImplementedError\n\n    @abc.abstractmethod\n"
            "    def n(self): ...\n\n    @property\n    @abstractmethod\n    def p(self): pass\n",
            id="abstractmethod",
        ),
        pytest.param(
            "from typing import Protocol\n\nclass P(Protocol):\n    def m(self) -> int: ...\n\n"
            "    @property\n    def n(self) -> str:\n        pass\n\n"
            "class Q(typing.Protocol[T]):\n    def m(self) -> T:\n        pass\n",
            id="protocol-members",
        ),
        pytest.param(
            "from typing import overload\n\n@overload\ndef f(x: int) -> int: ...\n"
            "@typing.overload\ndef f(x: str) -> str: ...\ndef f(x):\n    return x\n",
            id="overload",
        ),
        pytest.param(
            "def noop():\n    pass  # intentionally empty\n\n"
            "# no-op: subclasses override it\ndef hook(self):\n    pass\n\n"
            "def g():\n    # Intentionally empty: the caller needs a callable.\n    ...\n",
            id="intentional-markers",
        ),
        pytest.param(
            "class Error(Exception):\n    pass\n\nclass Empty:\n    ...\n", id="empty-classes"
        ),
        pytest.param("x = 1  # TODO: rename once the API settles\n", id="todo-not-about-code"),
        pytest.param("# the todo list lives elsewhere\nx = 1\n", id="lower-case-todo"),
        pytest.param("import os\n", id="imports-only-module"),
    ],
)
def test_python_non_placeholders_pass(source: str, find: Find) -> None:
    assert find(source, "mod.py") == []


def test_init_file_that_only_reexports_passes(find: Find) -> None:
    source = '"""The package."""\nfrom .core import run\n\n__all__ = ["run"]\n'
    assert find(source, "pkg/__init__.py") == []
    assert find('"""The package."""\n', "pkg/__init__.py") == []
    assert find('"""A module."""\n', "pkg/module.py") == [(1, None, "empty_module")]


def test_intentional_comment_must_be_adjacent(find: Find) -> None:
    source = "# intentionally empty\n\ndef f():\n    pass\n"
    assert find(source, "mod.py") == [(4, "f", "pass")]


def test_columns_count_characters_and_text_is_the_line(findings: Findings) -> None:
    [finding] = findings('def grüße():\n    "é"; pass\n', "mod.py")
    assert (finding.line, finding.column, finding.function) == (2, 10, "grüße")
    assert (finding.kind, finding.text) == ("pass", '"é"; pass')


def test_long_lines_are_cut(findings: Findings) -> None:
    [finding] = findings("def f(): pass  # " + "x" * 300 + "\n", "mod.py")
    assert len(finding.text) == 120
    assert finding.text.endswith("...")
