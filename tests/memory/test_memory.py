"""Memory: dedup, the 1 KB cap, BM25 ranking, scopes, and the tools over MCP."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp_client import call, call_error, connect

from forge.errors import UsageError
from forge.memory import Memory
from forge.memory.ranking import tokenize


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return Memory(tmp_path / "project.jsonl", tmp_path / "home" / "global.jsonl")


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_save_appends_one_entry_with_the_documented_fields(memory: Memory) -> None:
    result = memory.save(pattern="Run pnpm vitest --run", category="test_command", tags=["js"])
    assert result.saved and not result.duplicate
    assert result.message == "Saved to project memory [test_command]: Run pnpm vitest --run"
    (entry,) = lines(memory.files["project"])
    assert set(entry) == {"id", "timestamp", "pattern", "category", "confidence", "tags"}
    assert (entry["confidence"], entry["tags"], entry["id"]) == (0.7, ["js"], result.id)


def test_duplicates_are_found_ignoring_case_and_whitespace(memory: Memory) -> None:
    memory.save(pattern="Use  pytest -q", category="test_command")
    again = memory.save(pattern="  use PYTEST\t-q ", category="test_command")
    other_category = memory.save(pattern="use pytest -q", category="convention")
    other_scope = memory.save(pattern="use pytest -q", category="test_command", scope="global")
    assert (again.saved, again.duplicate) == (False, True)
    assert again.message == "Duplicate pattern already in project memory, skipped."
    assert other_category.saved and other_scope.saved
    assert len(lines(memory.files["project"])) == 2
    assert len(lines(memory.files["global"])) == 1


@pytest.mark.parametrize(
    ("pattern", "confidence", "expected"),
    [
        ("x" * 1025, 0.5, "1025 bytes"),
        ("é" * 513, 0.5, "1026 bytes"),  # 513 characters, but over 1 KB in UTF-8
        (" \n\t", 0.5, "empty"),
        ("ok", 1.01, "outside 0..1"),
        ("ok", -0.1, "outside 0..1"),
    ],
)
def test_bad_patterns_are_refused_and_nothing_is_written(
    memory: Memory, pattern: str, confidence: float, expected: str
) -> None:
    with pytest.raises(UsageError, match=expected):
        memory.save(pattern=pattern, category="convention", confidence=confidence)
    assert not memory.files["project"].exists()


def test_a_pattern_of_exactly_1_kb_is_accepted(memory: Memory) -> None:
    assert memory.save(pattern="x" * 1024, category="convention").saved


def test_ranking_is_bm25_not_substring_counting(memory: Memory) -> None:
    for text in (
        "database migrations run with alembic upgrade head",
        "the database is postgres; tests use a database fixture",
        "format code with ruff format",
        "commit messages are imperative",
    ):
        memory.save(pattern=text, category="convention", confidence=0.5)
    result = memory.recall("alembic database", limit=10)
    patterns = [m.pattern for m in result.memories]
    # "alembic" is rare, so the entry with it ranks first even though the other
    # says "database" three times; entries with neither word are not returned.
    assert patterns[0].startswith("database migrations")
    assert len(patterns) == 2
    assert result.memories[0].relevance > result.memories[1].relevance > 0


def test_ties_go_to_confidence_then_recency(memory: Memory) -> None:
    memory.save(pattern="deploy with make ship", category="tool_usage", confidence=0.5)
    memory.save(pattern="deploy with make release", category="tool_usage", confidence=0.9)
    memory.save(pattern="deploy with make publish", category="tool_usage", confidence=0.5)
    result = memory.recall("deploy", limit=2)
    assert [m.pattern for m in result.memories] == [
        "deploy with make release",
        "deploy with make publish",
    ]


def test_results_are_grouped_by_scope_project_first_then_by_confidence(memory: Memory) -> None:
    memory.save(pattern="lint with ruff check", category="tool_usage", scope="global", confidence=1)
    memory.save(pattern="lint: ruff check .", category="tool_usage", confidence=0.6)
    memory.save(pattern="lint runs in CI", category="convention", confidence=0.9)
    result = memory.recall("lint")
    assert [(m.scope, m.confidence) for m in result.memories] == [
        ("project", 0.9),
        ("project", 0.6),
        ("global", 1.0),
    ]
    assert result.text.splitlines() == [
        '3 memories for "lint" (3 searched):',
        "project:",
        "  [convention] 0.9 — lint runs in CI",
        "  [tool_usage] 0.6 — lint: ruff check .",
        "global:",
        "  [tool_usage] 1 — lint with ruff check",
    ]


def test_scope_category_and_limit_narrow_the_search(memory: Memory) -> None:
    memory.save(pattern="tests: pytest -q", category="test_command")
    memory.save(pattern="tests live in tests/", category="convention")
    memory.save(pattern="tests need docker", category="dependency", scope="global")
    assert {m.scope for m in memory.recall("tests", scope="global").memories} == {"global"}
    assert [m.category for m in memory.recall("tests", category="convention").memories] == [
        "convention"
    ]
    assert len(memory.recall("tests", limit=1).memories) == 1
    assert memory.recall("tests").searched == 3


def test_tags_and_category_words_are_searched(memory: Memory) -> None:
    memory.save(pattern="use the fake clock", category="convention", tags=["freezegun"])
    memory.save(pattern="never sleep in tests", category="failure_pattern")
    assert [m.pattern for m in memory.recall("freezegun").memories] == ["use the fake clock"]
    assert [m.pattern for m in memory.recall("failure").memories] == ["never sleep in tests"]


def test_no_match_is_an_informative_reply(memory: Memory) -> None:
    empty = memory.recall("anything")
    assert empty.memories == [] and "save learnings with memory_save" in empty.text
    memory.save(pattern="use uv", category="tool_usage")
    miss = memory.recall("kubernetes")
    assert miss.memories == [] and 'match "kubernetes" (1 searched)' in miss.text


def test_corrupt_lines_are_skipped(memory: Memory) -> None:
    memory.save(pattern="first entry", category="convention")
    with memory.files["project"].open("a", encoding="utf-8") as handle:
        handle.write('{"truncated": \n[1, 2]\n{"id": "x"}\n')
    memory.save(pattern="second entry", category="convention")
    assert len(memory.recall("entry").memories) == 2


def test_the_index_notices_appends_by_other_processes(memory: Memory) -> None:
    memory.save(pattern="alpha beta", category="convention")
    assert len(memory.recall("beta").memories) == 1
    other = Memory(memory.files["project"], memory.files["global"])
    other.save(pattern="beta gamma", category="convention")
    path = memory.files["project"]
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000))
    assert len(memory.recall("beta").memories) == 2


def test_tokenize_splits_words_and_folds_plurals() -> None:
    assert tokenize("Run_Tests with pytest's fixtures; class") == [
        "run",
        "test",
        "with",
        "pytest",
        "s",
        "fixture",
        "class",
    ]


@pytest.mark.anyio
async def test_memory_tools_over_mcp_use_project_and_forge_home(project: Path) -> None:
    home = Path(os.environ["FORGE_HOME"])
    async with connect(project) as client:
        saved = await call(
            client,
            "memory_save",
            {"pattern": "pnpm vitest --run", "category": "test_command", "confidence": 0.9},
        )
        dup = await call(
            client, "memory_save", {"pattern": "PNPM  vitest --run", "category": "test_command"}
        )
        await call(
            client,
            "memory_save",
            {"pattern": "vitest needs --run in CI", "category": "tool_usage", "scope": "global"},
        )
        recalled = await call(client, "memory_recall", {"query": "vitest"})
        too_big = await call_error(
            client, "memory_save", {"pattern": "é" * 600, "category": "convention"}
        )
        logs = await call(client, "forge_logs", {"phase": "memory"})
    assert saved["message"] == "Saved to project memory [test_command]: pnpm vitest --run"
    assert dup["message"] == "Duplicate pattern already in project memory, skipped."
    assert [m["scope"] for m in recalled["memories"]] == ["project", "global"]
    assert "[test_command] 0.9 — pnpm vitest --run" in recalled["text"]
    assert "1200 bytes" in too_big
    assert (home / "memory/global.jsonl").is_file()
    assert len(lines(project / ".forge/memory/project.jsonl")) == 1
    assert [e["data"]["saved"] for e in logs["entries"]] == [True, False, True]
