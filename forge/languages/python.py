"""Python (``.py``, ``.pyi``), from the ``tree-sitter-python`` grammar wheel.

Python specifics beyond the grammar:

- files may declare their encoding (PEP 263);
- CPython's full compiler (``compile()``, symbol table included, nothing
  executed) is the syntax authority. It clears tree-sitter-python's rare false
  positives (an attribute access split over lines inside brackets, for one)
  and reports what no grammar can: ``return``/``yield`` outside a function,
  ``await`` outside async, ``break`` outside a loop, ``nonlocal`` at module
  level, duplicate argument names, ``import *`` in a function, assignment to
  ``__debug__``. It reports only when the running interpreter is at least the
  project's minimum Python (``requires-python`` of the nearest
  ``pyproject.toml``; none declared: the interpreter itself); below that it
  can still clear. Where the project allows a Python newer than the
  interpreter (no ``requires-python``, or no upper bound below the next
  version), syntax that newer Python accepts is set aside first
  (:mod:`forge.languages.python_versions`): a rejection of it is no error,
  and ``compile()`` still judges the rest of the file;
- one rule the grammar does not enforce: a block must hold a statement (a
  file cut after ``def f():`` parses in tree-sitter, not in CPython).
"""

from __future__ import annotations

import io
import re
import sys
import threading
import tokenize
import warnings
from pathlib import Path
from typing import Any

from forge import hookimpl
from forge.languages.grammars import grammar
from forge.languages.project_files import nearest_value
from forge.languages.python_versions import (
    allows_newer,
    first_too_new,
    highest_version,
    running,
    touched_lines,
    without_newer_syntax,
)
from forge.models import Language, SyntaxAuthority, SyntaxVerdict

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

_warnings_lock = threading.Lock()
_block_queries: dict[object, Any] = {}


def load_grammar() -> object:
    """The tree-sitter-python grammar."""
    return grammar("python")


#: A PEP 263 declaration, as CPython's tokenizer finds it on one of the first two lines.
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def detect_encoding(source: bytes) -> str | None:
    """The encoding a PEP 263 ``coding:`` comment declares, or None.

    An encoding Python does not know is returned as declared (decoding with
    it then fails, as CPython refuses the file: "encoding problem").
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        for line in source.split(b"\n", 2)[:2]:
            found = _CODING.match(line)
            if found is not None:
                return found.group(1).decode("ascii")
        return None
    return encoding


def load_authority() -> SyntaxAuthority:
    """CPython's compiler, as the running interpreter has it."""
    running = ".".join(map(str, sys.version_info[:2]))
    return SyntaxAuthority(
        name=(
            f"CPython {sys.version.split()[0]} compile() (its rejections count where "
            f"requires-python allows {running}; syntax of a newer Python it allows is "
            "set aside)"
        ),
        check=compile_verdict,
        context=python_range,
    )


def compile_verdict(path: Path, source: bytes) -> SyntaxVerdict | None:
    """``compile()``'s verdict on ``source`` (UTF-8); None when it may not decide.

    A rejection counts only when this interpreter meets the project's minimum
    Python, and is not of syntax a newer Python the project allows accepts
    (that syntax is set aside and the rest compiled again); a file CPython
    cannot even attempt (too deep) gets no verdict.
    """
    try:
        text = source.decode("utf-8")
        rejection = _compile(text, path)
    except (ValueError, RecursionError, MemoryError, OverflowError):
        return None
    lowest, highest = python_range(path.parent)
    if rejection is None:
        return _older_python(text, lowest)
    if not interpreter_meets(lowest):
        return None
    if allows_newer(highest):
        older, spans = without_newer_syntax(text, highest)
        if spans:
            try:
                rejection = _compile(older, path)
            except (ValueError, RecursionError, MemoryError, OverflowError):
                return None
            if rejection is None:
                return _older_python(text, lowest)
            if rejection.lineno in touched_lines(text, spans):
                return None  # about what was set aside: tree-sitter decides there
    column = max(rejection.offset or 1, 1)
    return SyntaxVerdict(
        valid=False,
        line=max(rejection.lineno or 1, 1),
        column=column,
        message=_named(rejection.msg, rejection.text or "", column),
    )


def _older_python(text: str, lowest: tuple[int, ...] | None) -> SyntaxVerdict:
    """Valid, unless ``text`` uses syntax newer than the oldest Python the project allows."""
    if lowest is None or tuple(lowest[:2]) >= running():
        return SyntaxVerdict(valid=True)  # the interpreter's compile() judged it all
    oldest = (lowest[0], lowest[1] if len(lowest) > 1 else 0)
    found = first_too_new(text, oldest)
    if found is None:
        return SyntaxVerdict(valid=True)
    line, column, what, version = found
    return SyntaxVerdict(
        valid=False,
        line=line,
        column=column,
        message=(
            f"{what} needs Python {version[0]}.{version[1]}; "
            f"requires-python allows {oldest[0]}.{oldest[1]}"
        ),
    )


def _compile(text: str, path: Path) -> SyntaxError | None:
    """``compile()``'s rejection of ``text``, or None when it compiles."""
    # Compiling may warn (invalid escape sequences); a warning turned into an
    # error by the host's filters must not change the verdict. A str ignores
    # the PEP 263 declaration: the source was transcoded to UTF-8 already.
    with _warnings_lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(text, str(path), "exec", dont_inherit=True)
        except SyntaxError as exc:
            return exc
    return None


def _named(message: str, line: str, column: int) -> str:
    """CPython's message, naming the token when it says only "invalid syntax"."""
    if message != "invalid syntax":
        return message
    token = re.match(r"\w+|\S", line[column - 1 :])
    return f"invalid syntax at `{token.group()}`" if token else message


def python_range(directory: Path) -> tuple[tuple[int, ...] | None, tuple[int, int] | None]:
    """The lowest and highest Python the nearest ``requires-python`` allows (None: unbounded)."""
    declared = nearest_value(directory, "pyproject.toml", _requires_python)
    if not declared:
        return None, None
    return lowest_version(declared), highest_version(declared)


def _requires_python(contents: bytes) -> str | None:
    project = tomllib.loads(contents.decode("utf-8")).get("project")
    value = project.get("requires-python") if isinstance(project, dict) else None
    return value if isinstance(value, str) else None


_LOWER_BOUND = r"^\s*(>=|~=|==|>|===)\s*v?(\d+(?:\.\d+)*)"  # compiled by re on first use


def lowest_version(specifier: str) -> tuple[int, ...] | None:
    """The lower bound of a PEP 440 specifier (``>=3.10,<4``: ``(3, 10)``), or None."""
    bounds = [
        tuple(int(part) for part in match.group(2).split("."))
        for clause in specifier.split(",")
        if (match := re.match(_LOWER_BOUND, clause))
    ]
    return max(bounds) if bounds else None


def interpreter_meets(minimum: tuple[int, ...] | None) -> bool:
    """True when the running interpreter is at least ``minimum`` (None: no minimum)."""
    if minimum is None:
        return True
    return sys.version_info[: len(minimum)] >= minimum


def empty_blocks(tree: Any) -> list[tuple[int, int, str]]:
    """Each block without a statement: ``(row, column, "expected an indented block")``."""
    import tree_sitter  # deferred: the tree-sitter runtime (~7 ms) loads with the first parse

    query = _block_queries.get(tree.language)
    if query is None:
        query = _block_queries.setdefault(
            tree.language, tree_sitter.Query(tree.language, "(block) @block")
        )
    blocks = tree_sitter.QueryCursor(query).captures(tree.root_node).get("block", [])
    return [
        (*block.start_point, "expected an indented block")
        for block in blocks
        # An empty block inside an error is an artefact of error recovery.
        if block.child_count == 0 and not (block.parent and block.parent.has_error)
    ]


@hookimpl
def forge_languages() -> list[Language]:
    """Register Python."""
    # deferred: a plugin module is its declaration; listing languages loads no extractor
    from forge.contracts.python import PYTHON

    return [
        Language(
            name="python",
            extensions=(".py", ".pyi"),
            load_grammar=load_grammar,
            detect_encoding=detect_encoding,
            authority=load_authority,
            check_tree=empty_blocks,
            extractor=PYTHON,
        )
    ]
