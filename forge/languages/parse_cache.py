"""The parse cache: each file read and parsed once, its tree kept while it is unchanged.

Two layers, from long-lived to per call:

- :class:`ParseCache`: trees kept between validate calls in a long-running
  process (the MCP server), and with each tree what checks derived from it
  (:meth:`~forge.languages.registry.ParsedFile.derived`). A file whose path, size, mtime,
  ctime and inode are unchanged is not read or parsed again, unless it changed
  so recently that a rewrite could keep all of them (see :data:`RACY_NS`): its
  bytes are then read and compared. Thread-safe: two calls may parse one file
  at the same time, and the later tree simply replaces the earlier one.
- :class:`ParseSession`: one validate call's view of the cache, which
  guarantees that every check asking for a file gets the very same
  :class:`~forge.languages.registry.ParsedFile`, read and parsed at most once.

Reading is strict (regular files only, a size limit, UTF-8 or a declared
encoding): a file that cannot be parsed raises :class:`~forge.languages.registry.NotParsed`.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from forge.languages.registry import LanguageRegistry, NotParsed, ParsedFile
from forge.models import Language

#: Source bytes the cross-call cache keeps in all before dropping the least recently used.
DEFAULT_CACHE_BYTES = 256 * 1024 * 1024
_UTF8_BOM = b"\xef\xbb\xbf"
#: How long after its last change a file's stat is not trusted alone. File
#: systems stamp a write with a coarse clock (a few milliseconds on Linux, up
#: to 2 s on FAT and some network mounts), so a same-size rewrite soon after a
#: read can leave size, mtime and ctime as they were. A file read less than
#: this long after its mtime is a "racy" entry (git's word for the same
#: problem): its bytes are compared on every use until a read proves them
#: settled.
RACY_NS = 3_000_000_000

#: (size, mtime, ctime, inode, language): any change means another file.
_Key = tuple[int, int, int, int, str]


@dataclass
class _Cached:
    key: _Key
    parsed: ParsedFile
    #: The digest of the bytes read, while the entry is racy; None once settled.
    digest: bytes | None


@dataclass
class ParseCache:
    """Trees kept across validate calls, keyed by path and (size, mtime, ctime, inode, language).

    Bounded by ``max_bytes`` of source in all, least recently used first out.
    ``parses`` counts real parses and ``hits`` files served from the cache;
    ``verified`` counts the hits of racy entries, whose bytes were read and
    compared first.
    """

    max_bytes: int = DEFAULT_CACHE_BYTES
    parses: int = 0
    hits: int = 0
    verified: int = 0
    _entries: OrderedDict[Path, _Cached] = field(default_factory=OrderedDict, repr=False)
    _held: int = field(default=0, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def parse(
        self, path: Path, language: Language, registry: LanguageRegistry, *, max_file_bytes: int
    ) -> ParsedFile:
        """``path``'s tree: from the cache when unchanged on disk, else read and parsed now.

        Invalidation: an entry is used only while the file's (size, mtime_ns,
        ctime_ns, inode) and language are what they were when it was read; an
        entry read less than :data:`RACY_NS` after the file's mtime is used
        only if the file's bytes are still the same.

        Raises :class:`NotParsed` when the file is missing, unreadable, over
        ``max_file_bytes``, not text, or its grammar cannot be loaded.
        """
        status = _stat(path)
        _check_size(path, status.st_size, max_file_bytes)
        with self._lock:
            cached = self._entries.get(path)
            if cached is not None and cached.key == _key(status, language):
                if cached.digest is None:
                    self._entries.move_to_end(path)
                    self.hits += 1
                    return cached.parsed
            else:
                cached = None
        read_at = time.time_ns()
        data, status = _read(path, max_file_bytes)
        key = _key(status, language)
        racy = read_at - status.st_mtime_ns < RACY_NS
        current = _digest_of(data) if racy or cached is not None else None
        if cached is not None and cached.key == key and cached.digest == current:
            with self._lock:
                cached.digest = current if racy else None  # settled: stat alone from now on
                self.hits += 1
                self.verified += 1
            return cached.parsed
        source, encoding = _decode(path, data, language)
        try:
            tree = registry.parse_source(language.name, source)
        except NotParsed as exc:
            raise NotParsed(path, exc.reason, str(exc), plugin=exc.plugin) from None
        parsed = ParsedFile(path, source, tree, language, encoding)
        with self._lock:
            self.parses += 1
            self._store(path, _Cached(key, parsed, current if racy else None))
        return parsed

    def _store(self, path: Path, entry: _Cached) -> None:
        size = len(entry.parsed.source)
        if size > self.max_bytes:
            return
        previous = self._entries.pop(path, None)
        if previous is not None:
            self._held -= len(previous.parsed.source)
        self._entries[path] = entry
        self._held += size
        while self._held > self.max_bytes:
            _, dropped = self._entries.popitem(last=False)
            self._held -= len(dropped.parsed.source)

    def __len__(self) -> int:
        """How many trees are held."""
        return len(self._entries)


class ParseSession:
    """One validate call's parses: each file read and parsed at most once, same object for all."""

    def __init__(self, registry: LanguageRegistry, cache: ParseCache, *, max_file_bytes: int):
        self.registry = registry
        self.cache = cache
        self.max_file_bytes = max_file_bytes
        self._seen: dict[Path, ParsedFile | NotParsed | None] = {}
        self._lock = threading.Lock()

    def parse(self, path: Path) -> ParsedFile | None:
        """``path``'s tree; None when no registered language owns its extension.

        Raises :class:`NotParsed` (the same outcome on every call) when the file
        has a known language but no tree.
        """
        if not (isinstance(path, Path) and path.is_absolute()):
            path = Path(path).absolute()  # Workspace.resolve's paths are absolute already
        with self._lock:
            if path in self._seen:
                return _unwrap(self._seen[path])
            language = self.registry.for_path(path)
            outcome: ParsedFile | NotParsed | None = None
            if language is not None:
                try:
                    outcome = self.cache.parse(
                        path, language, self.registry, max_file_bytes=self.max_file_bytes
                    )
                except NotParsed as exc:
                    outcome = exc
            self._seen[path] = outcome
        return _unwrap(outcome)


def _read(path: Path, max_file_bytes: int) -> tuple[bytes, os.stat_result]:
    """The file's bytes (at most one over the limit) and its status as opened."""
    try:
        # Non-blocking, and checked again once open: the file may have been
        # swapped for a FIFO since the stat, and reading one would hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                raise NotParsed(path, "not_a_file", f"{path} is not a regular file")
            data = handle.read(max_file_bytes + 1)
    except OSError as exc:
        raise NotParsed(path, "unreadable", f"cannot read {path}: {exc.strerror}") from None
    _check_size(path, len(data), max_file_bytes)
    return data, status


def _digest_of(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _unwrap(outcome: ParsedFile | NotParsed | None) -> ParsedFile | None:
    if isinstance(outcome, NotParsed):
        raise NotParsed(outcome.path, outcome.reason, str(outcome), plugin=outcome.plugin)
    return outcome


def _stat(path: Path) -> os.stat_result:
    try:
        status = path.stat()
    except FileNotFoundError:
        raise NotParsed(path, "missing", f"{path} does not exist") from None
    except OSError as exc:
        raise NotParsed(path, "unreadable", f"cannot read {path}: {exc.strerror}") from None
    except ValueError:  # a NUL byte in the path: no such file can exist
        raise NotParsed(path, "missing", f"{str(path)!r} is not a valid path") from None
    if not stat.S_ISREG(status.st_mode):
        raise NotParsed(path, "not_a_file", f"{path} is not a regular file")
    return status


def over_parse_limit(path: Path, max_file_bytes: int) -> NotParsed | None:
    """``path``'s ``too_large`` outcome when it is over ``max_file_bytes``, known from its size
    alone (nothing read); None when it is within the limit or cannot be looked at (a
    parse says why)."""
    try:
        size = path.stat().st_size
    except (OSError, ValueError):
        return None
    try:
        _check_size(path, size, max_file_bytes)
    except NotParsed as exc:
        return exc
    return None


def _check_size(path: Path, size: int, limit: int) -> None:
    if size > limit:
        raise NotParsed(
            path,
            "too_large",
            f"not parsed: {size:,} bytes is over the {limit:,}-byte parse limit "
            "([tool.forge] max-parse-bytes)",
        )


def _key(status: os.stat_result, language: Language) -> _Key:
    return (
        status.st_size,
        status.st_mtime_ns,
        status.st_ctime_ns,
        status.st_ino,
        language.name,
    )


def _decode(path: Path, data: bytes, language: Language) -> tuple[bytes, str]:
    """The UTF-8 text to parse and the file's encoding; :class:`NotParsed` when not text."""
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    nul = -1 if language.nul_is_text else data.find(b"\x00")
    if nul >= 0:
        line, column = _position(data, nul)
        raise NotParsed(
            path,
            "not_text",
            f"not text: NUL byte at line {line}, column {column} (a binary file?)",
        )
    # A declared encoding is honoured first, as CPython reads the file (PEP 263).
    declared = language.detect_encoding(data) if language.detect_encoding else None
    if declared and declared.replace("_", "-").lower() not in {"utf-8", "utf8"}:
        try:
            return data.decode(declared).encode("utf-8"), declared
        except LookupError:
            raise NotParsed(
                path,
                "not_text",
                f"encoding problem: the coding comment declares `{declared}`, "
                "an encoding Python does not know",
            ) from None
        except UnicodeDecodeError as exc:
            line, column = _position(data, exc.start)
            raise NotParsed(
                path,
                "not_text",
                f"not {declared} text as its coding comment declares: byte "
                f"0x{data[exc.start]:02x} at line {line}, column {column} cannot be decoded",
            ) from None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position(data, exc.start)
        raise NotParsed(
            path,
            "not_text",
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line}, column {column} "
            "cannot be decoded (save the file as UTF-8)",
        ) from None
    return data, "utf-8"


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and byte column of ``offset`` in ``data``."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1
