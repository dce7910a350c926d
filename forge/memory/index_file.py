"""The file an index of a memory file is stored in, beside it: ``project.jsonl`` -> ``project.index``.

The index is a cache, so a damaged or foreign index file is rebuilt, never
trusted, and no state is lost. The file is binary (arrays of numbers and two
newline-joined word lists after a JSON header), because decoding JSON of a
100,000-entry index costs more than a recall may; nothing in it is executed
or unpickled.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import sys
from array import array
from pathlib import Path
from typing import Any

from forge.memory.index import MemoryIndex, Postings, Source
from forge.store.writes import write_bytes_atomic

logger = logging.getLogger("forge.memory")

MAGIC = b"forge memory index 1\n"
#: An index file larger than this is not read (a planted one could be huge).
MAX_INDEX_BYTES = 1 << 30


def index_path(memory_file: Path) -> Path:
    """Where the index of ``memory_file`` lives: ``project.jsonl`` -> ``project.index``."""
    return memory_file.with_name(f"{memory_file.stem}.index")


_ARRAYS = ("offsets", "lengths", "confidence", "category", "keys")


def write_index(path: Path, index: MemoryIndex) -> bool:
    """Write ``index`` to ``path`` atomically; False (and a debug log) when the disk says no.

    The index is a cache: a full disk or a read-only project must not fail the
    recall or save that tried to write it.
    """

    postings = index.postings.merged()
    index.postings = postings
    sections: list[tuple[str, str, bytes]] = [
        (name, getattr(index, name).typecode, getattr(index, name).tobytes()) for name in _ARRAYS
    ]
    sections += [
        ("starts", "I", postings.starts.tobytes()),
        ("docs", "I", postings.docs.tobytes()),
        ("tfs", "H", postings.tfs.tobytes()),
        ("terms", "s", "\n".join(postings.terms).encode()),
        ("stamps", "s", "\n".join(index.stamps).encode()),
    ]
    source = index.source
    header = {
        "byteorder": sys.byteorder,
        "source": [
            source.inode,
            source.covered,
            source.lines,
            source.check,
            source.size,
            source.mtime_ns,
            source.partial,
        ],
        "count": index.count,
        "categories": index.category_names,
        "categoryCounts": index.category_counts,
        "categoryLengths": index.category_lengths,
        "badLines": index.bad_lines,
        "sections": [[name, code, len(data)] for name, code, data in sections],
    }
    head = json.dumps(header, separators=(",", ":")).encode()
    data = b"".join(
        [MAGIC, len(head).to_bytes(8, "little"), head, *(data for _, _, data in sections)]
    )
    try:
        write_bytes_atomic(path, data, durable=False)  # a cache: rebuilt if lost
    except OSError as exc:
        logger.debug("memory index %s not written: %s", path, exc)
        return False
    index.persisted = source.covered
    return True


class BadIndexError(ValueError):
    """The index file is damaged, foreign or for another byte order: rebuild it."""


def read_index(path: Path) -> MemoryIndex | None:
    """The index stored at ``path`` and what it covers; ``None`` when there is none.

    Raises :class:`BadIndexError` when the file is not a sound index.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BadIndexError(f"cannot open: {exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_INDEX_BYTES:
            raise BadIndexError("not a regular file of a sane size")
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read()
    finally:
        os.close(fd)
    try:
        return _decode(memoryview(data))
    except (ValueError, KeyError, TypeError, IndexError, OverflowError) as exc:
        raise BadIndexError(str(exc) or type(exc).__name__) from None


def _decode(data: memoryview) -> MemoryIndex:
    if bytes(data[: len(MAGIC)]) != MAGIC:
        raise BadIndexError("not a forge memory index")
    at = len(MAGIC)
    size = int.from_bytes(data[at : at + 8], "little")
    at += 8
    header = json.loads(bytes(data[at : at + size]))
    at += size
    if header["byteorder"] != sys.byteorder:
        raise BadIndexError("written on a machine of the other byte order")
    inode, covered, lines, check, size, mtime_ns, partial = header["source"]
    parts: dict[str, array[Any] | bytes] = {}
    for name, code, length in header["sections"]:
        chunk = data[at : at + length]
        if len(chunk) != length:
            raise BadIndexError("truncated")
        at += length
        if code == "s":
            parts[name] = bytes(chunk)
        else:
            values: array[Any] = array(code)
            values.frombytes(chunk)
            parts[name] = values
    count = int(header["count"])
    arrays = {name: parts[name] for name in _ARRAYS}
    terms = bytes(parts["terms"]).decode().split("\n") if parts["terms"] else []
    stamps = bytes(parts["stamps"]).decode().split("\n") if count else []
    starts, docs, tfs = parts["starts"], parts["docs"], parts["tfs"]
    assert isinstance(starts, array) and isinstance(docs, array) and isinstance(tfs, array)
    categories = [str(name) for name in header["categories"]]
    counts = [int(n) for n in header["categoryCounts"]]
    word_counts = [int(n) for n in header["categoryLengths"]]
    if (
        any(len(values) != count for values in arrays.values())
        or len(stamps) != count
        or len(starts) != len(terms) + 1
        or len(docs) != len(tfs)
        or (docs and max(docs) >= count)
        or starts[-1] != len(docs)
        or (count and max(arrays["category"]) >= len(categories))
        or len(counts) != len(categories)
        or len(word_counts) != len(categories)
        or sum(counts) != count
    ):
        raise BadIndexError("inconsistent sections")
    return MemoryIndex(
        source=Source(
            int(inode),
            int(covered),
            int(lines),
            str(check),
            int(size),
            int(mtime_ns),
            partial is True,
        ),
        stamps=stamps,
        category_names=categories,
        category_counts=counts,
        category_lengths=word_counts,
        bad_lines=[int(number) for number in header["badLines"]],
        postings=Postings(terms=terms, starts=starts, docs=docs, tfs=tfs),
        persisted=int(covered),
        longest=max(arrays["lengths"], default=0),
        **arrays,  # type: ignore[arg-type]
    )
