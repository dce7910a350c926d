"""Contract analysis: an importer's imports against its exporter's exports, any language.

The **analyzer** (:class:`ContractAnalyzer`), language-independent, reads
files through the extractors of :mod:`forge.contracts.extractor`: it follows
``export *`` / ``from x import *`` chains through files that exist, keeps
only the imports that resolve to the exporter, and names what is missing with
a suggestion when a near name exists.

Files are never parsed here: the analyzer receives the workspace's ``parse``
function, so a file is parsed once per validate call whichever check asks.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from forge.contracts.extractor import (
    ExportSet,
    Extractor,
    ImportContext,
    ImportedName,
    ImportProblem,
    ImportRef,
)


@dataclass(frozen=True)
class MissingName:
    """A name the importer takes that the exporter does not export."""

    name: str
    line: int
    column: int
    suggestion: str | None = None


@dataclass(frozen=True)
class Exports:
    """A file's exports with ``export *`` chains followed."""

    names: frozenset[str]
    open_reason: str | None = None
    default_alias: str | None = None
    #: A file the ``export *`` chain takes names from whose tree has syntax
    #: errors: names after the error may be missing from ``names``.
    broken: Path | None = None
    #: Names that are the namespace of another local file (``export * as b from``).
    namespaces: tuple[tuple[str, Path], ...] = ()


@dataclass(frozen=True)
class Comparison:
    """The outcome of one exporter/importer pair."""

    exports: Exports
    imported: tuple[ImportedName, ...]
    imports_exporter: bool
    missing: tuple[MissingName, ...]
    #: Local files the importer does import (for "does not import" messages).
    imported_files: tuple[Path, ...] = ()
    #: A file whose tree has syntax errors (the exporter first, then the
    #: importer, then a file the exporter re-exports with ``export *``): names
    #: "missing" may be defined after the error, or misread around it.
    broken: Path | None = None


class ContractError(Exception):
    """A pair that cannot be checked at all (no extractor for the file's language)."""


Parse = Callable[[Path], Any]


@dataclass
class ContractAnalyzer:
    """Exports, imports and comparisons over one validate call's parse function.

    ``parse(path)`` returns the parsed file (``None`` when no language owns
    the path) or raises (``NotParsed``); exceptions propagate to the caller.
    Results are cached per path for the analyzer's lifetime.
    """

    parse: Parse
    root: Path
    context: ImportContext | None = None
    _imports: dict[Path, list[tuple[ImportRef, Path | None]]] = field(default_factory=dict)
    # Names the files read so far set on each file (``config.ready = True``):
    # kept as imports are read, as every pair asks (:meth:`set_on`).
    _sets: dict[Path, set[str]] = field(default_factory=dict)
    _own: dict[Path, ExportSet] = field(default_factory=dict)
    _exports: dict[Path, Exports] = field(default_factory=dict)
    _resolved: dict[tuple[int, str, Path, str], Path | None] = field(default_factory=dict)
    # isinstance() against a runtime-checkable Protocol and realpath() are
    # slow enough to show over a whole package: once per object and path.
    _conforms: dict[int, bool] = field(default_factory=dict)
    _real: dict[Path, Path] = field(default_factory=dict)

    def extractor(self, path: Path) -> tuple[Any, Extractor] | None:
        """The parsed file and its language's extractor; None when the language has none."""
        parsed = self.parse(path)
        if parsed is None:
            return None
        extractor = getattr(parsed.language, "extractor", None)
        if id(extractor) not in self._conforms:
            self._conforms[id(extractor)] = isinstance(extractor, Extractor)
        if not self._conforms[id(extractor)]:
            return None
        return parsed, cast("Extractor", extractor)

    def real(self, path: Path) -> Path:
        """:func:`normalize`, once per path for the analyzer's lifetime."""
        found = self._real.get(path)
        if found is None:
            found = self._real[path] = self._resolved_in_folder(path)
        return found

    def _resolved_in_folder(self, path: Path) -> Path:
        """``normalize(path)``: the folder's real path (kept), then one ``lstat`` of the name.

        The files of one folder share its real path, and a name that is not a
        symlink resolves to itself in it; anything else takes the full walk.
        """
        name = path.name
        if not path.is_absolute() or name in ("", ".", ".."):
            return normalize(path)
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                return normalize(path)
        except (OSError, ValueError):
            return normalize(path)
        return self.real(path.parent) / name

    def _require(self, path: Path) -> tuple[Any, Extractor]:
        found = self.extractor(path)
        if found is None:
            raise ContractError(f"{path.name}: no contract extractor for this kind of file")
        return found

    def imports(self, path: Path) -> list[tuple[ImportRef, Path | None]]:
        """``path``'s imports, each with the file it resolves to (None: not a local file)."""
        key = self.real(path)
        if key not in self._imports:
            parsed, extractor = self._require(key)
            # What a file imports depends on its source alone: kept with its tree.
            # Where each import leads depends on other files: resolved per call.
            refs = parsed.derived(("contracts", "imports"), lambda: extractor.imports(parsed))
            self._imports[key] = [
                (ref, self.resolve(extractor, ref.specifier, key)) for ref in refs
            ]
            for ref, target in self._imports[key]:
                if ref.sets and target is not None:
                    self._sets.setdefault(target, set()).update(ref.sets)
        return self._imports[key]

    def resolve(self, extractor: Extractor, specifier: str, importer: Path) -> Path | None:
        """``extractor.resolve``, normalized, once per specifier, folder and kind of importer."""
        key = (id(extractor), specifier, importer.parent, importer.suffix)
        if key not in self._resolved:
            found = extractor.resolve(specifier, importer, self.root)
            self._resolved[key] = None if found is None else self.real(found)
        return self._resolved[key]

    def exports(self, path: Path) -> Exports:
        """``path``'s exports with star re-exports followed (cycle-safe)."""
        key = self.real(path)
        if key not in self._exports:
            self._exports[key] = self._follow(key, visiting=set())
        return self._exports[key]

    def _own_exports(self, path: Path) -> tuple[ExportSet, Extractor]:
        parsed, extractor = self._require(path)
        if path not in self._own:
            self._own[path] = extractor.exports(parsed)
        return self._own[path], extractor

    def _follow(self, path: Path, visiting: set[Path]) -> Exports:
        own, extractor = self._own_exports(path)
        names = set(own.names) | own.implicit
        open_reason = own.open_reason
        broken: Path | None = None
        visiting.add(path)
        for specifier, line in own.star_sources:
            target = self.resolve(extractor, specifier, path)
            if target is None:
                open_reason = open_reason or (
                    f"{path.name}:{line} re-exports everything from {specifier!r}, "
                    "which is not a local file"
                )
                continue
            if target in visiting:
                continue
            try:
                taken = self._star_part(target, visiting)
            except ContractError:
                taken = None
            except Exception as exc:  # NotParsed: the re-exported file has no tree
                open_reason = open_reason or f"{path.name}:{line} re-exports {specifier!r}: {exc}"
                continue
            if taken is None or taken.open_reason:
                open_reason = open_reason or (
                    taken.open_reason
                    if taken
                    else f"{path.name}:{line} re-exports {specifier!r}, which cannot be read"
                )
                continue
            names |= taken.names
            broken = broken or taken.broken
        visiting.discard(path)
        namespaces = tuple(
            (name, target)
            for name, specifier in own.namespaces
            if (target := self.resolve(extractor, specifier, path)) is not None
        )
        return Exports(frozenset(names), open_reason, own.default_alias, broken, namespaces)

    def _star_part(self, path: Path, visiting: set[Path]) -> Exports:
        own, extractor = self._own_exports(path)
        # A grammar's gap on a valid file (tree-sitter-typescript on a call
        # signature after another in an interface) can swallow the rest of the
        # file: what the star takes from it is then only a part.
        broken = path if self._has_errors(path) else None
        if own.star_names is not None:
            return Exports(own.star_names, own.open_reason, broken=broken)
        full = self._follow(path, visiting)
        taken = frozenset(
            name for name in full.names - own.implicit if extractor.star_visible(name)
        )
        return Exports(taken, full.open_reason, broken=broken or full.broken)

    def _has_errors(self, path: Path) -> bool:
        return bool(getattr(self._require(path)[0], "has_errors", False))

    def compare(self, exporter: Path, importer: Path) -> Comparison:
        """What ``importer`` takes from ``exporter``, and what of it is missing."""
        exporter = self.real(exporter)
        refs = self.imports(importer)
        mine = [ref for ref, target in refs if target == exporter]
        exports = self.exports(exporter)
        elsewhere = self.set_on(exporter)
        if elsewhere - exports.names:
            exports = replace(exports, names=exports.names | elsewhere, broken=None)
        imported = tuple(name for ref in mine for name in ref.names)
        missing: list[MissingName] = []
        if exports.open_reason is None:
            seen: set[str] = set()
            for name in (name for ref in mine if not ref.guarded for name in ref.names):
                missing.extend(self._missing(name, exports, seen, ""))
        others = tuple(dict.fromkeys(target for _, target in refs if target is not None))
        broken = next(
            (side for side in (exporter, self.real(importer)) if self._has_errors(side)),
            exports.broken,
        )
        return Comparison(exports, imported, bool(mine), tuple(missing), others, broken)

    def _missing(
        self, name: ImportedName, exports: Exports, seen: set[str], prefix: str
    ) -> list[MissingName]:
        """``name`` if ``exports`` lacks it, else its members missing from a namespace it is."""
        if name.name not in exports.names:
            if prefix + name.name in seen:
                return []
            seen.add(prefix + name.name)
            suggestion = suggest(name, exports)
            return [
                MissingName(
                    prefix + name.name,
                    name.line,
                    name.column,
                    prefix + suggestion if suggestion else None,
                )
            ]
        target = dict(exports.namespaces).get(name.name)
        if target is None or not name.members:
            return []
        try:
            inner = self.exports(target)
        except Exception:  # NotParsed, ContractError: the namespace's file is not ours to judge
            return []
        if inner.open_reason is not None:
            return []
        return [
            missing
            for member in name.members
            for missing in self._missing(member, inner, seen, f"{prefix}{name.name}.")
        ]

    def set_on(self, exporter: Path) -> frozenset[str]:
        """Names the files read so far set on ``exporter`` (``config.ready = True``).

        sqlalchemy's test plugin sets ``config.bootstrapped_as_sqlalchemy``
        for its engines module to read: the module is a namespace others
        fill. Only files this analyzer has read count (:meth:`read_all`).
        """
        return frozenset(self._sets.get(self.real(exporter), ()))

    def read_all(self, paths: list[Path]) -> None:
        """Read the imports of ``paths`` now, so that :meth:`set_on` knows them all.

        A file that cannot be read is left to the checks that report it.
        """
        for path in paths:
            try:
                self.imports(path)
            except Exception:  # NotParsed, ContractError, OSError: not ours to report
                continue

    def import_problems(self, importer: Path) -> list[ImportProblem]:
        """Imports of ``importer`` that resolve to no file, module or package the project has.

        Only extractors with a ``diagnose`` method take part (see
        :class:`ImportContext`); guarded and tentative imports never do.
        """
        importer = self.real(importer)
        _, extractor = self._require(importer)
        diagnose = getattr(extractor, "diagnose", None)
        if diagnose is None:
            return []
        context = self.context or ImportContext(self.root)
        problems: list[ImportProblem] = []
        said: set[str] = set()
        for ref, target in self.imports(importer):
            if target is not None or ref.guarded or ref.tentative:
                continue
            message = diagnose(ref.specifier, importer, context)
            if message and message not in said:
                said.add(message)
                problems.append(ImportProblem(ref.specifier, ref.line, ref.column, message))
        return problems

    def local_imports(self, importer: Path) -> Iterator[Path]:
        """Files inside the working dir that ``importer`` imports and that have an extractor."""
        root = self.real(self.root)
        me = self.real(importer)
        seen: set[Path] = set()
        for _, target in self.imports(importer):
            if target is None or target in seen or target == me:
                continue
            seen.add(target)
            if _inside(target, root):
                yield target


def suggest(name: ImportedName, exports: Exports) -> str | None:
    """A near exported name for a missing one, or ``default`` for a default-vs-named mix-up."""
    # "default" is suggested only through the declared-name rule below: a
    # near spelling of "default" ("delta") is no reason to suggest it.
    candidates = sorted(exports.names - {"default"})
    if name.name == "default":
        # `import greet from` where the exporter has `export function greet`.
        wanted = name.local or ""
        if wanted in candidates:
            return wanted
        close = difflib.get_close_matches(wanted, candidates, n=1, cutoff=0.6) if wanted else []
        return close[0] if close else None
    if "default" in exports.names and exports.default_alias == name.name:
        return "default"
    folded = [c for c in candidates if c.lower() == name.name.lower()]
    if folded:
        return folded[0]
    close = difflib.get_close_matches(name.name, candidates, n=1, cutoff=0.6)
    if close:
        return close[0]
    longer = [c for c in candidates if c.startswith(name.name) or name.name.startswith(c)]
    return longer[0] if longer else None


def describe_missing(name: str, suggestion: str | None, exporter: str) -> str:
    """One line saying what is missing from ``exporter`` and what was probably meant."""
    if name == "default":
        text = f"{exporter} has no default export"
        if suggestion:
            text += f" (did you mean the named export '{suggestion}'?)"
        return text
    text = f"'{name}' is not exported by {exporter}"
    if suggestion == "default":
        text += " (it is the default export: import it as the default)"
    elif suggestion:
        text += f" (did you mean '{suggestion}'?)"
    return text


def normalize(path: Path) -> Path:
    """An absolute, symlink-free path, so one file has one key."""
    return Path(os.path.realpath(path))


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents
