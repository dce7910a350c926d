"""The project's files that may import a file, found by their text with the standard library alone.

The first, cheap stage of every importer search of forge (the hook's, forge-types',
and the exact, cached project index of :mod:`forge.contracts.import_index`).

An edit can break files it never touched: a worker renames ``total`` in
``src/mathutil.py`` while ``src/report.py``, another module's, imports it.
The hook checks those importers too, and finding them must cost an edit
almost nothing. A file can import ``mathutil.py`` only if it spells
``mathutil`` where an import names a module: on a Python ``import`` or
``from`` line, or in a quoted module specifier (``'./mathutil.js'``,
``require("../mathutil")``). Whether it really imports the file, and what, is
then the contract check's to say (its extractors resolve each import to a
file). The forge-types plugin filters its checker's importers with the same
:class:`ImportFilter` and :func:`source_files`.

Files are read as the store reads: never through a link, never a FIFO or a
device (opening one would block for good), at most :data:`MAX_READ` bytes.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

#: Source files of the languages forge resolves imports of, by language.
PYTHON_SUFFIXES = (".py", ".pyi")
ECMASCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
SOURCE_SUFFIXES = PYTHON_SUFFIXES + ECMASCRIPT_SUFFIXES
#: Folders never searched (besides hidden ones): environments, installed packages, caches.
SKIPPED_FOLDERS = frozenset(
    {"venv", "env", "node_modules", "__pycache__", "site-packages", "__pypackages__"}
)
#: Build output: no edit's importer lives there, though a package may publish its modules there.
BUILD_OUTPUT = frozenset({"dist", "build", "target"})
#: Bytes of a file read; a larger file is judged on its head.
MAX_READ = 1 << 20


def import_words(paths: Iterable[Path]) -> set[str]:
    """The names an import of each file spells: its stem, or its folder's for a package index
    (and ``index`` for a JavaScript one)."""
    names = set()
    for path in paths:
        stem = path.name.split(".", 1)[0]
        names.add(path.parent.name if stem in ("__init__", "index") else stem)
        if stem == "index":
            names.add(stem)  # './lib/index.js' names it too
    return {name for name in names if name}


class ImportFilter:
    """Whether a file's text may import one of a set of files (a superset of the importers)."""

    def __init__(self, imported: Iterable[Path]) -> None:
        imported = list(imported)
        words = sorted(import_words(imported))
        # A package's own file is imported by dots alone (``from . import x``, ``'./'``,
        # ``'..'``): no name to look for, so every such line may be one.
        packages = any(path.name.split(".", 1)[0] in ("__init__", "index") for path in imported)
        self._words = [word.encode("utf-8", "surrogateescape") for word in words]
        alternatives = b"|".join(re.escape(word) for word in self._words) or b"(?!)"
        # Python: an import or from line naming it (``from .segment import``, ``from
        # rich import segment``), or a parenthesised list that follows on the next lines.
        self._python = re.compile(
            rb"^[ \t]*(?:from|import)\b[^\n]*?\b(?:" + alternatives + rb")\b"
            rb"|^[ \t]*from\b[^\n]*\(\s*[^)]*\b(?:"
            + alternatives
            + rb")\b"
            + (rb"|^[ \t]*from[ \t]+\.+[ \t]+import\b" if packages else b""),
            re.MULTILINE,
        )
        # JavaScript and TypeScript: a module specifier ending in it (``'./segment.js'``).
        self._ecmascript = re.compile(
            rb"""['"][^'"\n]*\b(?:"""
            + alternatives
            + rb""")(?:\.[a-z]+)?['"]"""
            + (rb"""|['"]\.\.?(?:/\.\.)*/?['"]""" if packages else b"")
        )
        self._anything = packages

    def matches(self, path: Path) -> bool:
        """Whether ``path`` (a regular file, not through a link) has a line that may import one."""
        data = read_head(path)
        if data is None:
            return False
        if not self._anything and not any(word in data for word in self._words):
            return False  # the plain search first: most files never spell the word
        pattern = self._python if path.name.endswith(PYTHON_SUFFIXES) else self._ecmascript
        return pattern.search(data) is not None


def read_head(path: Path) -> bytes | None:
    """The first :data:`MAX_READ` bytes of ``path``; None for a link, a FIFO, a device or an error."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        try:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            return handle.read(MAX_READ)
        except OSError:
            return None


def source_files(
    top: Path, suffixes: tuple[str, ...], *, skipped: frozenset[str] = SKIPPED_FOLDERS
) -> Iterator[Path]:
    """Files under ``top`` ending in one of ``suffixes``, sorted in each folder, folders first
    visited first; hidden folders and ``skipped`` ones are not entered."""
    for folder, folders, names in os.walk(top):
        folders[:] = sorted(name for name in folders if name not in skipped and name[:1] != ".")
        for name in sorted(names):
            if name.endswith(suffixes):
                yield Path(folder, name)


#: Most files read in one search of the hook, and most importers checked: an edit
#: stays fast in a big project (the plan's own files are read besides).
MAX_FILES_READ = 4_000
MAX_IMPORTERS = 40


def find_importers(top: Path, edited: list[Path]) -> tuple[list[Path], bool]:
    """Source files under ``top`` whose text may import an edited file, and whether all were read.

    Hidden folders, environments and build output are not searched; the search
    stops after :data:`MAX_FILES_READ` files or :data:`MAX_IMPORTERS` finds
    (then it is not complete).
    """
    walked = source_files(top, SOURCE_SUFFIXES, skipped=SKIPPED_FOLDERS | BUILD_OUTPUT)
    files = list(islice(walked, MAX_FILES_READ + 1))
    found = mentioning(files[:MAX_FILES_READ], edited)
    complete = len(files) <= MAX_FILES_READ and len(found) <= MAX_IMPORTERS
    return found[:MAX_IMPORTERS], complete


def mentioning(paths: list[Path], edited: list[Path]) -> list[Path]:
    """Those of ``paths`` (the edited files aside) whose text may import an edited file."""
    imports = ImportFilter(edited)
    skip = {path.absolute() for path in edited}
    return [path for path in paths if path.absolute() not in skip and imports.matches(path)]
