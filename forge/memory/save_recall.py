"""Memory: patterns agents learned, saved per project or for every project, and recalled by relevance.

Project memory is ``.forge/memory/project.jsonl``; global memory is
``$FORGE_HOME/memory/global.jsonl``. One JSON object a line:
``{id, timestamp, pattern, category, confidence, tags}``.

Recall ranks with Okapi BM25 over each entry's pattern, category and tags
(:mod:`forge.memory.ranking`). A parsed and tokenised index of each file is
kept while the file's size and mtime stay the same, so a long-running server
answers from memory.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from forge.errors import CorruptFileError, UsageError
from forge.memory.index import Document, MemoryIndex, dedup_hash
from forge.memory.index_file import index_path
from forge.memory.index_refresh import read_line, refresh
from forge.memory.ranking import best_matches, tokenize
from forge.models import StoredRecord, WireModel
from forge.store.forge_dir import utc_now
from forge.store.json_files import decode_json
from forge.store.jsonl import (
    MAX_JSONL_BYTES,
    append_line,
    describe_bad_lines,
    numbered_lines,
    set_aside_lines,
)
from forge.store.locks import locked
from forge.store.safe_open import open_state_file

Category = Literal[
    "convention",
    "failure_pattern",
    "success_pattern",
    "test_command",
    "architecture",
    "dependency",
    "tool_usage",
]
Scope = Literal["project", "global"]
RecallScope = Literal["project", "global", "all"]

#: Longest pattern, in UTF-8 bytes.
MAX_PATTERN_BYTES = 1024
MAX_TAGS = 20
MAX_TAG_LENGTH = 64
DEFAULT_CONFIDENCE = 0.7
DEFAULT_RECALL_LIMIT = 10
MAX_RECALL_LIMIT = 200
MAX_QUERY_LENGTH = 2_000


class MemoryEntry(StoredRecord):
    """One remembered pattern, as stored."""

    id: str
    timestamp: str = ""
    pattern: str
    category: str
    confidence: float = DEFAULT_CONFIDENCE
    tags: list[str] = Field(default_factory=list)


class MemorySaveResult(WireModel):
    """What ``memory_save`` returns."""

    saved: bool = Field(description="False when the pattern was already in that scope.")
    duplicate: bool
    scope: Scope
    category: Category
    id: str | None = Field(description="Id of the new entry, or of the existing duplicate.")
    message: str = Field(description="The one-line reply, e.g. 'Saved to project memory [...]'.")
    notices: list[str] = Field(
        default_factory=list, description="Unreadable lines found and moved aside, if any."
    )


class RecalledMemory(MemoryEntry):
    """One recalled entry: the stored fields plus where it came from and how well it matched."""

    scope: Scope
    relevance: float = Field(description="BM25 score of the query against this entry.")


class MemoryRecallResult(WireModel):
    """What ``memory_recall`` returns: the best matches, grouped by scope (project first)."""

    query: str
    memories: list[RecalledMemory] = Field(
        description="Project entries first, then global; by confidence within each group."
    )
    searched: int = Field(description="How many entries were searched.")
    text: str = Field(description="The matches as lines: '[category] confidence — pattern'.")
    notices: list[str] = Field(
        default_factory=list, description="Unreadable lines that were skipped, if any."
    )


@dataclass(frozen=True)
class MemoryFile:
    """The entries of one memory file, and the numbers of its lines that are not entries."""

    entries: list[MemoryEntry]
    bad_lines: list[int]


def read_memory(path: Path) -> MemoryFile:
    """Every valid entry of ``path`` in file order; corrupt lines are numbered, not raised."""
    entries: list[MemoryEntry] = []
    bad_lines: list[int] = []
    for number, record in numbered_lines(path):
        try:
            entries.append(MemoryEntry.model_validate(record))
        except ValidationError:
            bad_lines.append(number)
    return MemoryFile(entries, bad_lines)


def normalize_pattern(pattern: str) -> str:
    """The dedup key of a pattern: whitespace folded, case folded."""
    return " ".join(pattern.split()).casefold()


class Memory:
    """Project and global memory, each searched through its index (:mod:`forge.memory.index`).

    ``index_files=False`` makes a reader that writes nothing: it neither reads
    nor writes the index files beside the JSONL and keeps its indexes in memory
    only (``forge ui``, which must leave ``.forge/`` as it found it).
    """

    def __init__(self, project_file: Path, global_file: Path, *, index_files: bool = True) -> None:
        self.files: dict[Scope, Path] = {"project": project_file, "global": global_file}
        self.index_files = index_files
        self._indexes: dict[Path, MemoryIndex] = {}
        # Held while an index is brought up to date and read: updates happen in place.
        self._lock = threading.RLock()

    # --- save -----------------------------------------------------------------

    def save(
        self,
        *,
        pattern: str,
        category: Category,
        confidence: float = DEFAULT_CONFIDENCE,
        scope: Scope = "project",
        tags: Iterable[str] = (),
    ) -> MemorySaveResult:
        """Append a pattern unless the same category already holds the same text.

        Raises :class:`UsageError` (nothing written) for an empty or oversized
        pattern, a confidence outside 0..1 or bad tags. The duplicate check
        reads the index, not the whole file, so a save costs the same however
        many entries the scope holds.
        """
        text = " ".join(pattern.split())
        if not text:
            raise UsageError("pattern is empty: give the learning as one or more words")
        size = len(pattern.encode("utf-8"))
        if size > MAX_PATTERN_BYTES:
            raise UsageError(
                f"pattern is {size} bytes; the limit is {MAX_PATTERN_BYTES} (1 KB): "
                "save the gist, not the whole log"
            )
        if not 0 <= confidence <= 1:
            raise UsageError(f"confidence {confidence} is outside 0..1")
        tag_list = [" ".join(tag.split()) for tag in tags]
        if len(tag_list) > MAX_TAGS or any(not t or len(t) > MAX_TAG_LENGTH for t in tag_list):
            raise UsageError(
                f"tags: give at most {MAX_TAGS} non-empty tags of at most {MAX_TAG_LENGTH} characters"
            )
        path = self.files[scope]
        key = normalize_pattern(pattern)
        notices: list[str] = []
        with locked(path), self._lock:
            index = self._index(path, locked=True)
            if index is not None and index.bad_lines:
                # Under the lock no other writer is mid-append, so these lines
                # are really corrupt, not half-written.
                moved = set_aside_lines(path, index.bad_lines)
                notices.append(
                    f"{scope} memory {path}: {describe_bad_lines(index.bad_lines)} moved aside "
                    f"to {moved.name}; {index.count} good entries kept"
                )
                index = self._index(path, locked=True)
            stored = self._duplicate(path, index, category, key)
            duplicate = stored is not None
            if stored is None:
                stored = MemoryEntry(
                    id=f"mem_{secrets.token_hex(6)}",
                    timestamp=utc_now(),
                    pattern=pattern.strip(),
                    category=category,
                    confidence=confidence,
                    tags=list(dict.fromkeys(tag_list)),
                )
                append_line(path, stored.to_wire())
        return MemorySaveResult(
            saved=not duplicate,
            duplicate=duplicate,
            scope=scope,
            category=category,
            id=stored.id,
            message=f"Duplicate pattern already in {scope} memory, skipped."
            if duplicate
            else f"Saved to {scope} memory [{category}]: {stored.pattern}",
            notices=notices,
        )

    def _duplicate(
        self, path: Path, index: MemoryIndex | None, category: str, key: str
    ) -> MemoryEntry | None:
        """The stored entry with this category and dedup key, if any (hash hits are confirmed)."""
        if index is None:
            return None
        with _opened(path) as fd:
            for doc in index.entries_with_key(dedup_hash(category, key)):
                if fd is None:
                    break
                entry = _entry_at(fd, index.offsets[doc])
                if (
                    entry is not None
                    and entry.category == category
                    and normalize_pattern(entry.pattern) == key
                ):
                    return entry
        return None

    # --- recall ---------------------------------------------------------------

    def recall(
        self,
        query: str,
        *,
        scope: RecallScope = "all",
        limit: int = DEFAULT_RECALL_LIMIT,
        category: Category | None = None,
    ) -> MemoryRecallResult:
        """The ``limit`` entries most relevant to ``query``, grouped by scope (project first)."""
        scopes: list[Scope] = ["project", "global"] if scope == "all" else [scope]
        return self._recall(query, scopes, limit, category, retry=True)

    def _recall(
        self,
        query: str,
        scopes: list[Scope],
        limit: int,
        category: Category | None,
        *,
        retry: bool,
    ) -> MemoryRecallResult:
        notices: list[str] = []
        with self._lock, contextlib.ExitStack() as stack:
            sources: list[tuple[Scope, MemoryIndex, int]] = []
            for s in scopes:
                fd = stack.enter_context(_opened(self.files[s]))
                index = self._index(self.files[s], fd)
                if index is None or fd is None:
                    continue
                sources.append((s, index, fd))
                if index.bad_lines:
                    notices.append(
                        f"{s} memory {self.files[s]}: {describe_bad_lines(index.bad_lines)} "
                        "skipped; the next memory_save in that scope moves them aside"
                    )
            words = list(dict.fromkeys(tokenize(query)))
            searched, best = best_matches(
                words,
                [index for _, index, _ in sources],
                category,
                max(1, min(limit, MAX_RECALL_LIMIT)),
            )
            found: list[tuple[float, Scope, MemoryEntry]] = []
            for score, number, doc in best:
                s, index, fd = sources[number]
                entry = _entry_at(fd, index.offsets[doc])
                if entry is None:
                    if not retry:
                        raise CorruptFileError(f"{s} memory {self.files[s]} changed while read")
                    # The index no longer matches the file (edited in place): rebuild it.
                    self._indexes.clear()
                    for name in scopes if self.index_files else ():
                        with contextlib.suppress(OSError):
                            index_path(self.files[name]).unlink()
                    return self._recall(query, scopes, limit, category, retry=False)
                found.append((score, s, entry))
        found.sort(key=lambda hit: (hit[1] != "project", -hit[2].confidence, -hit[0]))
        memories = [
            RecalledMemory(**entry.model_dump(), scope=s, relevance=round(score, 4))
            for score, s, entry in found
        ]
        return MemoryRecallResult(
            query=query,
            memories=memories,
            searched=searched,
            text=_render(query, memories, searched, scopes, category),
            notices=notices,
        )

    def _index(
        self, path: Path, fd: int | None = None, *, locked: bool = False
    ) -> MemoryIndex | None:
        """The up-to-date index of ``path``; ``None`` when the file does not exist.

        ``locked``: the caller holds the file's lock (see :func:`refresh`).
        """
        if fd is None:
            with _opened(path) as own:
                return self._index(path, own, locked=locked) if own is not None else None
        index = refresh(
            path, fd, self._indexes.get(path), _document, locked=locked, stored=self.index_files
        )
        self._indexes[path] = index
        return index


def parse_entry(line: bytes) -> MemoryEntry | None:
    """The entry a JSONL line holds; ``None`` when the line is corrupt (not an entry)."""
    try:
        record = decode_json(line)  # a lone surrogate escape is corrupt, as in every state file
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict):
        return None
    try:
        return MemoryEntry.model_validate(record)
    except ValidationError:
        return None


def _document(line: bytes) -> Document | None:
    entry = parse_entry(line)
    if entry is None:
        return None
    terms = Counter(tokenize(f"{entry.pattern} {entry.category} {' '.join(entry.tags)}"))
    key = dedup_hash(entry.category, normalize_pattern(entry.pattern))
    return Document(entry.category, entry.confidence, entry.timestamp, terms, key)


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[int | None]:
    # No link, FIFO, folder or file over the cap: refused like any state file.
    fd = open_state_file(path, MAX_JSONL_BYTES)
    try:
        yield fd
    finally:
        if fd is not None:
            os.close(fd)


def _entry_at(fd: int, offset: int) -> MemoryEntry | None:
    """The entry whose line starts at ``offset``; ``None`` when that is not an entry's line."""
    return parse_entry(read_line(fd, offset))


def _render(
    query: str,
    memories: list[RecalledMemory],
    searched: int,
    scopes: list[Scope],
    category: str | None,
) -> str:
    where = " and ".join(f"{s} memory" for s in scopes)
    if category:
        where += f" [{category}]"
    if not memories:
        if not searched:
            return f"No memories in {where} yet: save learnings with memory_save."
        return f'No memories in {where} match "{query}" ({searched} searched): try other words.'
    noun = "memory" if len(memories) == 1 else "memories"
    lines = [f'{len(memories)} {noun} for "{query}" ({searched} searched):']
    for scope in scopes:
        group = [m for m in memories if m.scope == scope]
        if group:
            lines.append(f"{scope}:")
            lines.extend(f"  [{m.category}] {m.confidence:g} — {m.pattern}" for m in group)
    return "\n".join(lines)
