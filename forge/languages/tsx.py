"""TSX (``.tsx``): TypeScript with JSX, from ``tree-sitter-typescript``'s TSX grammar."""

from __future__ import annotations

from forge import hookimpl
from forge.languages.grammars import grammar
from forge.languages.oxc import load_authority
from forge.models import Language


def load_grammar() -> object:
    """The TSX grammar of tree-sitter-typescript."""
    return grammar("tsx")


@hookimpl
def forge_languages() -> list[Language]:
    """Register TSX."""
    # deferred: a plugin module is its declaration; listing languages loads no extractor
    from forge.contracts.ecmascript import TYPESCRIPT

    return [
        Language(
            name="tsx",
            extensions=(".tsx",),
            load_grammar=load_grammar,
            authority=load_authority,
            nul_is_text=True,  # ECMAScript strings and comments may hold U+0000
            extractor=TYPESCRIPT,
        )
    ]
