"""Languages: which language a file is in, its grammar, its parse tree, and the parse cache.

- :mod:`~forge.languages.registry`: :class:`LanguageRegistry`, the languages the
  ``forge_languages`` hook registered, by name and by extension, each grammar
  loaded at most once; :class:`ParsedFile` (a tree, its syntax verdict) or
  :class:`NotParsed` (why not).
- :mod:`~forge.languages.parse_cache`: each file read and parsed once
  (:class:`ParseSession` per validate call, :class:`ParseCache` between calls);
  :func:`over_parse_limit`, a file too large to parse, known from its size.
- forge's built-in languages, one plugin module each, registered like
  third-party ones: :mod:`~forge.languages.python`, :mod:`~forge.languages.javascript`,
  :mod:`~forge.languages.typescript`, :mod:`~forge.languages.tsx` and
  :mod:`~forge.languages.language_pack` (every language of
  ``tree-sitter-language-pack``), with :mod:`~forge.languages.oxc`, the
  JavaScript/TypeScript syntax authority. Each imports its grammar wheel only
  inside ``load_grammar``, so listing languages costs no grammar import.
"""

from forge.languages.parse_cache import (
    DEFAULT_CACHE_BYTES,
    RACY_NS,
    ParseCache,
    ParseSession,
    over_parse_limit,
)
from forge.languages.registry import LanguageRegistry, NotParsed, ParsedFile

__all__ = [
    "DEFAULT_CACHE_BYTES",
    "RACY_NS",
    "LanguageRegistry",
    "NotParsed",
    "ParseCache",
    "ParseSession",
    "ParsedFile",
    "over_parse_limit",
]
