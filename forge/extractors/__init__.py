"""forge's built-in contract extractors (see :class:`forge.contracts.Extractor`).

The language plugins attach them to their languages (``Language(extractor=...)``):
:mod:`forge.extractors.python` to Python, :mod:`forge.extractors.ecmascript`
to JavaScript, TypeScript and TSX. Each delegates to a module per question:
``*_exports``, ``*_imports``, ``*_resolution`` (with ``ecmascript_commonjs``,
``ecmascript_syntax`` and ``tsconfig`` beside the JavaScript ones); what a
project can import besides its own files is :mod:`forge.extractors.packages`
(``python_packages``, ``node_packages``). Their tree-sitter queries ship beside
the language modules, as ``forge/languages/*.scm``.
"""
