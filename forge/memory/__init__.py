"""Memory: patterns agents learned, saved per project or for every project, recalled by relevance.

- :mod:`~forge.memory.save_recall`: :class:`Memory`, the ``memory_save`` and
  ``memory_recall`` tools' engine (dedup, ranking, the replies), and the
  entry models.
- :mod:`~forge.memory.index`, :mod:`~forge.memory.index_file` and
  :mod:`~forge.memory.index_refresh`: the search index of each memory JSONL,
  held in memory, stored beside it, and kept up to date with it.
- :mod:`~forge.memory.ranking`: Okapi BM25 over those indexes.
"""

from forge.memory.save_recall import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RECALL_LIMIT,
    MAX_PATTERN_BYTES,
    MAX_QUERY_LENGTH,
    MAX_RECALL_LIMIT,
    MAX_TAG_LENGTH,
    MAX_TAGS,
    Category,
    Memory,
    MemoryEntry,
    MemoryFile,
    MemoryRecallResult,
    MemorySaveResult,
    RecalledMemory,
    RecallScope,
    Scope,
    normalize_pattern,
    parse_entry,
    read_memory,
)

__all__ = [
    "DEFAULT_CONFIDENCE",
    "DEFAULT_RECALL_LIMIT",
    "MAX_PATTERN_BYTES",
    "MAX_QUERY_LENGTH",
    "MAX_RECALL_LIMIT",
    "MAX_TAGS",
    "MAX_TAG_LENGTH",
    "Category",
    "Memory",
    "MemoryEntry",
    "MemoryFile",
    "MemoryRecallResult",
    "MemorySaveResult",
    "RecallScope",
    "RecalledMemory",
    "Scope",
    "normalize_pattern",
    "parse_entry",
    "read_memory",
]
