"""JavaScript with JSX (``.js``, ``.mjs``, ``.cjs``, ``.jsx``), from ``tree-sitter-javascript``."""

from __future__ import annotations

from forge import hookimpl
from forge.languages import v8
from forge.languages.grammars import grammar
from forge.languages.v8 import load_authority
from forge.models import Language


def load_grammar() -> object:
    """The tree-sitter-javascript grammar (it parses JSX too).

    node, which decides JavaScript's syntax (:mod:`forge.languages.v8`), starts
    booting here, while tree-sitter parses the call's files.
    """
    v8.worker()
    return grammar("javascript")


@hookimpl
def forge_languages() -> list[Language]:
    """Register JavaScript."""
    # deferred: a plugin module is its declaration; listing languages loads no extractor
    from forge.contracts.ecmascript import JAVASCRIPT

    return [
        Language(
            name="javascript",
            extensions=(".js", ".mjs", ".cjs", ".jsx"),
            load_grammar=load_grammar,
            authority=load_authority,
            nul_is_text=True,  # ECMAScript strings and comments may hold U+0000
            extractor=JAVASCRIPT,
        )
    ]
