"""Benchmark memory recall and save at 1,000, 10,000 and 100,000 entries (not a timed test).

Run from a checkout with forge installed (``pip install -e '.[dev]'``)::

    python benchmarks/memory_speed.py                 # 1k, 10k and 100k entries
    python benchmarks/memory_speed.py --sizes 10000   # one size

For each size, in one temporary store:

- warm recall: one :class:`forge.memory.Memory` (as a server holds it) answers
  the same queries again and again, median of 15 calls each. Baseline, in the
  same run: the obvious BM25 that scores every entry of an already parsed and
  tokenised store (what forge did before the index). Targets: 10 ms at
  10,000 entries, 100 ms at 100,000.
- fresh recall: a new ``Memory`` (as a new ``forge memory recall`` process
  has) answers once, its index read from ``project.index``.
- save: 20 new patterns, median. Baseline: appending the same line without
  any check (:func:`forge.store.append_line`). Target: the same at every size.

The store is built once per size (its first recall writes the index; that
build time is printed too).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from forge.memory import Memory
from forge.memory.ranking import BM25_B, BM25_K1, tokenize
from forge.store.jsonl import append_line

CATEGORIES = ("convention", "test_command", "tool_usage", "architecture", "dependency")
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
    "login",
    "api",
    "cache",
    "queue",
    "worker",
    "deploy",
    "release",
    "build",
    "lint",
    "format",
    "schema",
    "migration",
    "fixture",
    "mock",
    "clock",
    "retry",
]
QUERIES = ("alembic postgres migration", "pytest", "flaky login retry")


def write_store(path: Path, size: int) -> None:
    """``size`` entries like agents write them: eight words of a small vocabulary each."""
    with path.open("w", encoding="utf-8") as handle:
        for i in range(size):
            words = " ".join(WORDS[(i * k + 7) % len(WORDS)] for k in range(1, 9))
            entry = {
                "id": f"mem_{i}",
                "timestamp": f"2026-01-01T00:00:{i % 60:02d}.000Z",
                "pattern": f"pattern {i}: {words}",
                "category": CATEGORIES[i % len(CATEGORIES)],
                "confidence": round((i % 10) / 10, 1),
                "tags": [WORDS[i % len(WORDS)]],
            }
            handle.write(json.dumps(entry) + "\n")


def naive_recall(corpus: list[tuple[dict[str, object], Counter[str]]], query: str) -> list[str]:
    """BM25 over every entry: document frequencies by scanning, every entry scored."""
    words = list(dict.fromkeys(tokenize(query)))
    average = sum(sum(terms.values()) for _, terms in corpus) / len(corpus)
    idf = {}
    for word in words:
        df = sum(1 for _, terms in corpus if word in terms)
        if df:
            idf[word] = math.log(1 + (len(corpus) - df + 0.5) / (df + 0.5))
    hits = []
    for entry, terms in corpus:
        length = sum(terms.values())
        score = 0.0
        for word, weight in idf.items():
            tf = terms.get(word, 0)
            if tf:
                norm = BM25_K1 * (1 - BM25_B + BM25_B * length / average)
                score += weight * tf * (BM25_K1 + 1) / (tf + norm)
        if score > 0:
            hits.append((score, entry["confidence"], entry["timestamp"], str(entry["id"])))
    hits.sort(reverse=True)
    return [hit[3] for hit in hits[:10]]


def median_ms(action: object, runs: int) -> float:
    """Median wall time of ``runs`` calls of ``action``, in milliseconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()  # type: ignore[operator]
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def bench(size: int, folder: Path) -> None:
    """Every measurement for one store size."""
    path = folder / f"store{size}" / "project.jsonl"
    path.parent.mkdir()
    write_store(path, size)
    other = folder / f"store{size}" / "global.jsonl"
    memory = Memory(path, other)
    started = time.perf_counter()
    memory.recall("warm up")
    build = time.perf_counter() - started

    corpus = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        text = f"{entry['pattern']} {entry['category']} {' '.join(entry['tags'])}"
        corpus.append((entry, Counter(tokenize(text))))

    print(f"\n{size:,} entries (index built in {build:.2f} s on first recall)")
    for query in QUERIES:
        indexed = median_ms(lambda q=query: memory.recall(q), 15)
        naive = median_ms(lambda q=query: naive_recall(corpus, q), 3 if size > 20_000 else 7)
        print(
            f"  warm recall {query!r:30} {indexed:8.2f} ms   naive {naive:8.1f} ms   "
            f"ratio {indexed / naive:5.3f}"
        )
    fresh = median_ms(lambda: Memory(path, other).recall(QUERIES[0]), 5)
    print(f"  fresh recall (index read from disk) {fresh:8.2f} ms")
    counter = iter(range(10**9))
    save = median_ms(
        lambda: memory.save(
            pattern=f"new pattern {next(counter)} about redis", category="convention"
        ),
        20,
    )
    floor = median_ms(
        lambda: append_line(
            folder / "floor.jsonl", {"id": "x", "pattern": "new pattern about redis"}
        ),
        20,
    )
    print(f"  save {save:8.2f} ms   plain append {floor:6.2f} ms   ratio {save / floor:5.1f}")


def main() -> None:
    """Run every size in a temporary folder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; targets: warm recall <= 10 ms at 10,000 entries, ")
    print("<= 100 ms at 100,000; save the same at every size")
    with tempfile.TemporaryDirectory() as scratch:
        for size in args.sizes:
            bench(size, Path(scratch))


if __name__ == "__main__":
    main()
