"""The project's files that may import an edited file, and the plan module that owns each.

An edit can break files it never touched: a worker renames ``total`` in
``src/mathutil.py`` while ``src/report.py``, another module's, imports it.
The hook checks those importers too. Finding them must cost an edit almost
nothing, so this module uses the standard library alone: a file can import
``mathutil.py`` only if its text holds the word ``mathutil``, which a read
of the project's source files answers; whether it really imports the edited
file, and what, is then the contract check's to say (its extractors resolve
each import to a file).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

#: Source files of the languages forge checks contracts of (Python, JavaScript, TypeScript).
#: Kept here, not asked of the language plugins: loading them is what this avoids.
SOURCE_SUFFIXES = (".py", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
#: Folders never searched: other environments' code, build output, caches.
SKIPPED_FOLDERS = frozenset(
    {"node_modules", "__pycache__", "site-packages", "venv", "dist", "build", "target"}
)
#: Most files read in one search, and most importers checked: an edit stays fast
#: in a big project (the plan's own files are read besides).
MAX_FILES_READ = 4_000
MAX_IMPORTERS = 40
#: Larger files are not read (the contract check would not parse them either).
MAX_FILE_BYTES = 2 * 1024 * 1024


def import_words(path: Path) -> set[bytes]:
    """Words an import of ``path`` must spell: its stem, or its folder's name for a package."""
    stem = path.name.split(".", 1)[0]
    if stem in {"__init__", "index"}:
        return {path.parent.name.encode("utf-8", "surrogateescape")}
    return {stem.encode("utf-8", "surrogateescape")}


def find_importers(top: Path, edited: list[Path]) -> tuple[list[Path], bool]:
    """Source files under ``top`` whose text names an edited file, and whether all were read.

    Hidden folders and :data:`SKIPPED_FOLDERS` are not searched; the search
    stops after :data:`MAX_FILES_READ` files or :data:`MAX_IMPORTERS` finds
    (then it is not complete).
    """
    files, complete = _source_files(top)
    found = mentioning(files, edited)
    return found[:MAX_IMPORTERS], complete and len(found) <= MAX_IMPORTERS


def mentioning(paths: list[Path], edited: list[Path]) -> list[Path]:
    """Those of ``paths`` (the edited files aside) whose text may import an edited file."""
    words = set().union(*(import_words(path) for path in edited))
    pattern = _import_pattern(words)
    skip = {path.absolute() for path in edited}
    return [
        path for path in paths if path.absolute() not in skip and _mentions(path, words, pattern)
    ]


def _import_pattern(words: set[bytes]) -> re.Pattern[bytes]:
    """A word of ``words`` where an import can spell it: after ``import``/``from`` (a
    parenthesised list too), or inside a quoted specifier (``'./mathutil.js'``)."""
    alternatives = b"|".join(re.escape(word) for word in sorted(words))
    return re.compile(
        rb"(?:\b(?:import|from|require)\b[^;]{0,400}?|['\"`][^'\"`\n]{0,200}?)"
        rb"(?<![\w])(?:" + alternatives + rb")(?![\w])"
    )


def _source_files(top: Path) -> tuple[list[Path], bool]:
    files: list[Path] = []
    for folder, folders, names in os.walk(top):
        folders[:] = sorted(
            name for name in folders if not name.startswith(".") and name not in SKIPPED_FOLDERS
        )
        files.extend(Path(folder, name) for name in sorted(names) if name.endswith(SOURCE_SUFFIXES))
        if len(files) > MAX_FILES_READ:
            return files[:MAX_FILES_READ], False
    return files, True


def _mentions(path: Path, words: set[bytes], pattern: re.Pattern[bytes]) -> bool:
    try:
        with path.open("rb") as handle:
            text = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return False
    if len(text) > MAX_FILE_BYTES or not any(word in text for word in words):
        return False  # the plain search first: most files never name the word
    return pattern.search(text) is not None
