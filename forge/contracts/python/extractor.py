"""The contract extractor of Python: a module's exports and imports, and where imports lead.

The work is done by three modules, one per question a contract check asks:
:mod:`forge.contracts.python.exports` (what a module exports),
:mod:`forge.contracts.python.imports` (what a module imports) and
:mod:`forge.contracts.python.resolution` (the file an import names, or why
it names none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from forge.contracts.extractor import ExportSet, ImportContext, ImportRef, ParsedSource


class PythonExtractor:
    """The contract extractor of Python (``.py``, ``.pyi``).

    Its modules are imported by the first contract check of such a file, not
    when the languages register (every validate does that).
    """

    family = "python"

    def exports(self, parsed: ParsedSource) -> ExportSet:
        """Top-level bindings, star re-exports, ``__all__`` and a package's submodules."""
        # deferred: the languages register on every validate; a file's question loads its module
        from forge.contracts.python import exports as python_exports

        return python_exports.exports(parsed)

    def imports(self, parsed: ParsedSource) -> list[ImportRef]:
        """Every import statement of the file, with the attribute uses of imported modules."""
        # deferred: the languages register on every validate; a file's question loads its module
        from forge.contracts.python import imports as python_imports

        return python_imports.imports(parsed)

    def resolve(self, specifier: str, importer: Path, root: Path) -> Path | None:
        """The module file of ``specifier`` (``a.b``, ``..x``) written in ``importer``."""
        # deferred: the languages register on every validate; a file's question loads its module
        from forge.contracts.python import resolution as python_resolution

        return python_resolution.resolve(specifier, importer, root)

    def star_visible(self, name: str) -> bool:
        """``from m import *`` without ``__all__`` takes the names not starting with ``_``."""
        return not name.startswith("_")

    def diagnose(self, specifier: str, importer: Path, context: ImportContext) -> str | None:
        """Why ``specifier`` (which resolved to no file) cannot be imported; None if it can or forge cannot know."""
        # deferred: the languages register on every validate; a file's question loads its module
        from forge.contracts.python import resolution as python_resolution

        return python_resolution.diagnose(specifier, importer, context)


PYTHON = PythonExtractor()
