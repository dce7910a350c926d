"""The path aliases of a tsconfig (or jsconfig): ``compilerOptions.baseUrl`` and ``paths``."""

# Resolution runs for every import of every file: plain os.path strings.
# ruff: noqa: PTH113, PTH116, PTH118, PTH120

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from forge.contracts.ecmascript.node_packages import read_jsonc


@dataclass(frozen=True)
class PathAliases:
    """A tsconfig's (or jsconfig's) ``compilerOptions.baseUrl`` and ``paths``."""

    base: Path
    base_url: Path | None
    paths: tuple[tuple[str, tuple[str, ...]], ...]

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
    """The path aliases of the nearest ``tsconfig.json`` (or ``jsconfig.json``) above ``folder``."""
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


@functools.lru_cache(maxsize=64)
def _aliases(path: str, mtime: int) -> PathAliases | None:
    """``path``'s ``baseUrl`` and ``paths``, following relative ``extends`` (``mtime`` keys the cache)."""
    options: dict[str, object] = {}
    seen: set[str] = set()
    current: str | None = path
    paths_base = base_url_base = os.path.dirname(path)
    while current is not None and current not in seen and len(seen) < 10:
        seen.add(current)
        config = read_jsonc(current)
        if config is None:
            break
        compiler = config.get("compilerOptions")
        if isinstance(compiler, dict):
            here = os.path.dirname(current)
            if "paths" in compiler and "paths" not in options:
                options["paths"] = compiler["paths"]
                paths_base = here
            if "baseUrl" in compiler and "baseUrl" not in options:
                options["baseUrl"] = compiler["baseUrl"]
                base_url_base = here
        extends = config.get("extends")
        current = None
        if isinstance(extends, str) and extends.startswith("."):
            parent = os.path.normpath(os.path.join(os.path.dirname(path), extends))
            current = parent if parent.endswith(".json") else parent + ".json"
    base_url = options.get("baseUrl")
    raw = options.get("paths")
    paths = tuple(
        (pattern, tuple(t for t in targets if isinstance(t, str)))
        for pattern, targets in (raw.items() if isinstance(raw, dict) else ())
        if isinstance(pattern, str) and isinstance(targets, list)
    )
    if not isinstance(base_url, str) and not paths:
        return None
    return PathAliases(
        base=Path(paths_base),
        base_url=Path(os.path.normpath(os.path.join(base_url_base, base_url)))
        if isinstance(base_url, str)
        else None,
        paths=paths,
    )
