"""Contracts: do the names one file imports from another really exist there?

- :mod:`~forge.contracts.extractor`: the interface a language's contract
  extractor implements (:class:`Extractor`: a parsed file's exports and
  imports, and where an import leads), the records it returns, and helpers to
  write one (tree-sitter queries, captures, did-you-mean).
- :mod:`~forge.contracts.analysis`: :class:`ContractAnalyzer`, language
  independent: it follows ``export *`` / ``from x import *`` chains, keeps the
  imports that resolve to the exporter, and names what is missing.
- forge's extractors, attached by the built-in language plugins
  (``Language(extractor=...)``): :mod:`forge.contracts.python` and
  :mod:`forge.contracts.ecmascript` (JavaScript, TypeScript, TSX), each a
  module per question (``exports``, ``imports``, ``resolution``) with its
  tree-sitter queries (``*.scm``) beside it; :mod:`forge.contracts.packages`
  is what a project can import besides its own files.

The contract check itself is a built-in plugin: :mod:`forge.checks.contract_check`.
"""

from forge.contracts.analysis import (
    Comparison,
    ContractAnalyzer,
    ContractError,
    describe_missing,
    normalize,
)
from forge.contracts.extractor import (
    ExportSet,
    Extractor,
    ImportContext,
    ImportRef,
    ParsedSource,
    imported,
    load_query,
    query_source,
)

# The rest of the extractor helpers (captures, matches, node_text, position ...) are
# imported from forge.contracts.extractor by extractors; did_you_mean and close_names
# from forge.errors, where every "did you mean" of forge is spelt.
__all__ = [
    "Comparison",
    "ContractAnalyzer",
    "ContractError",
    "ExportSet",
    "Extractor",
    "ImportContext",
    "ImportRef",
    "ParsedSource",
    "describe_missing",
    "imported",
    "load_query",
    "normalize",
    "query_source",
]
