"""JSONL state files (memory, event logs): whole-line appends, tolerant line reads.

An append holds the file's lock and writes one whole line; a torn tail is set
aside before the next append (see :mod:`forge.store`).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from forge.errors import StateError
from forge.store.json_files import decode_json
from forge.store.locks import locked
from forge.store.safe_open import _BadFile, _folder_of, _open_file, _over_limit, _read_state
from forge.store.writes import (
    _corrupt_name,
    _encode,
    _replace_at,
    _unwritable,
    _write_whole,
    write_bytes_atomic,
)

logger = logging.getLogger("forge.store")

#: Largest JSONL file read (memory, event logs): rotate a log that grows past it.
MAX_JSONL_BYTES = 256 * 1024 * 1024
#: Longest JSONL line read; a longer one counts as unreadable.
MAX_LINE_BYTES = 1024 * 1024


def append_line(path: Path, record: Any) -> None:
    """Append ``record`` as one JSON line, whole or not at all, under the file's lock.

    A write the disk cannot finish is cut back off, so a full disk never
    leaves half a line. A last line without its newline is mended first: kept
    (given its newline) when it is a JSON object, as a hand edit may leave
    it, else set aside as ``<name>.corrupt-<timestamp>`` and cut off, as a
    writer killed mid-line leaves it.
    """
    line = _encode(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    try:
        with locked(path), _folder_of(path, create=True) as (folder, name):
            fd = _open_file(folder, name, os.O_RDWR | os.O_APPEND, path, create=True)
            try:
                end, prefix = _mend_tail(fd, folder, name, path)
                try:
                    _write_whole(fd, prefix + line)
                except OSError:
                    os.ftruncate(fd, end)
                    raise
            finally:
                os.close(fd)
    except OSError as exc:
        raise _unwritable(path, exc) from exc


def _mend_tail(fd: int, folder: int, name: str, path: Path) -> tuple[int, bytes]:
    """Where the next line starts, and what must precede it, after mending a torn tail."""
    size = os.fstat(fd).st_size
    if not size or os.pread(fd, 1, size - 1) == b"\n":
        return size, b""
    window = min(size, MAX_LINE_BYTES)
    tail = os.pread(fd, window, size - window)
    cut = tail.rfind(b"\n") + 1
    fragment = tail[cut:]
    if cut == 0 and window < size:
        return size, b"\n"  # a fragment longer than any line: leave it to the readers
    if _json_object(fragment) is not None:
        return size, b"\n"
    try:
        _replace_at(folder, _corrupt_name(path).name, fragment)
    except OSError:
        return size, b"\n"  # cannot keep a copy (full disk?): keep it in place as a bad line
    start = size - len(fragment)
    os.ftruncate(fd, start)
    logger.warning("set aside a torn last line of %s (%d bytes)", path, len(fragment))
    return start, b""


def _json_object(raw: bytes) -> dict[str, Any] | None:
    try:
        record = decode_json(raw)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def numbered_lines(
    path: Path, *, limit: int = MAX_JSONL_BYTES
) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """``(line number, record)`` for each non-blank line of ``path``; ``None`` for a corrupt one.

    A line is corrupt when it is not UTF-8 JSON of an object (a torn or
    hand-edited line, a lone surrogate) or longer than :data:`MAX_LINE_BYTES`.
    A missing file has no lines; a file over ``limit`` bytes, a symlink or a
    FIFO raises :class:`StateError`.
    """
    try:
        with _folder_of(path, create=False) as (folder, name):
            fd = _open_file(folder, name, os.O_RDONLY, path, create=False)
    except FileNotFoundError:
        return
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(fd).st_size
        if size > limit:
            raise _BadFile(path, _over_limit(size, limit))
        number = 0
        read = 0
        while read <= limit:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            read += len(raw)
            if len(raw) > MAX_LINE_BYTES:
                while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                    raw = handle.readline(MAX_LINE_BYTES)
                    read += len(raw)
                yield number, None
                continue
            if raw.strip():
                yield number, _json_object(raw)


def describe_bad_lines(numbers: list[int]) -> str:
    """``"2 unreadable lines (3, 9)"``: how notices name the corrupt lines of a JSONL file."""
    shown = ", ".join(str(n) for n in numbers[:10])
    more = f" and {len(numbers) - 10} more" if len(numbers) > 10 else ""
    return f"{len(numbers)} unreadable line{'s' if len(numbers) != 1 else ''} ({shown}{more})"


def set_aside_lines(path: Path, bad_lines: Iterable[int]) -> Path:
    """Copy ``path`` aside as ``<name>.corrupt-<timestamp>``, then drop ``bad_lines`` from it.

    The copy keeps every byte (nothing is ever deleted); the file itself is
    replaced atomically by its other lines, verbatim. The caller holds the
    file's lock, so no writer appends in between. Returns the copy's path.
    """
    try:
        data = _read_state(path, MAX_JSONL_BYTES)
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror or exc}") from exc
    target = _corrupt_name(path)
    write_bytes_atomic(target, data)
    drop = set(bad_lines)
    # Lines end at b"\n" only, as :func:`numbered_lines` counts them (a stray
    # b"\r" inside a corrupt line must not shift the numbers).
    kept = [
        line + b"\n"
        for number, line in enumerate(data.split(b"\n"), start=1)
        if number not in drop and line.strip()
    ]
    write_bytes_atomic(path, b"".join(kept))
    logger.warning("moved %d corrupt lines of %s aside to %s", len(drop), path, target)
    return target
