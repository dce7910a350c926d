"""What a run checks: the module's files, and the files that import them.

A changed signature breaks its callers, not itself, so the files importing a
listed file are checked too. They are found with forge's own contract
extractors (imports resolved to files, as ``contract_check`` resolves them),
after a cheap text filter: a file that never spells a listed module's name
cannot import it. The number of importers is capped; the result says so.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from forge.contracts import ContractAnalyzer, normalize
from forge.workspace import Workspace

#: Extensions each checked language owns.
EXTENSIONS = {
    "python": (".py", ".pyi"),
    "typescript": (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"),
}
#: Folders never searched for importers: environments, installed packages, caches (and
#: every hidden folder). Build output is searched: a package may publish its modules there.
SKIPPED_DIRS = frozenset(
    {"venv", "env", "node_modules", "__pycache__", "site-packages", "__pypackages__"}
)
#: Files read while looking for importers, at most.
MAX_SCANNED = 5000
#: Bytes of a file read to decide whether it may import a listed file.
MAX_READ = 1 << 20


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
    scope = Scope(listed=listed)
    if cap <= 0:
        return scope
    wanted = {normalize(sibling) for path in listed for sibling in (path, *_twins(path))}
    words = {word.encode("utf-8") for word in _spellings(listed)}
    analyzer = ContractAnalyzer(parse=workspace.parse, root=normalize(root))
    found: list[Path] = []
    for candidate in _candidates(root, EXTENSIONS[language]):
        if normalize(candidate) in wanted or not _mentions(candidate, words):
            continue
        try:
            if any(target in wanted for target in analyzer.local_imports(candidate)):
                found.append(candidate)
        except Exception:  # a file forge cannot read the imports of is no importer it knows
            continue
    if len(found) > cap:
        scope.capped_from = len(found)
        found = found[:cap]
    scope.importers = found
    return scope


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


def _spellings(listed: Iterable[Path]) -> set[str]:
    """The names an import of each file spells: its stem, or its folder's for a package index."""
    names = set()
    for path in listed:
        stem = path.name.split(".")[0]
        names.add(path.parent.name if stem in ("__init__", "index") else stem)
    return {name for name in names if name}


def _mentions(path: Path, words: set[bytes]) -> bool:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_READ)
    except OSError:
        return False
    return any(word in data for word in words)


def _candidates(root: Path, extensions: tuple[str, ...]) -> Iterator[Path]:
    """Files under ``root`` with one of ``extensions``, sorted per folder, at most MAX_SCANNED."""
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(extensions):
                seen += 1
                if seen > MAX_SCANNED:
                    return
                yield Path(folder) / name
