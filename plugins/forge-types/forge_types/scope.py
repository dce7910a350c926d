"""What a run checks: the module's files, and the files that import them.

A changed signature breaks its callers, not itself, so the files importing a
listed file are checked too. They are found with forge's own contract
extractors (imports resolved to files, as ``contract_check`` resolves them),
after a cheap text filter: a file that never spells a listed module's name
cannot import it. The number of importers is capped; the result says so.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from forge.contracts.analysis import ContractAnalyzer, normalize
from forge.contracts.importers import ImportFilter, source_files
from forge.workspace import Workspace
from forge_types.files import EXTENSIONS, MAX_SCANNED

#: Candidate importers read per importer the cap allows: files that spell a listed
#: module's name in an import line, not all of which import it.
CANDIDATES_PER_IMPORTER = 3


@dataclass
class Scope:
    """The files one language's checker reports on."""

    listed: list[Path]
    importers: list[Path] = field(default_factory=list)
    #: How many importers there were when the cap cut them (0: not capped).
    capped_from: int = 0

    @property
    def files(self) -> list[Path]:
        """Listed files, then importers."""
        return [*self.listed, *self.importers]


def language_of(path: Path) -> str | None:
    """``python`` or ``typescript`` (JavaScript is checked where its tsconfig says so)."""
    suffix = path.suffix.lower()
    return next((name for name, exts in EXTENSIONS.items() if suffix in exts), None)


def find_importers(
    listed: list[Path], language: str, root: Path, workspace: Workspace, cap: int
) -> Scope:
    """The files under ``root`` that import one of ``listed`` (existing files), at most ``cap``."""
    return confirm_importers(listed, candidates(listed, language, root, cap), workspace, root, cap)


def candidates(listed: list[Path], language: str, root: Path, cap: int) -> list[Path]:
    """Files under ``root`` with a line that may import one of ``listed``: read, not parsed.

    At most ``CANDIDATES_PER_IMPORTER * cap``: a superset of the importers, cheap
    enough to hand a checker before they are confirmed (:func:`confirm_importers`).
    """
    if cap <= 0:
        return []
    wanted = _wanted(listed)
    imports = ImportFilter(listed)
    found = []
    for candidate in islice(source_files(root, EXTENSIONS[language]), MAX_SCANNED):
        # Walked from the real root, a candidate spelt as a listed file is that file; one
        # that is not may still be a link to one, which only its real path tells.
        if (
            candidate not in wanted
            and imports.matches(candidate)
            and normalize(candidate) not in wanted
        ):
            found.append(candidate)
            if len(found) >= CANDIDATES_PER_IMPORTER * cap:
                break
    return found


def confirm_importers(
    listed: list[Path], maybe: list[Path], workspace: Workspace, root: Path, cap: int
) -> Scope:
    """The :class:`Scope` of ``listed``: the ``maybe`` files whose imports resolve to them."""
    scope = Scope(listed=listed)
    wanted = _wanted(listed)
    analyzer = ContractAnalyzer(parse=workspace.parse, root=normalize(root))
    found: list[Path] = []
    for candidate in maybe:
        try:
            if any(target in wanted for target in analyzer.local_imports(candidate)):
                found.append(candidate)
        except Exception:  # a file forge cannot read the imports of is no importer it knows
            continue
    if len(found) > cap or len(maybe) >= CANDIDATES_PER_IMPORTER * cap > 0:
        scope.capped_from = max(len(found), cap + 1)
        found = found[:cap]
    scope.importers = found
    return scope


def _wanted(listed: list[Path]) -> set[Path]:
    """The real paths an import of a listed file resolves to: the files (real paths already,
    :func:`real_plain_file`'s) and their twins."""
    return {*listed, *(normalize(twin) for path in listed for twin in _twins(path))}


#: A declaration file and the JavaScript it describes stand for one module: an import
#: of ``./options.js`` is checked against ``options.d.ts``.
_TWINS = {".d.ts": ".js", ".d.mts": ".mjs", ".d.cts": ".cjs"}


def _twins(path: Path) -> list[Path]:
    """The other files an import of ``path`` may resolve to (``a.d.ts`` and ``a.js``)."""
    name = path.name
    for declaration, script in _TWINS.items():
        if name.endswith(declaration):
            return [path.with_name(name[: -len(declaration)] + script)]
        if name.endswith(script):
            return [path.with_name(name[: -len(script)] + declaration)]
    return []


def real_plain_file(path: Path, folders: dict[str, str] | None = None) -> Path | None:
    """``path``'s real path when it is a regular file a checker may read: no FIFO, device or
    file of ``/proc``, ``/sys``; else None.

    A FIFO named ``x.py`` would block its reader for good, and ``/proc/self/fd/0``
    is forge's own input (the MCP protocol). ``folders`` keeps each folder's real path
    for the next file of the same call (100 files of one folder: one resolution, not 100).
    """
    try:
        if path.name in ("", ".", ".."):
            real = normalize(path)
        else:
            known = {} if folders is None else folders
            parent = str(path.parent)
            real_parent = known.get(parent)
            if real_parent is None:
                real_parent = known[parent] = os.path.realpath(parent)
            real = Path(real_parent, path.name)
        status = real.lstat()
        if stat.S_ISLNK(status.st_mode):  # the file itself is a link: where it leads
            real = normalize(real)
            status = real.stat()
    except (OSError, RuntimeError):
        return None
    if not stat.S_ISREG(status.st_mode) or real.parts[1:2] in (("proc",), ("sys",), ("dev",)):
        return None
    return real
