"""A ``package.json``'s entry points: its ``exports`` map (subpaths, patterns, conditions), ``main``.

Node resolves ``pkg/sub`` through the ``exports`` of ``pkg``'s ``package.json``
when it has one: the subpath must be a key of the map (or match a pattern key
with one ``*``), its target picked by the first condition node (or TypeScript)
knows, in the map's own order; a subpath the map does not list, or lists as
``null``, cannot be imported (``ERR_PACKAGE_PATH_NOT_EXPORTED``). Without
``exports``, ``main`` is the package's entry.
"""

# Resolution runs for every import of every file: plain os.path strings.
# ruff: noqa: PTH116, PTH118, PTH120, PTH123

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass

#: Conditions whose targets forge follows, as node would (TypeScript adds "types").
CONDITIONS = frozenset({"import", "require", "node", "module-sync", "module", "default"})
TYPESCRIPT_CONDITIONS = CONDITIONS | {"types"}
#: A subpath the map does not export: no key matches, or its target is null.
NOT_EXPORTED = "\0not exported"


@dataclass(frozen=True)
class Manifest:
    """The parts of one ``package.json`` that say what can be imported from the package."""

    folder: str
    name: str | None
    exports: object
    main: str | None
    tsconfig: str | None

    def entry(self, subpath: str, conditions: frozenset[str] = CONDITIONS) -> str | None:
        """The file ``subpath`` (``.``, ``./sub``) names, relative to the package; see module docs.

        :data:`NOT_EXPORTED` when the ``exports`` map refuses it; None when
        forge cannot tell (no ``exports`` and no ``main`` for ``.``, or a
        target only under conditions it does not follow).
        """
        if self.exports is None:
            if subpath == ".":
                return self.main
            return subpath
        return exported_target(self.exports, subpath, conditions)


def manifest(path: str) -> Manifest | None:
    """``path`` (a ``package.json``) read; None when absent or not a JSON object."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return _read(path, status.st_mtime_ns, status.st_size)


def nearest_manifest(folder: str) -> Manifest | None:
    """The ``package.json`` nearest ``folder``, in it or above it."""
    return _nearest(folder, "package.json")


def installed_manifest(folder: str, package: str) -> Manifest | None:
    """The ``package.json`` of ``package`` in the ``node_modules`` nearest ``folder``."""
    return _nearest(folder, os.path.join("node_modules", package, "package.json"))


def _nearest(folder: str, relative: str) -> Manifest | None:
    """The manifest at ``relative`` from ``folder`` or the folder nearest above it that has one."""
    current = folder
    while True:
        found = manifest(os.path.join(current, relative))
        if found is not None:
            return found
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


@functools.lru_cache(maxsize=256)
def _read(path: str, mtime: int, size: int) -> Manifest | None:
    if size > 1 << 20:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict):
        return None

    def text(key: str) -> str | None:
        value = document.get(key)
        return value if isinstance(value, str) else None

    return Manifest(
        folder=os.path.dirname(path),
        name=text("name"),
        exports=document.get("exports"),
        main=text("main"),
        tsconfig=text("tsconfig"),
    )


def exported_target(
    exports: object, subpath: str, conditions: frozenset[str] = CONDITIONS
) -> str | None:
    """The target of ``subpath`` in an ``exports`` value (see :meth:`Manifest.entry`)."""
    if isinstance(exports, (str, list)) or (
        isinstance(exports, dict) and not any(str(key).startswith(".") for key in exports)
    ):
        exports = {".": exports}  # the package's one entry, maybe under conditions
    if not isinstance(exports, dict):
        return NOT_EXPORTED
    if subpath in exports:
        return _target(exports[subpath], "", conditions)
    best: tuple[int, str, str] | None = None  # (length of the key's head, key, what * stands for)
    for key in exports:
        head, star, tail = str(key).partition("*")
        if (
            star
            and subpath.startswith(head)
            and subpath.endswith(tail)
            and len(subpath) >= len(head) + len(tail)
            and (best is None or len(head) > best[0])
        ):
            best = (len(head), key, subpath[len(head) : len(subpath) - len(tail)])
    if best is None:
        return NOT_EXPORTED
    return _target(exports[best[1]], best[2], conditions)


def _target(value: object, star: str, conditions: frozenset[str]) -> str | None:
    """A target value with ``*`` replaced: a path, :data:`NOT_EXPORTED`, or None (unknown)."""
    if value is None:
        return NOT_EXPORTED
    if isinstance(value, str):
        return value.replace("*", star)
    if isinstance(value, list):
        for item in value:
            found = _target(item, star, conditions)
            if found is not None and found != NOT_EXPORTED:
                return found
        return NOT_EXPORTED if value else None
    if isinstance(value, dict):
        refused = bool(value)
        for condition, nested in value.items():
            found = _target(nested, star, conditions)
            if found == NOT_EXPORTED:
                continue
            refused = False
            if condition in conditions and found is not None:
                return found
        # Only null targets: refused. Targets under other conditions (browser): unknown.
        return NOT_EXPORTED if refused else None
    return None


def exported_subpaths(exports: object) -> list[str]:
    """The subpath keys of an ``exports`` map (``.`` alone for a one-entry package)."""
    if isinstance(exports, dict) and any(str(key).startswith(".") for key in exports):
        return [str(key) for key in exports]
    return ["."]
