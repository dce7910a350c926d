"""Keeping the index of a memory file up to date with the JSONL, the truth.

An index records what it covers (inode, bytes up to the last whole line, a
hash of the last 4 KiB of them): when the file has only grown, the new lines
are indexed and added; when it was replaced or changed (another inode, fewer
bytes, other bytes before the end), the index is rebuilt.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from forge.memory.index import Document, MemoryIndex, Source
from forge.memory.index_file import BadIndexError, index_path, read_index, write_index

logger = logging.getLogger("forge.memory")

#: Bytes before the covered end whose hash tells "only appended" from "changed".
CHECK_BYTES = 4096
#: Rewrite the index file once the lines it does not cover reach this size
#: (or an eighth of what it covers), so each save costs the same however large
#: the store is, and a fresh process indexes at most this much on its own.
PERSIST_TAIL_BYTES = 64 * 1024

#: Reads one line of the JSONL: its :class:`Document`, or ``None`` for a corrupt line.
Reader = Callable[[bytes], "Document | None"]


def read_line(fd: int, offset: int) -> bytes:
    """The line of the file open as ``fd`` that starts at byte ``offset``, without its newline."""
    chunks: list[bytes] = []
    size = 4096
    while True:
        chunk = os.pread(fd, size, offset)
        end = chunk.find(b"\n")
        if end >= 0 or not chunk:
            chunks.append(chunk if end < 0 else chunk[:end])
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)
        size = min(size * 4, 1 << 20)


def _check(fd: int, covered: int) -> str:
    start = max(0, covered - CHECK_BYTES)
    return hashlib.blake2b(os.pread(fd, covered - start, start), digest_size=16).hexdigest()


def scan(data: bytes, start_offset: int, start_line: int) -> Iterator[tuple[int, int, bytes]]:
    """``(line number, byte offset, line)`` of each non-blank whole line of ``data``.

    ``data`` starts at byte ``start_offset`` of the file, after ``start_line``
    lines. Lines end at ``b"\\n"`` as :func:`forge.store.numbered_lines` counts
    them; a last line without its newline is left out (a writer may be mid-line).
    """
    position, number = 0, start_line
    while True:
        end = data.find(b"\n", position)
        if end < 0:
            return
        number += 1
        if data[position:end].strip():
            yield number, start_offset + position, data[position:end]
        position = end + 1


def refresh(
    path: Path,
    fd: int,
    current: MemoryIndex | None,
    read: Reader,
    *,
    locked: bool = False,
    stored: bool = True,
) -> MemoryIndex:
    """The index of the memory file ``path`` (open as ``fd``), brought up to date.

    ``locked``: the caller holds the file's lock, so no writer is mid-line and
    a last line without its newline that is not an entry is corrupt.
    ``stored``: the index file beside ``path`` is read and written; without
    it, the index lives in memory only and nothing is written.

    ``current`` is the index this process already holds (or ``None``). Only the
    lines added since it (or since the index file) was built are parsed;
    anything else means a rebuild. The index file is rewritten when the lines
    it does not cover have grown past :data:`PERSIST_TAIL_BYTES` (or an
    eighth of what it covers).
    """
    info = os.fstat(fd)
    if (
        current is not None
        and current.source.inode == info.st_ino
        and current.source.size == info.st_size
        and current.source.mtime_ns == info.st_mtime_ns
        and not (locked and current.source.covered < info.st_size)
    ):
        return current
    index_file = index_path(path)
    if current is None or not _extends(current, fd, info):
        current = None
        try:
            found = read_index(index_file) if stored else None
        except BadIndexError as exc:
            logger.warning("memory index %s is unusable (%s): rebuilding it", index_file, exc)
            found = None
        if found is not None and _extends(found, fd, info):
            current = found
    if current is None:
        current = MemoryIndex(source=Source(info.st_ino, 0, 0, "", -1, -1))
    source = current.source
    tail = os.pread(fd, info.st_size - source.covered, source.covered)
    covered, lines = source.covered, source.lines
    for number, offset, line in scan(tail, source.covered, source.lines):
        document = read(line)
        if document is None:
            current.bad_lines.append(number)
        else:
            current.add(offset, document)
    end = tail.rfind(b"\n") + 1
    covered += end
    lines += tail.count(b"\n", 0, end)
    partial = False
    last = tail[end:]
    if last.strip():
        # A last line without its newline (a hand edit, or a writer mid-line):
        # an entry once it reads as one. Its number is the next line's; the
        # newline a later append puts first ends it without starting a line.
        document = read(last)
        if document is not None:
            current.add(covered, document)
            covered, partial = info.st_size, True
        elif locked:
            current.bad_lines.append(lines + 1)
            covered, partial = info.st_size, True
    current.source = Source(
        info.st_ino,
        covered,
        lines,
        _check(fd, covered) if covered != source.covered else source.check,
        info.st_size,
        info.st_mtime_ns,
        partial,
    )
    if stored and covered - current.persisted >= max(PERSIST_TAIL_BYTES, current.persisted // 8):
        write_index(index_file, current)
    return current


def _extends(index: MemoryIndex, fd: int, info: os.stat_result) -> bool:
    """True when the file open as ``fd`` is the one ``index`` covers, maybe with lines added.

    A file that did not grow but was touched was edited, not appended to.
    """
    source = index.source
    if source.inode != info.st_ino or info.st_size < source.size:
        return False
    if info.st_size == source.size:
        return info.st_mtime_ns == source.mtime_ns
    if source.partial and os.pread(fd, 1, source.covered) != b"\n":
        return False  # the last line grew: it was not whole when indexed
    return source.covered == 0 or _check(fd, source.covered) == source.check
