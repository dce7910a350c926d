"""Benchmarks of the MCP server, through a real client over stdio (not timed tests).

Run: ``python benchmarks/bench_server.py`` (with forge installed in that
interpreter's environment). Prints one line per measurement with its target.

- cold start: spawn ``forge serve``, initialize, list tools;
- warm validate: a module of 100 small files, no commands (median of 20 calls);
- memory_recall over 10,000 entries (median of 20 calls, index warm);
- 8 concurrent validate calls each running ``sleep 1`` (must overlap).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

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


def _params(project: Path, home: Path) -> StdioServerParameters:
    forge = Path(sys.executable).parent / "forge"
    env = {"FORGE_CWD": str(project), "FORGE_HOME": str(home)}
    return StdioServerParameters(command=str(forge), args=["serve"], env=env, cwd=str(project))


def _prepare(project: Path) -> None:
    src = project / "src"
    src.mkdir(parents=True)
    for i in range(100):
        (src / f"mod_{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n", encoding="utf-8")
    memory = project / ".forge" / "memory"
    memory.mkdir(parents=True)
    with (memory / "project.jsonl").open("w", encoding="utf-8") as handle:
        for i in range(10_000):
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


async def _median_ms(client: Client, tool: str, arguments: dict[str, object], n: int) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        result = await client.call_tool(tool, arguments)
        times.append((time.perf_counter() - started) * 1000)
        assert not result.is_error, result.content
    return statistics.median(times)


async def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        project, home = Path(scratch) / "project", Path(scratch) / "home"
        _prepare(project)
        params = _params(project, home)

        started = time.perf_counter()
        async with Client(params) as client:
            tools = await client.list_tools()
            cold = (time.perf_counter() - started) * 1000
            assert len(tools.tools) == 7
            files = [f"src/mod_{i}.py" for i in range(100)]
            arguments = {"moduleId": "bench", "runId": "bench", "files": files}
            await client.call_tool("validate", arguments)  # warm up caches
            validate_ms = await _median_ms(client, "validate", arguments, 20)
            await client.call_tool("memory_recall", {"query": "warm"})
            recall_ms = await _median_ms(
                client, "memory_recall", {"query": "alembic postgres migration"}, 20
            )

            async def one(i: int) -> None:
                result = await client.call_tool(
                    "validate", {"moduleId": f"sleep{i}", "commands": ["sleep 1"]}
                )
                assert not result.is_error

            started = time.perf_counter()
            async with anyio.create_task_group() as group:
                for i in range(8):
                    group.start_soon(one, i)
            concurrent = time.perf_counter() - started

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(f"cold start (spawn, initialize, list tools): {cold:.0f} ms")
    print(f"warm validate, 100 files, no commands:      {validate_ms:.1f} ms (target < 100 ms)")
    print(f"memory_recall over 10,000 entries:          {recall_ms:.1f} ms (target < 100 ms)")
    print(f"8 concurrent validate, each 'sleep 1':      {concurrent:.2f} s (target < 2.5 s)")


if __name__ == "__main__":
    anyio.run(main)
