"""The memory index beside each JSONL: used while it matches the file, rebuilt when it does not."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from forge.memory import Memory
from forge.memory.index_file import index_path
from forge.memory.index_refresh import PERSIST_TAIL_BYTES
from forge.memory.ranking import BM25_B, BM25_K1, tokenize

WORDS = [
    "pytest",
    "vitest",
    "ruff",
    "mypy",
    "docker",
    "alembic",
    "postgres",
    "redis",
    "auth",
    "api",
    "cache",
    "queue",
    "test",
]
CATEGORIES = ["convention", "test_command", "tool_usage", "architecture"]


def write_entries(path: Path, count: int, seed: int = 1) -> list[dict[str, object]]:
    generator = random.Random(seed)
    entries: list[dict[str, object]] = [
        {
            "id": f"mem_{seed}_{n}",
            "timestamp": f"2026-01-01T00:00:{generator.randint(0, 9):02d}.000Z",
            "pattern": " ".join(generator.choice(WORDS) for _ in range(generator.randint(1, 9))),
            "category": generator.choice(CATEGORIES),
            "confidence": generator.choice([0.5, 0.7, 0.9]),
            "tags": [generator.choice(WORDS)] if generator.random() < 0.3 else [],
        }
        for n in range(count)
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.writelines(json.dumps(entry) + "\n" for entry in entries)
    return entries


def brute_force(
    entries: list[tuple[str, dict[str, object]]], query: str, limit: int, category: str | None
) -> list[tuple[str, str]]:
    """Okapi BM25 over every entry, the obvious way: what the index must agree with."""
    corpus = [(s, e) for s, e in entries if category is None or e["category"] == category]
    docs = [
        Counter(tokenize(f"{e['pattern']} {e['category']} {' '.join(e['tags'])}"))  # type: ignore[arg-type]
        for _, e in corpus
    ]
    words = list(dict.fromkeys(tokenize(query)))
    if not corpus or not words:
        return []
    average = sum(sum(d.values()) for d in docs) / len(docs) or 1.0
    hits = []
    for position, ((scope, entry), terms) in enumerate(zip(corpus, docs, strict=True)):
        score = 0.0
        for word in words:
            df = sum(1 for d in docs if word in d)
            if df and terms[word]:
                idf = math.log(1 + (len(docs) - df + 0.5) / (df + 0.5))
                norm = BM25_K1 * (1 - BM25_B + BM25_B * sum(terms.values()) / average)
                tf = terms[word]
                score += idf * tf * (BM25_K1 + 1) / (tf + norm)
        if score > 0:
            hits.append(((score, entry["confidence"], entry["timestamp"], position), scope, entry))
    hits.sort(key=lambda hit: hit[0], reverse=True)  # type: ignore[arg-type, return-value]
    return [(scope, str(entry["id"])) for _, scope, entry in hits[:limit]]


def test_recall_ranks_as_brute_force_bm25_does(tmp_path: Path) -> None:
    project, shared = tmp_path / "project.jsonl", tmp_path / "global.jsonl"
    entries = [("project", e) for e in write_entries(project, 300, seed=1)]
    entries += [("global", e) for e in write_entries(shared, 200, seed=2)]
    memory = Memory(project, shared)
    generator = random.Random(3)
    for _ in range(40):
        query = " ".join(generator.choice([*WORDS, "nothing"]) for _ in range(3))
        limit = generator.choice([1, 5, 50])
        category = generator.choice([None, *CATEGORIES])
        result = memory.recall(query, limit=limit, category=category)  # type: ignore[arg-type]
        expected = brute_force(entries, query, limit, category)
        assert sorted((m.scope, m.id) for m in result.memories) == sorted(expected), query


def test_a_large_store_gets_an_index_file_that_a_fresh_process_reuses(tmp_path: Path) -> None:
    path = tmp_path / "memory" / "project.jsonl"
    write_entries(path, 2000)
    assert path.stat().st_size > PERSIST_TAIL_BYTES
    first = Memory(path, tmp_path / "global.jsonl").recall("alembic postgres")
    stored = index_path(path)
    assert stored.name == "project.index" and stored.is_file()
    before = stored.stat()
    again = Memory(path, tmp_path / "global.jsonl").recall("alembic postgres")
    assert again.model_dump() == first.model_dump()
    after = stored.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_lines_appended_since_the_index_was_written_are_found(tmp_path: Path) -> None:
    path = tmp_path / "project.jsonl"
    write_entries(path, 2000)
    Memory(path, tmp_path / "global.jsonl").recall("redis")
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"id": "late", "pattern": "zeppelin", "category": "convention"}))
        handle.write("\n")
    result = Memory(path, tmp_path / "global.jsonl").recall("zeppelin")
    assert [m.id for m in result.memories] == ["late"]
    assert result.searched == 2001


def test_a_file_changed_in_place_is_reindexed(tmp_path: Path) -> None:
    path = tmp_path / "project.jsonl"
    write_entries(path, 2000)
    memory = Memory(path, tmp_path / "global.jsonl")
    assert memory.recall("zeppelin").memories == []
    # Same inode, same size, other bytes: an editor writing the file in place.
    data = path.read_bytes()
    line = json.dumps({"id": "x", "pattern": "zeppelin", "category": "convention"}).encode()
    first_end = data.index(b"\n")
    assert len(line) <= first_end
    patched = line + b" " * (first_end - len(line)) + data[first_end:]
    with path.open("r+b") as handle:
        handle.write(patched)
    for reader in (memory, Memory(path, tmp_path / "global.jsonl")):
        assert [m.id for m in reader.recall("zeppelin").memories] == ["x"]


def test_a_replaced_file_is_reindexed(tmp_path: Path) -> None:
    path = tmp_path / "project.jsonl"
    write_entries(path, 2000, seed=1)
    memory = Memory(path, tmp_path / "global.jsonl")
    memory.recall("redis")
    replacement = tmp_path / "new.jsonl"
    write_entries(replacement, 10, seed=9)
    replacement.replace(path)
    assert memory.recall("redis").searched == 10
    assert Memory(path, tmp_path / "global.jsonl").recall("redis").searched == 10


@pytest.mark.parametrize(
    "damage",
    [b"", b"garbage", b"forge memory index 1\n\xff\xff\xff\xff\xff\xff\xff\x7f{"],
)
def test_a_damaged_index_file_is_rebuilt_not_trusted(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "project.jsonl"
    write_entries(path, 2000)
    expected = Memory(path, tmp_path / "global.jsonl").recall("docker auth").model_dump()
    index_path(path).write_bytes(damage)
    assert Memory(path, tmp_path / "global.jsonl").recall("docker auth").model_dump() == expected
    assert index_path(path).read_bytes().startswith(b"forge memory index 1\n")


def test_an_index_whose_numbers_lie_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "project.jsonl"
    write_entries(path, 2000)
    memory = Memory(path, tmp_path / "global.jsonl")
    expected = memory.recall("docker auth").model_dump()
    stored = index_path(path)
    data = bytearray(stored.read_bytes())
    data[-4000:-3000] = bytes(1000)  # zeroes in the middle of the sections
    stored.write_bytes(bytes(data))
    assert Memory(path, tmp_path / "global.jsonl").recall("docker auth").model_dump() == expected


def test_duplicates_are_found_through_the_index_of_a_large_store(tmp_path: Path) -> None:
    path = tmp_path / "project.jsonl"
    entries = write_entries(path, 2000)
    Memory(path, tmp_path / "global.jsonl").recall("x")  # writes the index
    pattern, category = str(entries[1234]["pattern"]), str(entries[1234]["category"])
    again = Memory(path, tmp_path / "global.jsonl").save(
        pattern=f"  {pattern.upper()} ",
        category=category,  # type: ignore[arg-type]
    )
    first = next(
        e["id"]
        for e in entries
        if e["category"] == category and str(e["pattern"]).casefold() == pattern.casefold()
    )
    assert (again.duplicate, again.id) == (True, first)
    assert path.read_text(encoding="utf-8").count("\n") == 2000


def test_a_last_line_without_its_newline_is_an_entry(tmp_path: Path) -> None:
    path = tmp_path / "project.jsonl"
    write_entries(path, 3)
    with path.open("a", encoding="utf-8") as handle:  # a hand edit: no final newline
        handle.write(json.dumps({"id": "last", "pattern": "zeppelin", "category": "convention"}))
    memory = Memory(path, tmp_path / "global.jsonl")
    assert [m.id for m in memory.recall("zeppelin").memories] == ["last"]
    saved = memory.save(pattern="zeppelin two", category="convention")
    assert saved.saved and saved.notices == []
    found = memory.recall("zeppelin")
    assert {m.id for m in found.memories} == {"last", saved.id} and found.notices == []
    assert Memory(path, tmp_path / "global.jsonl").recall("zeppelin").searched == 5


def test_a_torn_last_line_is_skipped_by_recall_and_moved_aside_by_save(tmp_path: Path) -> None:
    path = tmp_path / "project.jsonl"
    write_entries(path, 3)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"id": "torn", "pattern": "zepp')
    memory = Memory(path, tmp_path / "global.jsonl")
    assert memory.recall("zeppelin").memories == [] and memory.recall("x").searched == 3
    saved = memory.save(pattern="zeppelin", category="convention")
    (notice,) = saved.notices
    assert "1 unreadable line (4)" in notice and "3 good entries kept" in notice
    assert [m.id for m in memory.recall("zeppelin").memories] == [saved.id]
    assert path.read_text(encoding="utf-8").count("\n") == 4


def test_a_reader_that_keeps_no_index_file_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory" / "project.jsonl"
    write_entries(path, 2000)
    assert path.stat().st_size > PERSIST_TAIL_BYTES
    before = sorted(p.name for p in path.parent.iterdir())
    reader = Memory(path, tmp_path / "global.jsonl", index_files=False)
    found = reader.recall("alembic postgres")
    assert found.memories
    assert sorted(p.name for p in path.parent.iterdir()) == before
    # The same answer as a reader that keeps its index file, and it stays current.
    assert (
        found.model_dump()
        == Memory(path, tmp_path / "global.jsonl").recall("alembic postgres").model_dump()
    )
    index_path(path).unlink()
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"id": "late", "pattern": "zeppelin", "category": "convention"}))
        handle.write("\n")
    assert [m.id for m in reader.recall("zeppelin").memories] == ["late"]
    assert sorted(p.name for p in path.parent.iterdir()) == before
