"""The tree-sitter grammars forge ships, each loaded the first time a file of its language is parsed.

A grammar is a native extension a command that parses no file of its language
never needs (``forge plan check`` parses none), so its package (and with the first,
the tree-sitter runtime) is imported from here, by name, on first use: the one
place forge loads a grammar. The language plugins' ``load_grammar`` and the
test-file readers both ask here.
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter


#: Each grammar: the package holding it and the function returning it.
GRAMMARS = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
}


@functools.cache
def grammar(name: str) -> tree_sitter.Language:
    """The grammar of ``name`` (a key of :data:`GRAMMARS`), loaded once per process."""
    import tree_sitter  # deferred: the tree-sitter runtime (~7 ms) loads with the first parse

    package, function = GRAMMARS[name]
    return tree_sitter.Language(getattr(importlib.import_module(package), function)())


def parser(name: str) -> tree_sitter.Parser:
    """A fresh parser of ``name``'s grammar (a parser is not shared between threads)."""
    import tree_sitter  # deferred: the tree-sitter runtime (~7 ms) loads with the first parse

    return tree_sitter.Parser(grammar(name))
