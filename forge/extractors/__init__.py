"""forge's built-in contract extractors (see :class:`forge.contracts.Extractor`).

The language plugins attach them to their languages (``Language(extractor=...)``):
:mod:`forge.extractors.python` to Python, :mod:`forge.extractors.ecmascript`
to JavaScript, TypeScript and TSX. Their tree-sitter queries ship beside the
language modules, as ``forge/languages/*.scm``.
"""
