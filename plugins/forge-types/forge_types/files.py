"""Which files each checked language owns, and a file's state on disk.

Apart from :mod:`forge_types.scope` (which finds importers with forge's
contract extractors, pydantic models and grammars) so that the warm checker's
process (:mod:`forge_types.warm`, one per project, alive for half an hour)
imports neither: it halved that process's unique memory.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from forge.contracts.importers import ECMASCRIPT_SUFFIXES, PYTHON_SUFFIXES, source_files

#: Extensions each checked language owns.
EXTENSIONS = {"python": PYTHON_SUFFIXES, "typescript": ECMASCRIPT_SUFFIXES}
#: Files read while looking for importers, at most. Build output is searched: a
#: package may publish its modules there.
MAX_SCANNED = 5000

#: Files whose contents decide how a Python checker judges the project.
PYTHON_CONFIG_FILES = (
    "pyproject.toml", "setup.cfg", "mypy.ini", ".mypy.ini", "pyrefly.toml",
    "pyrightconfig.json", "ty.toml",
)  # fmt: skip

#: A file's state on disk: (mtime in ns, size, inode); a change of any is an edit.
Stamp = tuple[int, int, int]


def stamp(path: Path) -> Stamp | None:
    """``path``'s :data:`Stamp`; None when it does not exist (or cannot be read)."""
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size, status.st_ino)


def python_stamps(root: Path) -> dict[Path, Stamp]:
    """The :data:`Stamp` of each Python source under ``root`` (the first :data:`MAX_SCANNED`,
    as the importer search walks them) and of each checker configuration file at its top."""
    found: dict[Path, Stamp] = {}
    sources = islice(source_files(root, EXTENSIONS["python"]), MAX_SCANNED)
    for path in (*sources, *(root / name for name in PYTHON_CONFIG_FILES)):
        now = stamp(path)
        if now is not None:
            found[path] = now
    return found
