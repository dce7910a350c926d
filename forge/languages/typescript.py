"""TypeScript (``.ts``, ``.mts``, ``.cts``), from ``tree-sitter-typescript``.

``.tsx`` is a language of its own (:mod:`forge.languages.tsx`): in a ``.ts``
file ``<T>(x) => x`` is a generic arrow function and ``<T>x`` a type
assertion, in a ``.tsx`` file ``<T>`` opens a JSX element.
"""

from __future__ import annotations

from forge import hookimpl
from forge.languages.grammars import grammar
from forge.languages.oxc import load_authority
from forge.models import Language


def load_grammar() -> object:
    """The TypeScript grammar of tree-sitter-typescript."""
    return grammar("typescript")


@hookimpl
def forge_languages() -> list[Language]:
    """Register TypeScript."""
    # deferred: a plugin module is its declaration; listing languages loads no extractor
    from forge.contracts.ecmascript import TYPESCRIPT

    return [
        Language(
            name="typescript",
            extensions=(".ts", ".mts", ".cts"),
            load_grammar=load_grammar,
            authority=load_authority,
            nul_is_text=True,  # ECMAScript strings and comments may hold U+0000
            extractor=TYPESCRIPT,
        )
    ]
