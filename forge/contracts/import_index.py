"""The project-wide import index: which files import a set of files, exactly, cached on disk.

One search for every caller that needs the importers of a file (the contract
check's importers of what a module changed or deleted; the hook and
forge-types take its first stage, :class:`~forge.contracts.importers.ImportFilter`):

1. the project's source files are walked (hidden folders, environments and
   build output left out, build output only while no target is in it; at most
   :data:`MAX_SCANNED`);
2. a file whose text cannot import a target (it never spells the target's
   module name on an import line) is dropped unparsed;
3. the rest have their import specifiers read by their language's contract
   extractor, and each specifier is resolved to a path by the extractor's
   resolver (never matched by name): a file is an importer when one of them
   resolves to a target.

Step 3's specifiers are kept in ``.forge/cache/imports/<key>.json`` per file,
keyed by its size and modification time (ns) and inode, so a later search
parses only the files that changed since. The cache is a convenience: a
missing, corrupt or unwritable one costs time, never a different answer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from forge.contracts.analysis import ContractAnalyzer
from forge.contracts.importers import (
    BUILD_OUTPUT,
    SKIPPED_FOLDERS,
    SOURCE_SUFFIXES,
    ImportFilter,
    source_files,
)
from forge.store.json_files import peek_json, write_json

#: Source files walked at most in one search; past it the search says it is not complete.
MAX_SCANNED = 20_000
#: What a cache file holds: part of its name, so another format is never read.
CACHE_FORMAT = "1"
#: Entries one cache file keeps at most (the files of the last search).
MAX_CACHED = 20_000


@dataclass
class Importers:
    """The importers one search found."""

    #: Each importer (as walked) and the targets (real paths) it imports, in walk order.
    found: dict[Path, list[Path]] = field(default_factory=dict)
    #: Source files walked.
    scanned: int = 0
    #: Files whose imports were read (the text filter kept them).
    read: int = 0
    #: False when the walk stopped at :data:`MAX_SCANNED`.
    complete: bool = True


def cache_path(project_root: Path, top: Path) -> Path:
    """``.forge/cache/imports/<key>.json`` of the project, one per searched folder."""
    key = hashlib.sha256(str(top).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return project_root / ".forge" / "cache" / "imports" / f"v{CACHE_FORMAT}-{key}.json"


class ImportIndex:
    """The import index of the files under ``top``, read through ``analyzer``.

    :param cache: the cache file (:func:`cache_path`), or None for none.
    """

    def __init__(self, top: Path, analyzer: ContractAnalyzer, cache: Path | None) -> None:
        self.top = top
        self.analyzer = analyzer
        self._cache_file = cache
        self._cache: dict[str, Any] | None = None
        self._dirty = False

    def importers_of(self, targets: Sequence[Path]) -> Importers:
        """Every file under ``top`` that imports one of ``targets`` (a target importing
        another counts; a file never counts as its own importer)."""
        wanted = {self.analyzer.real(path) for path in targets}
        result = Importers()
        if not wanted:
            return result
        text = ImportFilter(targets)
        # Build output holds no importer of the sources, unless what changed is in it (a
        # published package's modules are its dist/).
        inside = {part for path in targets for part in path.parts}
        skipped = SKIPPED_FOLDERS | (BUILD_OUTPUT - inside)
        walked = source_files(self.top, SOURCE_SUFFIXES, skipped=skipped)
        for path in islice(walked, MAX_SCANNED + 1):
            if result.scanned == MAX_SCANNED:
                result.complete = False
                break
            result.scanned += 1
            if not text.matches(path):
                continue
            result.read += 1
            me = self.analyzer.real(path)
            hits = [target for target in self._targets(path, me) if target in wanted]
            hits = [target for target in dict.fromkeys(hits) if target != me]
            if hits:
                result.found[path] = hits
        self._save()
        return result

    def _targets(self, path: Path, real: Path) -> list[Path]:
        """Where each import of ``path`` leads (None-free): from the cache, else parsed."""
        specifiers = self._cached(path)
        if specifiers is None:
            try:
                refs = self.analyzer.imports(path)
            except Exception:  # a file forge cannot read the imports of is no importer it knows
                return []
            self._remember(path, [ref.specifier for ref, _ in refs])
            return [target for _, target in refs if target is not None]
        try:
            found = self.analyzer.extractor(path)
        except Exception:
            return []
        if found is None:
            return []
        extractor = found[1]
        return [
            target
            for specifier in specifiers
            if (target := self.analyzer.resolve(extractor, specifier, real)) is not None
        ]

    # --- the cache -------------------------------------------------------------

    def _entries(self) -> dict[str, Any]:
        if self._cache is None:
            self._cache = {}
            if self._cache_file is not None:
                try:
                    data, _ = peek_json(self._cache_file)
                except Exception:  # unreadable: rebuilt as the files are read
                    data = None
                files = data.get("files") if isinstance(data, dict) else None
                self._cache = files if isinstance(files, dict) else {}
        return self._cache

    def _key(self, path: Path) -> tuple[str, list[int]] | None:
        try:
            status = path.stat()
            relative = path.relative_to(self.top).as_posix()
        except (OSError, ValueError):
            return None
        return relative, [status.st_mtime_ns, status.st_size, status.st_ino]

    def _cached(self, path: Path) -> list[str] | None:
        key = self._key(path)
        entry = self._entries().get(key[0]) if key is not None else None
        if (
            key is None
            or not isinstance(entry, list)
            or len(entry) != 2
            or entry[0] != key[1]
            or not isinstance(entry[1], list)
            or not all(isinstance(item, str) for item in entry[1])
        ):
            return None
        return list(entry[1])

    def _remember(self, path: Path, specifiers: list[str]) -> None:
        key = self._key(path)
        if key is None or self._cache_file is None:
            return
        entries = self._entries()
        entries[key[0]] = [key[1], specifiers]
        self._dirty = True

    def _save(self) -> None:
        if not self._dirty or self._cache_file is None:
            return

        entries = self._entries()
        if len(entries) > MAX_CACHED:
            for name in list(entries)[: len(entries) - MAX_CACHED]:
                del entries[name]
        try:
            self._cache_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_json(self._cache_file, {"format": CACHE_FORMAT, "files": entries})
            self._dirty = False
        except Exception:  # a read-only project or a full disk: the answer stands uncached
            return
