"""The contract extractor of the JavaScript family (JavaScript, TypeScript, TSX).

The work is done by a module per question a contract check asks:
:mod:`forge.contracts.ecmascript.exports` (ES module exports, joined by the
CommonJS ones of :mod:`forge.contracts.ecmascript.commonjs`),
:mod:`forge.contracts.ecmascript.imports` (import statements, re-exports,
``require()`` and ``import()``) and :mod:`forge.contracts.ecmascript.resolution`
(the file a specifier names, through :mod:`forge.contracts.ecmascript.tsconfig` path
aliases, or why it names none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from forge.contracts.extractor import ExportSet, ImportContext, ImportRef, ParsedSource


class EcmascriptExtractor:
    """The contract extractor of JavaScript, TypeScript and TSX (one family: they import each other).

    Its modules are imported by the first contract check of such a file, not
    when the languages register (every validate does that).
    """

    family = "ecmascript"

    def __init__(self, *, typescript: bool) -> None:
        self.typescript = typescript

    def exports(self, parsed: ParsedSource) -> ExportSet:
        """ES module exports of the top level, then CommonJS exports."""
        # deferred: the languages register on every validate; a file's question loads its module
        from forge.contracts.ecmascript import exports as ecmascript_exports

        return ecmascript_exports.exports(parsed)

    def imports(self, parsed: ParsedSource) -> list[ImportRef]:
        """Import statements, re-exports, ``require()`` and ``import()``."""
        # deferred: the languages register on every validate; a file's question loads its module
        from forge.contracts.ecmascript import imports as ecmascript_imports

        return ecmascript_imports.imports(parsed, typescript=self.typescript)

    def resolve(self, specifier: str, importer: Path, root: Path) -> Path | None:
        """The file a specifier names: relative, or through tsconfig ``paths``/``baseUrl``."""
        # deferred: the languages register on every validate; a file's question loads its module
        from forge.contracts.ecmascript import resolution as ecmascript_resolution

        return ecmascript_resolution.resolve(specifier, importer, root, typescript=self.typescript)

    def diagnose(self, specifier: str, importer: Path, context: ImportContext) -> str | None:
        """Why ``specifier`` (which resolved to no file) cannot be imported; None if it can or forge cannot know."""
        # deferred: the languages register on every validate; a file's question loads its module
        from forge.contracts.ecmascript import resolution as ecmascript_resolution

        return ecmascript_resolution.diagnose(
            specifier, importer, context, typescript=self.typescript
        )

    def star_visible(self, name: str) -> bool:
        """``export * from`` takes every name but the default."""
        return name != "default"


JAVASCRIPT = EcmascriptExtractor(typescript=False)
TYPESCRIPT = EcmascriptExtractor(typescript=True)
