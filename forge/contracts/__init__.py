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

- :mod:`~forge.contracts.importers`: the project's files that may import a file,
  found by their text with the standard library alone (the first stage of
  every importer search: the hook's, forge-types', the index's);
  :mod:`~forge.contracts.import_index`: the project's importers of a set of
  files, exact (specifiers resolved to paths) and cached under
  ``.forge/cache/imports/``; :mod:`~forge.contracts.changed`: the importers of
  what changed or was deleted since the base;
  :mod:`~forge.contracts.star_conflicts`: a name two ``export *`` give.

The contract check itself is a built-in plugin: :mod:`forge.checks.contract_check`.
The package imports none of its modules: importing
:mod:`forge.contracts.importers` must cost an edit hook nothing more.
"""
