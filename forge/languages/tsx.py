"""TSX (``.tsx``): TypeScript with JSX, from ``tree-sitter-typescript``'s TSX grammar."""

from __future__ import annotations

from forge import hookimpl
from forge.extractors.ecmascript import TYPESCRIPT
from forge.models import Language


def load_grammar() -> object:
    """The TSX grammar of tree-sitter-typescript."""
    import tree_sitter_typescript

    return tree_sitter_typescript.language_tsx()


@hookimpl
def forge_languages() -> list[Language]:
    """Register TSX."""
    return [
        Language(name="tsx", extensions=(".tsx",), load_grammar=load_grammar, extractor=TYPESCRIPT)
    ]
