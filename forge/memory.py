"""Memory: patterns agents learned, saved per project or for every project, and recalled by relevance.

Project memory is ``.forge/memory/project.jsonl``; global memory is
``$FORGE_HOME/memory/global.jsonl``. One JSON object a line:
``{id, timestamp, pattern, category, confidence, tags}``.

Recall ranks with Okapi BM25 over each entry's pattern, category and tags
(k1 = 1.2, b = 0.75, the Lucene idf ``ln(1 + (N - df + 0.5) / (df + 0.5))``
that is never negative); ties go to higher confidence, then to the newer
entry. A parsed and tokenised index of each file is kept while the file's
size and mtime stay the same, so a long-running server answers from memory.
"""

from __future__ import annotations

import math
import re
import secrets
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import ConfigDict, Field, ValidationError

from forge.errors import UsageError
from forge.models import WireModel
from forge.store import (
    append_line,
    describe_bad_lines,
    locked,
    numbered_lines,
    set_aside_lines,
    utc_now,
)

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

BM25_K1 = 1.2
BM25_B = 0.75

_WORD = re.compile(r"[^\W_]+")


class MemoryEntry(WireModel):
    """One remembered pattern, as stored."""

    # Lines written by other tools may carry more keys; they are kept out of the way.
    model_config = ConfigDict(extra="ignore")

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


def tokenize(text: str) -> list[str]:
    """Lower-cased words (underscores split words: ``test_command`` is two).

    A plural ``s`` is dropped from longer words so ``tests`` finds ``test``.
    """
    words = []
    for word in _WORD.findall(text.casefold()):
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        words.append(word)
    return words


@dataclass(frozen=True)
class _Indexed:
    entry: MemoryEntry
    terms: Counter[str]
    length: int


@dataclass(frozen=True)
class _FileIndex:
    signature: tuple[int, int]
    entries: list[_Indexed]
    bad_lines: list[int]


_NO_FILE = _FileIndex((0, 0), [], [])


class Memory:
    """Project and global memory, with a per-file index reused while the file is unchanged."""

    def __init__(self, project_file: Path, global_file: Path) -> None:
        self.files: dict[Scope, Path] = {"project": project_file, "global": global_file}
        self._cache: dict[Path, _FileIndex] = {}
        self._cache_lock = threading.Lock()

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
        pattern, a confidence outside 0..1 or bad tags.
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
        with locked(path):
            stored = read_memory(path)
            if stored.bad_lines:
                # Under the lock no other writer is mid-append, so these lines
                # are really corrupt, not half-written.
                moved = set_aside_lines(path, stored.bad_lines)
                notices.append(
                    f"{scope} memory {path}: {describe_bad_lines(stored.bad_lines)} moved aside "
                    f"to {moved.name}; {len(stored.entries)} good entries kept"
                )
            for existing in stored.entries:
                if existing.category == category and normalize_pattern(existing.pattern) == key:
                    return MemorySaveResult(
                        saved=False,
                        duplicate=True,
                        scope=scope,
                        category=category,
                        id=existing.id,
                        message=f"Duplicate pattern already in {scope} memory, skipped.",
                        notices=notices,
                    )
            entry = MemoryEntry(
                id=f"mem_{secrets.token_hex(6)}",
                timestamp=utc_now(),
                pattern=pattern.strip(),
                category=category,
                confidence=confidence,
                tags=list(dict.fromkeys(tag_list)),
            )
            append_line(path, entry.to_wire(), mend_last_line=True)
        return MemorySaveResult(
            saved=True,
            duplicate=False,
            scope=scope,
            category=category,
            id=entry.id,
            message=f"Saved to {scope} memory [{category}]: {entry.pattern}",
            notices=notices,
        )

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
        corpus: list[tuple[Scope, _Indexed]] = []
        notices: list[str] = []
        for s in scopes:
            index = self._index(self.files[s])
            corpus.extend(
                (s, item)
                for item in index.entries
                if category is None or item.entry.category == category
            )
            if index.bad_lines:
                notices.append(
                    f"{s} memory {self.files[s]}: {describe_bad_lines(index.bad_lines)} skipped; "
                    "the next memory_save in that scope moves them aside"
                )
        words = list(dict.fromkeys(tokenize(query)))
        ranked = _bm25(words, corpus)
        # Ties: confidence, then recency; entries saved within one millisecond
        # share a timestamp, so their order in the file (later is newer) decides.
        order = sorted(
            range(len(ranked)),
            key=lambda i: (
                ranked[i][0],
                ranked[i][2].entry.confidence,
                ranked[i][2].entry.timestamp,
                i,
            ),
            reverse=True,
        )[: max(1, min(limit, MAX_RECALL_LIMIT))]
        best = [ranked[i] for i in order]
        best.sort(
            key=lambda hit: (hit[1] != "project", -hit[2].entry.confidence, -hit[0]),
        )
        memories = [
            RecalledMemory(**item.entry.model_dump(), scope=s, relevance=round(score, 4))
            for score, s, item in best
        ]
        return MemoryRecallResult(
            query=query,
            memories=memories,
            searched=len(corpus),
            text=_render(query, memories, len(corpus), scopes, category),
            notices=notices,
        )

    def _index(self, path: Path) -> _FileIndex:
        try:
            stat = path.stat()
        except FileNotFoundError:
            return _NO_FILE
        signature = (stat.st_size, stat.st_mtime_ns)
        with self._cache_lock:
            cached = self._cache.get(path)
        if cached is not None and cached.signature == signature:
            return cached
        stored = read_memory(path)
        entries = []
        for entry in stored.entries:
            terms = Counter(tokenize(f"{entry.pattern} {entry.category} {' '.join(entry.tags)}"))
            entries.append(_Indexed(entry, terms, sum(terms.values())))
        index = _FileIndex(signature, entries, stored.bad_lines)
        with self._cache_lock:
            self._cache[path] = index
        return index


def _bm25(
    words: list[str], corpus: list[tuple[Scope, _Indexed]]
) -> list[tuple[float, Scope, _Indexed]]:
    """Okapi BM25 of ``words`` against each document; only documents with a hit are kept."""
    if not words or not corpus:
        return []
    count = len(corpus)
    average = sum(item.length for _, item in corpus) / count or 1.0
    frequency = {w: sum(1 for _, item in corpus if w in item.terms) for w in words}
    idf = {w: math.log(1 + (count - df + 0.5) / (df + 0.5)) for w, df in frequency.items() if df}
    hits = []
    for scope, item in corpus:
        score = 0.0
        for word, weight in idf.items():
            tf = item.terms.get(word, 0)
            if tf:
                norm = BM25_K1 * (1 - BM25_B + BM25_B * item.length / average)
                score += weight * tf * (BM25_K1 + 1) / (tf + norm)
        if score > 0:
            hits.append((score, scope, item))
    return hits


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
