"""What the nearest project file above a source file says: ``package.json``'s ``"type"``,
``pyproject.toml``'s ``requires-python``. Parse goals and language levels depend on them.

Each file is read at most once per (path, mtime, size), capped in size; a file
that cannot be read or parsed says nothing (None), as if absent.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

#: Project files larger than this are not read.
MAX_BYTES = 1 << 20

Reader = Callable[[bytes], "str | None"]

_cache: dict[tuple[str, int, int, Reader], str | None] = {}
_lock = threading.Lock()


def nearest_value(directory: Path, name: str, read: Reader) -> str | None:
    """``read(contents)`` of the nearest file called ``name`` in ``directory`` or above it."""
    for folder in (directory, *directory.parents):
        candidate = folder / name
        try:
            status = candidate.stat()
        except OSError:
            continue
        key = (str(candidate), status.st_mtime_ns, status.st_size, read)
        with _lock:
            if key in _cache:
                return _cache[key]
        value = _read(candidate, status.st_size, read)
        with _lock:
            if len(_cache) > 4096:
                _cache.clear()
            _cache[key] = value
        return value
    return None


def _read(path: Path, size: int, read: Reader) -> str | None:
    if size > MAX_BYTES:
        return None
    try:
        # Non-blocking: a FIFO named package.json must not hang a validate call.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            contents = handle.read(MAX_BYTES + 1)
    except OSError:
        return None
    try:
        return read(contents)
    except (ValueError, RecursionError):  # malformed: says nothing
        return None
