"""What a tsconfig (or jsconfig) says about where modules are: ``baseUrl`` and ``paths``
(aliases), ``outDir`` and ``rootDir`` (where the build puts what it compiles).

``extends`` is followed, relative (``./base.json``) or a package's
(``@sindresorhus/tsconfig``: its ``package.json`` ``tsconfig`` field or
``exports``, else its ``tsconfig.json``), one name or a list; a path is
relative to the file that sets it, ``${configDir}`` the extending file's folder.
"""

# Resolution runs for every import of every file: plain os.path strings.
# ruff: noqa: PTH112, PTH113, PTH116, PTH117, PTH118, PTH120, PTH122

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from forge.contracts.ecmascript.node_packages import npm_package_name, read_jsonc
from forge.contracts.ecmascript.package_exports import NOT_EXPORTED, manifest


@dataclass(frozen=True)
class PathAliases:
    """A tsconfig's (or jsconfig's) ``baseUrl``, ``paths``, ``outDir`` and ``rootDir``."""

    base: Path
    base_url: Path | None
    paths: tuple[tuple[str, tuple[str, ...]], ...]
    #: Where the build writes; None when the config does not say.
    out_dir: Path | None = None
    #: Folders the sources may be under, the output mirroring them: ``rootDir``, else the
    #: config's folder and its ``include`` folders (TypeScript takes their common root).
    source_roots: tuple[Path, ...] = ()

    def source_for(self, built: Path) -> list[Path]:
        """The source paths an output path under ``out_dir`` is compiled from (no extension change)."""
        if self.out_dir is None:
            return []
        try:
            relative = built.relative_to(self.out_dir)
        except ValueError:
            return []
        return [root / relative for root in self.source_roots]

    def pattern_for(self, specifier: str) -> str | None:
        """The ``paths`` pattern ``specifier`` matches (exact first, then the longest prefix)."""
        best: tuple[int, str] | None = None
        for pattern, _ in self.paths:
            if "*" not in pattern:
                if pattern == specifier:
                    return pattern
                continue
            head, _, tail = pattern.partition("*")
            if (
                specifier.startswith(head)
                and specifier.endswith(tail)
                and (len(specifier) >= len(head) + len(tail))
            ) and (best is None or len(head) > best[0]):
                best = (len(head), pattern)
        return best[1] if best else None

    def targets(self, specifier: str) -> list[Path]:
        """The paths ``specifier`` stands for under its matching pattern."""
        pattern = self.pattern_for(specifier)
        if pattern is None:
            return []
        head, star, tail = pattern.partition("*")
        middle = specifier[len(head) : len(specifier) - len(tail)] if star else ""
        root = self.base_url or self.base
        return [
            Path(os.path.normpath(root / target.replace("*", middle)))
            for target in dict(self.paths)[pattern]
        ]


def tsconfig_for(folder: Path) -> PathAliases | None:
    """The nearest ``tsconfig.json`` (or ``jsconfig.json``) above ``folder``, if it says anything."""
    current = str(folder)
    while True:
        for name in ("tsconfig.json", "jsconfig.json"):
            path = os.path.join(current, name)
            if os.path.isfile(path):
                return _aliases(path, os.stat(path).st_mtime_ns)
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


@dataclass(frozen=True)
class _Chain:
    """A tsconfig's ``compilerOptions`` and ``include``, its ``extends`` followed."""

    #: option -> (value, folder of the file that set it); the extending file wins.
    options: dict[str, tuple[object, str]]
    include: tuple[str, ...]
    include_base: str
    #: Whether a file of the chain sets ``files`` or ``include`` (else tsc takes every file).
    inputs_set: bool = False


def compiler_option(tsconfig: Path, name: str) -> object:
    """The value ``tsconfig`` gives the compiler option ``name``, ``extends`` followed; None if unset."""
    path = str(tsconfig)
    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError:
        return None
    return _chain(path, mtime).options.get(name, (None, ""))[0]


def sets_inputs(tsconfig: Path) -> bool:
    """Whether ``tsconfig`` (``extends`` followed) sets ``files`` or ``include``."""
    try:
        mtime = os.stat(str(tsconfig)).st_mtime_ns
    except OSError:
        return False
    return _chain(str(tsconfig), mtime).inputs_set


@functools.lru_cache(maxsize=64)
def _chain(path: str, mtime: int) -> _Chain:
    """``path``'s options and ``include``, ``extends`` followed (``mtime`` keys the cache)."""
    options: dict[str, tuple[object, str]] = {}
    include: list[str] = []
    include_base = os.path.dirname(path)
    seen: set[str] = set()
    inputs_set = False
    pending = [path]
    while pending and len(seen) < 10:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        config = read_jsonc(current)
        if config is None:
            continue
        here = os.path.dirname(current)
        compiler = config.get("compilerOptions")
        if isinstance(compiler, dict):
            for option, value in compiler.items():
                options.setdefault(option, (value, here))
        listed = config.get("include")
        inputs_set = inputs_set or "files" in config or "include" in config
        if not include and isinstance(listed, list):
            include = [item for item in listed if isinstance(item, str)]
            include_base = here
        extends = config.get("extends")
        names = extends if isinstance(extends, list) else [extends]
        # The last of a list wins over the ones before it: it is read first.
        pending += [found for name in names if (found := _extended(name, here)) is not None]
    return _Chain(options, tuple(include), include_base, inputs_set)


@functools.lru_cache(maxsize=64)
def _aliases(path: str, mtime: int) -> PathAliases | None:
    """``path``'s module options (``mtime`` keys the cache)."""
    leaf = os.path.dirname(path)
    chain = _chain(path, mtime)
    options, include, include_base = chain.options, list(chain.include), chain.include_base

    def folder(option: str) -> Path | None:
        value, here = options.get(option, (None, leaf))
        if not isinstance(value, str):
            return None
        value = value.replace("${configDir}", leaf)
        return Path(os.path.normpath(os.path.join(here, value)))

    raw = options.get("paths", (None, leaf))[0]
    paths = tuple(
        (pattern, tuple(t.replace("${configDir}", leaf) for t in targets if isinstance(t, str)))
        for pattern, targets in (raw.items() if isinstance(raw, dict) else ())
        if isinstance(pattern, str) and isinstance(targets, list)
    )
    base_url, out_dir, root_dir = folder("baseUrl"), folder("outDir"), folder("rootDir")
    if base_url is None and not paths and out_dir is None:
        return None
    roots = (
        (root_dir,)
        if root_dir is not None
        else (Path(leaf), *_include_folders(include, include_base))
    )
    return PathAliases(
        base=Path(options.get("paths", (None, leaf))[1]),
        base_url=base_url,
        paths=paths,
        out_dir=out_dir,
        source_roots=roots,
    )


def _include_folders(include: list[str], base: str) -> tuple[Path, ...]:
    """The folders of ``include`` patterns (``source``, ``src/**/*``), each a possible root."""
    found = []
    for pattern in include:
        head = pattern.split("*", 1)[0].rstrip("/")
        if head and not os.path.splitext(head)[1]:
            found.append(Path(os.path.normpath(os.path.join(base, head))))
    return tuple(dict.fromkeys(found))


def _extended(name: object, here: str) -> str | None:
    """The file an ``extends`` value names, relative to ``here`` or a package's; None if none."""
    if not isinstance(name, str) or not name:
        return None
    if name.startswith(".") or os.path.isabs(name):
        path = os.path.normpath(os.path.join(here, name))
        return path if path.endswith(".json") or os.path.isfile(path) else path + ".json"
    package = npm_package_name(name)
    if package is None:
        return None
    subpath = "." + name[len(package) :]
    current = here
    while True:
        folder = os.path.join(current, "node_modules", package)
        if os.path.isdir(folder):
            return _package_config(folder, subpath)
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _package_config(folder: str, subpath: str) -> str | None:
    """The tsconfig file ``subpath`` of the installed package in ``folder`` stands for."""
    found = manifest(os.path.join(folder, "package.json"))
    candidates = []
    if subpath == "." and found is not None and found.tsconfig:
        candidates.append(found.tsconfig)
    if found is not None and found.exports is not None:
        target = found.entry(subpath)
        if target is not None and target != NOT_EXPORTED:
            candidates.append(target)
    if subpath == ".":
        candidates.append("tsconfig.json")
    else:
        candidates += [subpath, subpath + ".json", subpath + "/tsconfig.json"]
    for candidate in candidates:
        path = os.path.normpath(os.path.join(folder, candidate))
        if os.path.isfile(path):
            return path
    return None
