"""Python (``.py``, ``.pyi``), from the ``tree-sitter-python`` grammar wheel.

Two Python specifics beyond the grammar: files may declare their encoding
(PEP 263), and the running interpreter's own parser is asked about any file
the grammar flags, because tree-sitter-python has rare false positives on
valid code (an attribute access split over lines inside brackets, for one).
Its verdict only ever clears a flagged file, never flags one. And one rule
the grammar does not enforce is added: a block must hold a statement (a file
cut after ``def f():`` parses in tree-sitter, not in CPython).
"""

from __future__ import annotations

import ast
import io
import threading
import tokenize
import warnings
from typing import Any

from forge import hookimpl
from forge.models import Language

_warnings_lock = threading.Lock()
_block_queries: dict[object, Any] = {}


def load_grammar() -> object:
    """The tree-sitter-python grammar."""
    import tree_sitter_python

    return tree_sitter_python.language()


def detect_encoding(source: bytes) -> str | None:
    """The encoding a PEP 263 ``coding:`` comment declares, or None."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        return None
    return encoding


def cpython_accepts(source: bytes) -> bool:
    """True when this interpreter's parser accepts ``source`` (nothing is executed)."""
    # Parsing may warn (invalid escape sequences); a warning turned into an
    # error by the host's filters must not change the verdict.
    with _warnings_lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(source, "<forge>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            return False
    return True


def empty_blocks(tree: Any) -> list[tuple[int, int, str]]:
    """Each block without a statement: ``(row, column, "expected an indented block")``."""
    import tree_sitter

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
    # Imported here, not at module level: forge plan check imports every
    # plugin module and needs no contract extractors.
    from forge.extractors.python import PYTHON

    return [
        Language(
            name="python",
            extensions=(".py", ".pyi"),
            load_grammar=load_grammar,
            detect_encoding=detect_encoding,
            accepts=cpython_accepts,
            check_tree=empty_blocks,
            extractor=PYTHON,
        )
    ]
