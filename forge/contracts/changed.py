"""The importers of what a change touched: every file, anywhere in the project, that imports a
file changed or deleted since the base.

A renamed export breaks its importers, not itself; a deleted file breaks every
file that still imports it. With a base revision the contract check asks this
module for:

- the changed files that exist (their own imports are checked as listed files' are),
- each ``(changed file, importer)`` pair, the importers found by the project's
  import index (:mod:`forge.contracts.import_index`: specifiers resolved to paths);
- each import of a deleted file that is still there: the files that imported it
  at the base are found by the same index over the base tree (unpacked from git
  objects into a private folder); an importer that still has that import is
  checked against what it resolves to now, or, when it resolves to nothing,
  is a :class:`DeletedImport`.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from forge.contracts.analysis import ContractAnalyzer, Parse, normalize
from forge.contracts.extractor import ImportRef
from forge.contracts.import_index import ImportIndex
from forge.contracts.importers import SOURCE_SUFFIXES

#: ``export *`` re-exporters followed from a changed file to the importers of its names.
MAX_STAR_HOPS = 4
#: Makes a parse function over another folder (the base tree's stand-in for the working dir).
ParseIn = Callable[[Path], Parse]


@dataclass(frozen=True)
class DeletedImport:
    """An import, still there, of a file deleted since the base, that now resolves to nothing."""

    importer: Path
    #: The deleted file, relative to the working dir.
    deleted: str
    ref: ImportRef


@dataclass
class ChangedImporters:
    """What the contract check adds for a change since the base."""

    #: Changed source files that exist, inside the working dir.
    changed: list[Path] = field(default_factory=list)
    #: Deleted source files, relative to the working dir.
    deleted: list[str] = field(default_factory=list)
    #: ``(exporter, importer)``: each importer of a changed file, or of what replaced a deleted one.
    pairs: list[tuple[Path, Path]] = field(default_factory=list)
    broken: list[DeletedImport] = field(default_factory=list)
    #: Distinct importers checked.
    importers: int = 0
    #: Source files the searches walked.
    scanned: int = 0
    complete: bool = True


def changed_importers(
    analyzer: ContractAnalyzer,
    cwd: Path,
    files: tuple[str, ...],
    top: Path,
    *,
    cache: Path | None,
    base_tree: Callable[[Path], Path],
    parse_in: ParseIn,
) -> ChangedImporters:
    """The importers of ``files`` (changed since the base, relative to ``top``, git's top folder).

    :param cwd: the working dir: only files inside it are judged, importers searched there.
    :param cache: the import index's cache file.
    :param base_tree: unpacks the base tree's part for the working dir into a folder, returning
        the stand-in for the working dir there (called only when a source file was deleted).
    :param parse_in: a parse function over the base tree's stand-in.
    """
    found = ChangedImporters()
    root = normalize(cwd)
    for name in files:
        path = top / name
        try:
            relative = normalize(path.parent) / path.name
            inside = relative.relative_to(root).as_posix()
        except ValueError:
            continue
        if not name.endswith(SOURCE_SUFFIXES):
            continue
        if path.is_file():
            found.changed.append(path)
        elif not path.exists():
            found.deleted.append(inside)
    index = ImportIndex(cwd, analyzer, cache)
    checked: set[Path] = set()
    targets, seen = list(found.changed), set()
    for _ in range(MAX_STAR_HOPS):
        importers = index.importers_of(targets)
        found.pairs += [(target, path) for path, hits in importers.found.items() for target in hits]
        found.scanned = max(found.scanned, importers.scanned)
        found.complete = found.complete and importers.complete
        checked |= set(importers.found)
        seen |= {analyzer.real(path) for path in targets}
        # Names flow through `export *` unseen: who imports a re-exporter is an importer too.
        targets = [
            path
            for path, hits in importers.found.items()
            if analyzer.real(path) not in seen and _stars(analyzer, path, set(hits))
        ]
        if not targets:
            break
    if found.deleted:
        with tempfile.TemporaryDirectory(prefix="forge-imports-base-") as folder:
            stand_in = base_tree(Path(folder))
            _deleted_imports(analyzer, cwd, stand_in, parse_in(stand_in), found, checked)
    found.importers = len(checked)
    return found


def _deleted_imports(
    analyzer: ContractAnalyzer,
    cwd: Path,
    stand_in: Path,
    parse: Parse,
    found: ChangedImporters,
    checked: set[Path],
) -> None:
    """Importers at the base of each deleted file: still importing it, they are judged now."""
    old = ContractAnalyzer(parse=parse, root=normalize(stand_in))
    targets = {old.real(stand_in / name): name for name in found.deleted}
    importers = ImportIndex(stand_in, old, None).importers_of([stand_in / n for n in found.deleted])
    found.scanned += importers.scanned
    found.complete = found.complete and importers.complete
    for then in importers.found:
        relative = then.relative_to(stand_in)
        now = cwd / relative
        if not now.is_file():
            continue  # the importer went too: nothing imports the file any more
        try:
            specifiers = {
                ref.specifier: targets[target]
                for ref, target in old.imports(then)
                if target in targets
            }
            refs = analyzer.imports(now)
        except Exception:  # a file forge cannot read the imports of is no importer it knows
            continue
        checked.add(now)
        for ref, target in refs:
            if ref.specifier not in specifiers or ref.guarded or ref.tentative:
                continue
            if target is not None:
                found.pairs.append((target, now))
            elif not _submodules(ref, refs):
                found.broken.append(DeletedImport(now, specifiers[ref.specifier], ref))


def _stars(analyzer: ContractAnalyzer, path: Path, targets: set[Path]) -> bool:
    """Whether ``path`` re-exports one of ``targets`` wholesale (``export *``, ``import *``)."""
    try:
        found = analyzer.extractor(path)
        if found is None:
            return False
        parsed, extractor = found
        sources = extractor.exports(parsed).star_sources
    except Exception:  # unreadable: its own pair says so
        return False
    real = analyzer.real(path)
    return any(analyzer.resolve(extractor, specifier, real) in targets for specifier, _ in sources)


def _submodules(ref: ImportRef, refs: list[tuple[ImportRef, Path | None]]) -> bool:
    """Whether every name ``ref`` takes is a module that exists (``from pkg import mod`` of a
    namespace package), so the import works without the deleted ``__init__``."""
    resolved = {other.specifier for other, target in refs if target is not None}
    separator = "" if ref.specifier.endswith(".") else "."
    return bool(ref.names) and all(
        f"{ref.specifier}{separator}{name.name}" in resolved for name in ref.names
    )
