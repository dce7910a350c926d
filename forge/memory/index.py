"""The search index of one memory file, held in memory: what recall scores and save dedups by.

``project.jsonl`` is indexed entry by entry: the byte offset of its line, its
length in words, confidence, category, timestamp and a hash of its dedup key,
plus an inverted index (word -> entries and term frequencies). Recall scores
only the entries that hold a query word and reads the lines of the few best
from the JSONL; save checks the dedup hash instead of parsing every line.
:mod:`forge.memory.index_refresh` keeps an index up to date with its JSONL and
:mod:`forge.memory.index_file` stores it beside it.
"""

from __future__ import annotations

import bisect
import hashlib
import sys
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

MAX_TF = 0xFFFF


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


@dataclass(frozen=True)
class Source:
    """What part of the JSONL an index covers."""

    inode: int
    covered: int  # bytes, ending just after a newline (or at the end of the last line)
    lines: int  # lines in those bytes (line numbers continue from here)
    check: str  # hash of the last index_refresh.CHECK_BYTES covered bytes
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
