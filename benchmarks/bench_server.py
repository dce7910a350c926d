"""Benchmarks of the MCP server, through a real client over stdio (not timed tests).

Run: ``python benchmarks/bench_server.py`` (with forge installed in that
interpreter's environment). Prints one line per measurement with its target.

Baseline, in the same run: a bare server of the same MCP SDK whose one tool
returns its argument, called by the same client. Its median round trip is
the floor every tool call pays; forge's read-only tools are measured against
it (target: at most 5 ms more than their own work, which for these calls on a
small project is well under a millisecond).

- warm validate: modules of 100 small .py, .js and .ts files, no commands
  (median of 20 calls each; target 50 ms);
- read-only tools: iteration_state get, forge_logs, session_state list
  (median of 30 calls each; target: floor + 5 ms);
- memory_recall over 10,000 entries (median of 20 calls, index warm; target 10 ms);
- validate_plan of a 1,000-module plan (median of 10 calls; target 40 ms);
- 8 concurrent validate calls each running ``sleep 1`` (must overlap).

The MCP cold start is measured by ``benchmarks/cold_start.py``.
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
from memory_speed import write_store  # the same synthetic store, a sibling script

BARE_SERVER = """
from mcp.server.mcpserver import MCPServer

server = MCPServer("bare")


@server.tool()
def echo(text: str) -> str:
    return text


server.run("stdio")
"""


def _params(project: Path, home: Path) -> StdioServerParameters:
    forge = Path(sys.executable).parent / "forge"
    env = {"FORGE_CWD": str(project), "FORGE_HOME": str(home), "PATH": os.environ["PATH"]}
    return StdioServerParameters(command=str(forge), args=["serve"], env=env, cwd=str(project))


def _prepare(project: Path) -> None:
    src = project / "src"
    src.mkdir(parents=True)
    for i in range(100):
        (src / f"mod_{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n", encoding="utf-8")
        (src / f"mod_{i}.js").write_text(
            f"export function f{i}(x) {{\n  return x + {i};\n}}\n", encoding="utf-8"
        )
        (src / f"mod_{i}.ts").write_text(
            f"export function f{i}(x: number): number {{\n  return x + {i};\n}}\n",
            encoding="utf-8",
        )
    memory = project / ".forge" / "memory"
    memory.mkdir(parents=True)
    write_store(memory / "project.jsonl", 10_000)
    modules = [
        {
            "id": f"mod-{i}",
            "title": f"Module {i}",
            "objective": f"Part {i}",
            "files": [f"src/mod_{i}.py", f"tests/test_mod{i}.py"],
            "verify": [f"PYTHONPATH=src python -m pytest -q tests/test_mod{i}.py", "true"],
            "doneWhen": "tests pass",
            "dependsOn": [f"mod-{i - d}" for d in (1, 7) if i - d >= 0 and i % 3],
        }
        for i in range(1000)
    ]
    plans = project / ".forge" / "plans"
    plans.mkdir(parents=True)
    (plans / "big.json").write_text(json.dumps({"modules": modules}), encoding="utf-8")


async def _median_ms(client: Client, tool: str, arguments: dict[str, object], n: int) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        result = await client.call_tool(tool, arguments)
        times.append((time.perf_counter() - started) * 1000)
        assert not result.is_error, result.content
    return statistics.median(times)


async def _floor_ms(scratch: Path) -> float:
    """The median round trip of a bare SDK server's trivial tool: every call's floor."""
    script = scratch / "bare_server.py"
    script.write_text(BARE_SERVER, encoding="utf-8")
    params = StdioServerParameters(command=sys.executable, args=[str(script)])
    async with Client(params) as client:
        await client.call_tool("echo", {"text": "warm"})
        return await _median_ms(client, "echo", {"text": "hello"}, 30)


async def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        project, home = Path(scratch) / "project", Path(scratch) / "home"
        _prepare(project)
        floor = await _floor_ms(Path(scratch))
        lines = [f"bare SDK server, trivial tool (the floor):   {floor:6.2f} ms"]
        async with Client(_params(project, home)) as client:
            tools = await client.list_tools()
            assert len(tools.tools) == 7
            for suffix in ("py", "js", "ts"):
                files = [f"src/mod_{i}.{suffix}" for i in range(100)]
                arguments = {"moduleId": f"bench-{suffix}", "runId": "bench", "files": files}
                await client.call_tool("validate", arguments)  # warm up caches
                ms = await _median_ms(client, "validate", arguments, 20)
                lines.append(
                    f"warm validate, 100 .{suffix} files:            {ms:6.1f} ms (target <= 50 ms)"
                )
            for tool, arguments in (
                ("iteration_state", {"moduleId": "bench-py", "action": "get", "runId": "bench"}),
                ("forge_logs", {"runId": "bench", "limit": 1}),
                ("session_state", {"action": "list"}),
            ):
                await client.call_tool(tool, arguments)
                ms = await _median_ms(client, tool, arguments, 30)
                lines.append(
                    f"{tool + ' (read-only)':43} {ms:6.2f} ms = floor + {ms - floor:5.2f} ms "
                    "(target: floor + 5 ms)"
                )
            await client.call_tool("memory_recall", {"query": "warm"})
            recall = await _median_ms(
                client, "memory_recall", {"query": "alembic postgres migration"}, 20
            )
            lines.append(
                f"memory_recall over 10,000 entries:          {recall:6.1f} ms (target <= 10 ms "
                f"beyond the floor: {recall - floor:5.1f} ms)"
            )
            plan = {"planPath": ".forge/plans/big.json"}
            await client.call_tool("validate_plan", plan)
            plan_ms = await _median_ms(client, "validate_plan", plan, 10)
            lines.append(
                f"validate_plan, 1,000 modules:               {plan_ms:6.1f} ms (target <= 40 ms)"
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
            lines.append(
                f"8 concurrent validate, each 'sleep 1':      {concurrent:6.2f} s (target < 2.5 s)"
            )

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print("\n".join(lines))


if __name__ == "__main__":
    anyio.run(main)
