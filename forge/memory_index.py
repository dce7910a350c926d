"""The search index of one memory file, kept beside it so recall and save need not read it all.

``project.jsonl`` gets ``project.index``: for each entry, the byte offset of
its line, its length in words, confidence, category, timestamp and a hash of
its dedup key, plus an inverted index (word -> entries and term frequencies).
Recall scores only the entries that hold a query word and reads the lines of
the few best from the JSONL; save checks the dedup hash instead of parsing
every line.

The JSONL stays the truth. An index records what it covers (inode, bytes up
to the last whole line, a hash of the last 4 KiB of them): when the file has
only grown, the new lines are indexed and added; when it was replaced or
changed (another inode, fewer bytes, other bytes before the end), the index
is rebuilt. A damaged or foreign index file is rebuilt, never trusted: it is
a cache, so no state is lost. The file is binary (arrays of numbers and two
newline-joined word lists after a JSON header), because decoding JSON of a
100,000-entry index costs more than a recall may; nothing in it is executed
or unpickled.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import logging
import os
import stat
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

logger = logging.getLogger("forge.memory")

MAGIC = b"forge memory index 1\n"
#: Bytes before the covered end whose hash tells "only appended" from "changed".
CHECK_BYTES = 4096
#: Rewrite the index file once the lines it does not cover reach this size
#: (or an eighth of what it covers), so each save costs the same however large
#: the store is, and a fresh process indexes at most this much on its own.
PERSIST_TAIL_BYTES = 64 * 1024
#: An index file larger than this is not read (a planted one could be huge).
MAX_INDEX_BYTES = 1 << 30
MAX_TF = 0xFFFF


def index_path(memory_file: Path) -> Path:
    """Where the index of ``memory_file`` lives: ``project.jsonl`` -> ``project.index``."""
    return memory_file.with_name(f"{memory_file.stem}.index")


def dedup_hash(category: str, normalized: str) -> int:
    """A 64-bit hash of an entry's dedup key; equal hashes are confirmed on the lines."""
    digest = hashlib.blake2b(f"{category}\0{normalized}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


class Document(NamedTuple):
    """What the index keeps of one entry."""

    category: str
    confidence: float
    timestamp: str
    terms: Counter[str]
    key: int  # :func:`dedup_hash` of its category and normalised pattern


#: Reads one line of the JSONL: its :class:`Document`, or ``None`` for a corrupt line.
Reader = Callable[[bytes], "Document | None"]


@dataclass(frozen=True)
class Source:
    """What part of the JSONL an index covers."""

    inode: int
    covered: int  # bytes, ending just after a newline (or at the end of the last line)
    lines: int  # lines in those bytes (line numbers continue from here)
    check: str  # hash of the last CHECK_BYTES covered bytes
    size: int  # the file's size and mtime when last looked at: unchanged means fresh
    mtime_ns: int
    partial: bool = False  # the covered bytes end in a last line without its newline


@dataclass
class Postings:
    """Word -> (entry numbers, term frequencies), in a sorted base and an unsorted extra part."""

    terms: list[str] = field(default_factory=list)  # sorted
    starts: array[int] = field(default_factory=lambda: array("I", [0]))
    docs: array[int] = field(default_factory=lambda: array("I"))
    tfs: array[int] = field(default_factory=lambda: array("H"))
    extra: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def add(self, doc: int, terms: Counter[str]) -> None:
        """Index one more entry."""
        for term, tf in terms.items():
            self.extra.setdefault(term, []).append((doc, min(tf, MAX_TF)))

    def get(self, term: str) -> list[tuple[Sequence[int], Sequence[int]]]:
        """The entries that hold ``term`` and its frequency in each, as parallel sequences."""
        found: list[tuple[Sequence[int], Sequence[int]]] = []
        at = bisect.bisect_left(self.terms, term)
        if at < len(self.terms) and self.terms[at] == term:
            start, end = self.starts[at], self.starts[at + 1]
            found.append((self.docs[start:end], self.tfs[start:end]))
        extra = self.extra.get(term)
        if extra:
            found.append(([doc for doc, _ in extra], [tf for _, tf in extra]))
        return found

    def merged(self) -> Postings:
        """One sorted base holding the extra part too (for writing)."""
        if not self.extra:
            return self
        combined: dict[str, list[tuple[int, int]]] = {}
        for at, term in enumerate(self.terms):
            start, end = self.starts[at], self.starts[at + 1]
            combined[term] = list(zip(self.docs[start:end], self.tfs[start:end], strict=True))
        for term, pairs in self.extra.items():
            combined.setdefault(term, []).extend(pairs)
        merged = Postings(terms=sorted(combined))
        for term in merged.terms:
            pairs = combined[term]
            merged.docs.extend(doc for doc, _ in pairs)
            merged.tfs.extend(tf for _, tf in pairs)
            merged.starts.append(len(merged.docs))
        return merged


@dataclass
class MemoryIndex:
    """The index of one memory file (see the module docstring)."""

    source: Source
    offsets: array[int] = field(default_factory=lambda: array("Q"))
    lengths: array[int] = field(default_factory=lambda: array("I"))
    confidence: array[float] = field(default_factory=lambda: array("d"))
    category: array[int] = field(default_factory=lambda: array("H"))
    keys: array[int] = field(default_factory=lambda: array("Q"))
    stamps: list[str] = field(default_factory=list)
    category_names: list[str] = field(default_factory=list)
    category_counts: list[int] = field(default_factory=list)  # entries of each category
    category_lengths: list[int] = field(default_factory=list)  # and their words
    bad_lines: list[int] = field(default_factory=list)
    postings: Postings = field(default_factory=Postings)
    persisted: int = 0  # bytes covered by the index file on disk
    longest: int = 0  # the most words an entry has

    @property
    def count(self) -> int:
        """Entries indexed."""
        return len(self.offsets)

    def category_code(self, name: str) -> int | None:
        """The number standing for category ``name``, if any entry has it."""
        try:
            return self.category_names.index(name)
        except ValueError:
            return None

    def entries_with_key(self, key: int) -> Iterator[int]:
        """The entries whose dedup hash is ``key`` (searched as bytes: no Python loop)."""
        data, wanted, width = self.keys.tobytes(), key.to_bytes(8, sys.byteorder), 8
        at = data.find(wanted)
        while at >= 0:
            if at % width == 0:
                yield at // width
            at = data.find(wanted, at + 1)

    def add(self, offset: int, document: Document) -> None:
        """Index one entry whose line starts at byte ``offset``."""
        terms = document.terms
        code = self.category_code(document.category)
        if code is None:
            code = len(self.category_names)
            self.category_names.append(document.category)
            self.category_counts.append(0)
            self.category_lengths.append(0)
        length = sum(terms.values())
        self.longest = max(self.longest, length)
        self.category_counts[code] += 1
        self.category_lengths[code] += length
        self.postings.add(self.count, terms)
        self.offsets.append(offset)
        self.lengths.append(length)
        self.confidence.append(document.confidence)
        self.category.append(code)
        self.keys.append(document.key)
        self.stamps.append(document.timestamp.replace("\n", " "))


# --- reading lines -------------------------------------------------------------------


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


# --- the index file ---------------------------------------------------------------------

_ARRAYS = ("offsets", "lengths", "confidence", "category", "keys")


def write_index(path: Path, index: MemoryIndex) -> bool:
    """Write ``index`` to ``path`` atomically; False (and a debug log) when the disk says no.

    The index is a cache: a full disk or a read-only project must not fail the
    recall or save that tried to write it.
    """
    from forge.store import write_bytes_atomic

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


# --- keeping an index up to date ----------------------------------------------------------


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


def open_memory_file(path: Path) -> int | None:
    """A read-only descriptor of ``path`` (a regular file), or ``None`` when there is none.

    Opened non-blocking, so a FIFO planted there cannot hang the caller.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def refresh(
    path: Path, fd: int, current: MemoryIndex | None, read: Reader, *, locked: bool = False
) -> MemoryIndex:
    """The index of the memory file ``path`` (open as ``fd``), brought up to date.

    ``locked``: the caller holds the file's lock, so no writer is mid-line and
    a last line without its newline that is not an entry is corrupt.

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
    stored = index_path(path)
    if current is None or not _extends(current, fd, info):
        current = None
        try:
            found = read_index(stored)
        except BadIndexError as exc:
            logger.warning("memory index %s is unusable (%s): rebuilding it", stored, exc)
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
    if covered - current.persisted >= max(PERSIST_TAIL_BYTES, current.persisted // 8):
        write_index(stored, current)
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
