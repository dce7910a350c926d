"""The ``forge`` entry points of the installed distributions, remembered between processes.

Finding entry points means importing :mod:`importlib.metadata` and reading
the metadata of every installed distribution: tens of milliseconds that a
fresh ``forge validate`` or ``forge hook`` (started once per file an agent
writes) would pay each time. The answer is kept in
``$FORGE_HOME/cache/entry-points-<hash>.json`` (one file per interpreter and
``sys.path``) with a fingerprint of what was installed: the
``*.dist-info``/``*.egg-info`` folders of each ``sys.path`` folder, with the
modification time of each and of its ``entry_points.txt`` (a zip file on
``sys.path``: its own modification time). Installing,
upgrading or removing a distribution changes the fingerprint, and the entry
points are read again. ``FORGE_NO_CACHE=1`` turns the cache off.

The cache holds names and ``module:attr`` strings only; loading a plugin
imports its module exactly as :meth:`importlib.metadata.EntryPoint.load` does.
A missing, unreadable or foreign cache file is just a miss.

The same file remembers the installed version of a distribution forge asks
about (:func:`installed_version`: the language pack's, at every validate),
valid while the fingerprint above is unchanged.

It also remembers which hooks each plugin module implements (learnt the
first time it is imported), so a command imports a plugin only when one of
its hooks is called (:class:`forge.plugin_host.host.PluginHost`), and the
check ids each one declares (learnt when its ``forge_checks`` is called), so
``forge plan check`` knows which checks exist without importing them. Both
are valid while the installed distributions are unchanged (the fingerprint
above) and while every file defining the plugin or one of its hook
implementations keeps its modification time and size: editing a plugin in
place (an editable install) makes forge import it again to learn its hooks.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from forge.store.home import forge_home
from forge.store.writes import write_bytes_atomic

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from importlib.metadata import EntryPoint

    import pluggy

CACHE_VERSION = 1
#: A cache file larger than this is not read.
MAX_CACHE_BYTES = 1 << 20


@dataclass(frozen=True)
class FoundEntryPoint:
    """One entry point: its name, ``module:attr`` value and the distribution that declares it."""

    name: str
    value: str
    distribution: str
    version: str

    def load(self) -> Any:
        """Import the module and return the attribute the value names."""
        module_name, _, attribute = self.value.partition(":")
        found: Any = importlib.import_module(module_name.strip())
        attribute = attribute.split("[", 1)[0].strip()  # extras are not forge's business
        for part in filter(None, attribute.split(".")):
            found = getattr(found, part)
        return found


def fingerprint() -> list[list[Any]]:
    """What the installed distributions look like, cheaply: see the module docstring."""
    marks: list[list[Any]] = []
    for entry in sys.path:
        folder = Path(entry or ".")
        try:
            listing = os.scandir(folder)
        except OSError:  # missing, or a zip file: its own mtime is all there is
            with contextlib.suppress(OSError):
                marks.append([str(folder), folder.stat().st_mtime_ns])
            continue
        # A folder's own mtime is not part of it: entry points live in the
        # *-info folders listed below, and a project folder on sys.path (a
        # script's, an editable install's) changes whenever a file is added.
        marks.append([str(folder)])
        with listing:
            names = sorted(e.name for e in listing if e.name.endswith((".dist-info", ".egg-info")))
        for name in names:
            meta = folder / name
            try:
                marks.append([name, meta.stat().st_mtime_ns])
                marks.append(["ep", (meta / "entry_points.txt").stat().st_mtime_ns])
            except OSError:
                continue
    return marks


def cache_file(home: Path) -> Path:
    """Where the cache for this interpreter and ``sys.path`` lives under ``home``."""
    where = json.dumps([sys.executable, sys.path]).encode()
    return home / "cache" / f"entry-points-{hashlib.sha256(where).hexdigest()[:16]}.json"


def discover(group: str) -> list[FoundEntryPoint]:
    """Every installed entry point of ``group``, read from the distributions' metadata."""
    from importlib.metadata import entry_points  # deferred: only a cache miss reads metadata

    return describe(entry_points(group=group))


def describe(entry_points: Iterable[EntryPoint]) -> list[FoundEntryPoint]:
    """Each entry point with its distribution's name and version (``?`` when it has none).

    A distribution's metadata is parsed once, however many entry points it
    has: parsing it is most of the cost of finding plugins.
    """
    metadata: dict[object, tuple[str, str]] = {}
    found: list[FoundEntryPoint] = []
    for entry_point in entry_points:
        dist = entry_point.dist
        if dist is None:
            name, version = "?", "?"
        else:
            if dist not in metadata:
                fields = dist.metadata
                metadata[dist] = (fields["Name"], fields["Version"])
            name, version = metadata[dist]
        found.append(FoundEntryPoint(entry_point.name, entry_point.value, name, version))
    return found


class EntryPointCache:
    """The cache file of this interpreter and ``sys.path``, read once: entry points and hooks.

    Invalidation: everything in it is dropped when the fingerprint of the
    installed distributions changes; a plugin's hook names are also dropped
    when one of the files they were learnt from changes (see the module
    docstring). ``FORGE_NO_CACHE=1`` makes every lookup a miss.
    """

    def __init__(self, home: Path) -> None:
        self.path = cache_file(home)
        self.enabled = os.environ.get("FORGE_NO_CACHE", "") in {"", "0"}
        self._marks = fingerprint() if self.enabled else []
        stored = _read(self.path) if self.enabled else None
        self._groups: dict[str, Any] = {}
        self._hooks: dict[str, Any] = {}
        self._versions: dict[str, Any] = {}
        if (
            isinstance(stored, dict)
            and stored.get("version") == CACHE_VERSION
            and stored.get("fingerprint") == self._marks
        ):
            for name, into in (
                ("groups", self._groups),
                ("hooks", self._hooks),
                ("versions", self._versions),
            ):
                if isinstance(stored.get(name), dict):
                    into.update(stored[name])
        self._dirty = False

    def entry_points(self, group: str) -> list[FoundEntryPoint]:
        """:func:`discover`'s answer, from the cache while the installed distributions are unchanged."""
        rows = self._groups.get(group)
        if isinstance(rows, list):
            try:
                return [FoundEntryPoint(*map(str, row)) for row in rows]
            except TypeError:  # a row of the wrong length: a foreign file
                pass
        found = discover(group)
        self._groups[group] = [[e.name, e.value, e.distribution, e.version] for e in found]
        self._dirty = True
        return found

    def version(self, distribution: str) -> str | None:
        """``distribution``'s installed version (None: not installed), read once per install."""
        known = self._versions.get(distribution, False)
        if known is None or isinstance(known, str):
            return known
        from importlib import metadata  # deferred: only a cache miss reads metadata

        try:
            found: str | None = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            found = None
        self._versions[distribution] = found
        self._dirty = True
        return found

    def hooks(self, value: str) -> frozenset[str] | None:
        """The hooks the plugin ``value`` names implements, if known and its files are unchanged."""
        known = self._hooks.get(value)
        if not self.enabled or not isinstance(known, dict):
            return None
        hooks, files = known.get("hooks"), known.get("files")
        if not isinstance(hooks, list) or not isinstance(files, list) or not files:
            return None
        for row in files:
            if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)):
                return None
            try:
                stat = Path(row[0]).stat()
            except OSError:
                return None
            if [stat.st_mtime_ns, stat.st_size] != row[1:]:
                return None
        return frozenset(map(str, hooks))

    def learn(self, value: str, hooks: Iterable[str], files: Iterable[str]) -> None:
        """Remember that plugin ``value`` implements ``hooks``, as defined in ``files``."""
        rows: list[list[Any]] = []
        for file in sorted(set(files)):
            try:
                stat = Path(file).stat()
            except OSError:
                return  # nothing to check it against later: not remembered
            rows.append([file, stat.st_mtime_ns, stat.st_size])
        entry: dict[str, Any] = {"hooks": sorted(hooks), "files": rows}
        known = self._hooks.get(value)
        if not rows or (
            isinstance(known, dict) and all(known.get(k) == v for k, v in entry.items())
        ):
            return  # unchanged: what it declares (learnt later) stays
        self._hooks[value] = entry
        self._dirty = True

    def declared(self, value: str, hook: str) -> list[str] | None:
        """The ids plugin ``value`` returned from ``hook`` (``forge_checks``), if known and current.

        Learnt with :meth:`learn_declared`, valid while its hooks are
        (:meth:`hooks`): a plugin's declarations are taken to depend on its
        code and the installed distributions only, as its hooks do.
        """
        if self.hooks(value) is None:
            return None
        declares = self._hooks[value].get("declares")
        ids = declares.get(hook) if isinstance(declares, dict) else None
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            return None
        return ids

    def learn_declared(self, value: str, hook: str, ids: Iterable[str]) -> None:
        """Remember the ids plugin ``value`` returned from ``hook``; only once its hooks are known."""
        if self.hooks(value) is None:
            return
        entry = self._hooks[value]
        declares = entry.get("declares")
        if not isinstance(declares, dict):
            declares = entry["declares"] = {}
        wanted = sorted(set(ids))
        if declares.get(hook) != wanted:
            declares[hook] = wanted
            self._dirty = True

    def save(self) -> None:
        """Write what was learnt since the file was read (nothing when nothing was)."""
        if self.enabled and self._dirty:
            value = {
                "version": CACHE_VERSION,
                "fingerprint": self._marks,
                "groups": self._groups,
                "hooks": self._hooks,
                "versions": self._versions,
            }
            _write(self.path, value)
            self._dirty = False


#: The caches opened inside :func:`one_reading`, by home; None outside it.
_shared: dict[Path, EntryPointCache] | None = None
_shared_lock = threading.Lock()


@contextlib.contextmanager
def one_reading() -> Iterator[None]:
    """Within the block, lookups under one ``FORGE_HOME`` share one :class:`EntryPointCache`.

    For one CLI command (a fraction of a second): pydantic's plugin lookup, the
    plugin host and the language pack's version then fingerprint the installed
    distributions and read the file once, not three times. Invalidation: the
    sharing ends with the block; outside it (the MCP server, embedding code)
    every :func:`open_cache` reads afresh, so an install is noticed by the next
    lookup.
    """
    global _shared
    with _shared_lock:
        outer, _shared = _shared, {} if _shared is None else _shared
    try:
        yield
    finally:
        with _shared_lock:
            _shared = outer


def open_cache(home: Path) -> EntryPointCache:
    """The cache of ``home``: the one opened earlier in :func:`one_reading`'s block, else a new one."""
    with _shared_lock:
        if _shared is None:
            return EntryPointCache(home)
        cache = _shared.get(home)
        if cache is None:
            cache = _shared[home] = EntryPointCache(home)
        return cache


def installed_version(distribution: str) -> str | None:
    """``distribution``'s installed version, or None; from the cache under ``FORGE_HOME``.

    For code that asks at every call (the language pack's plugin): reading the
    distribution's metadata imports :mod:`importlib.metadata` (~15 ms).
    """
    cache = open_cache(forge_home())
    found = cache.version(distribution)
    cache.save()
    return found


def definitions(pm: pluggy.PluginManager, plugin: object) -> tuple[list[str], list[str]] | None:
    """The hooks ``plugin`` implements and the files defining it and them; None if unknowable."""
    hooks: list[str] = []
    modules = {
        getattr(plugin, "__name__", None)
        if isinstance(plugin, ModuleType)
        else type(plugin).__module__
    }
    for caller in pm.get_hookcallers(plugin) or []:
        hooks.append(caller.name)
        modules.update(
            getattr(impl.function, "__module__", None)
            for impl in caller.get_hookimpls()
            if impl.plugin is plugin
        )
    files = [getattr(sys.modules.get(module or ""), "__file__", None) for module in modules]
    if not all(files):
        return None  # defined where no file says when it changes: imported every time
    return hooks, [file for file in files if file]


def _read(path: Path) -> Any:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_CACHE_BYTES + 1)
        return json.loads(data) if len(data) <= MAX_CACHE_BYTES else None
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def _write(path: Path, value: Any) -> None:
    """Store the cache; a read-only home or a full disk only costs the next process time."""
    with contextlib.suppress(OSError):
        write_bytes_atomic(path, json.dumps(value, separators=(",", ":")).encode(), durable=False)
