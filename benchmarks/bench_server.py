"""Benchmarks of the MCP server, through a real client over stdio (not timed tests).

Run: ``python benchmarks/bench_server.py`` (with forge installed in that
interpreter's environment). Prints one line per measurement with its target.
``--only readonly,plan`` runs only the named sections (comma-separated):
``validate``, ``readonly``, ``recall``, ``plan``, ``concurrent``; the floor is
always measured.

Baseline, in the same run: a bare server of the same MCP SDK whose one tool
returns its argument, called by the same client. Its median round trip is
the floor every tool call pays; forge's read-only tools are measured against
it (target: at most 5 ms more than their own work, which for these calls on a
small project is well under a millisecond).

- ``validate``, warm validate: modules of 100 small .py, .js and .ts files, no commands
  (median of 20 calls each; target 50 ms). Measured twice: through the SDK's
  ``Client``, which checks every result against the tool's output schema with
  ``jsonschema`` (a client-side cost of tens of ms for 300 results), and as
  raw JSON-RPC lines over the same stdio pipes, which is what the server costs
  an agent whose client does not re-check (the bare server's echo over the
  same raw pipes is that line's floor);
- ``readonly``, read-only tools: iteration_state get, forge_logs, session_state list
  (30 calls each, alternating with the bare server's trivial call: the median
  of the paired differences; target: floor + 5 ms);
- ``recall``, memory_recall over 10,000 entries (median of 20 calls, index warm; target 10 ms);
- ``plan``, validate_plan of a 1,000-module plan (median of 10 calls; target 40 ms);
- ``concurrent``, 8 concurrent validate calls each running ``sleep 1`` (must overlap).

The MCP cold start is measured by ``benchmarks/cold_start.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
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
    # The server itself is measured: its own process serves the session, and no daemon
    # is started that would outlive the run (benchmarks/versus_reference.py times both).
    env["FORGE_DAEMON"] = "0"
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


def _bare_params(scratch: Path) -> StdioServerParameters:
    """The bare SDK server whose trivial tool's round trip is every call's floor."""
    script = scratch / "bare_server.py"
    script.write_text(BARE_SERVER, encoding="utf-8")
    return StdioServerParameters(command=sys.executable, args=[str(script)])


async def _floor_ms(scratch: Path) -> float:
    """The median round trip of a bare SDK server's trivial tool: every call's floor."""
    async with Client(_bare_params(scratch)) as client:
        await client.call_tool("echo", {"text": "warm"})
        return await _median_ms(client, "echo", {"text": "hello"}, 30)


async def _over_floor_ms(
    client: Client, bare: Client, tool: str, arguments: dict[str, object], n: int
) -> tuple[float, float, float]:
    """``tool``'s median, the floor's median, and the median of their paired differences.

    The floor's trivial call and ``tool`` alternate, so a busy machine slows
    both alike and each difference compares calls made a moment apart.
    """
    tool_times, floor_times = [], []
    for _ in range(n):
        floor_times.append(await _median_ms(bare, "echo", {"text": "hello"}, 1))
        tool_times.append(await _median_ms(client, tool, arguments, 1))
    differences = [t - f for t, f in zip(tool_times, floor_times, strict=True)]
    return (
        statistics.median(tool_times),
        statistics.median(floor_times),
        statistics.median(differences),
    )


class RawWire:
    """A server on stdio pipes, driven with raw JSON-RPC lines: no client library in between."""

    def __init__(self, command: list[str], env: dict[str, str] | None, cwd: Path | None) -> None:
        self.process = subprocess.Popen(
            command,
            env=env,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 0
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench-raw", "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, object]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, object]) -> dict[str, object]:
        """Send one request and read lines until its reply."""
        assert self.process.stdout is not None
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            reply: dict[str, object] = json.loads(self.process.stdout.readline())
            if reply.get("id") == self.next_id:
                return reply

    def median_ms(self, tool: str, arguments: dict[str, object], n: int) -> float:
        """The median round trip of ``n`` calls of ``tool``."""
        times = []
        for _ in range(n):
            started = time.perf_counter()
            reply = self.request("tools/call", {"name": tool, "arguments": arguments})
            times.append((time.perf_counter() - started) * 1000)
            result = reply["result"]
            assert isinstance(result, dict) and not result.get("isError"), reply
        return statistics.median(times)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def _raw_validate_lines(project: Path, home: Path, scratch: Path) -> list[str]:
    """Warm validate of 100 files as raw JSON-RPC, beside the bare server's raw echo."""
    bare_params, forge_params = _bare_params(scratch), _params(project, home)
    bare = RawWire([bare_params.command, *bare_params.args], None, None)
    forge = RawWire(
        [forge_params.command, *forge_params.args],
        {**os.environ, **(forge_params.env or {})},
        project,
    )
    try:
        bare.median_ms("echo", {"text": "warm"}, 3)
        floor = bare.median_ms("echo", {"text": "hello"}, 30)
        lines = [f"raw JSON-RPC floor (bare server's echo):    {floor:6.2f} ms"]
        for suffix in ("py", "js", "ts"):
            files = [f"src/mod_{i}.{suffix}" for i in range(100)]
            arguments = {"moduleId": f"raw-{suffix}", "runId": "bench", "files": files}
            forge.median_ms("validate", arguments, 1)  # warm up caches
            ms = forge.median_ms("validate", arguments, 20)
            lines.append(
                f"warm validate, 100 .{suffix} files, raw JSON-RPC: {ms:6.1f} ms (target <= 50 ms)"
            )
        return lines
    finally:
        bare.close()
        forge.close()


async def _concurrent_seconds(client: Client) -> float:
    """Wall time of 8 validate calls at once, each running ``sleep 1``."""

    async def one(i: int) -> None:
        result = await client.call_tool(
            "validate", {"moduleId": f"sleep{i}", "commands": ["sleep 1"]}
        )
        assert not result.is_error

    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for i in range(8):
            group.start_soon(one, i)
    return time.perf_counter() - started


SECTIONS = ("validate", "readonly", "recall", "plan", "concurrent")


def _sections(argv: list[str] | None = None) -> frozenset[str]:
    """The sections ``--only`` names (default: all)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--only", default=",".join(SECTIONS), help=f"comma-separated sections of {SECTIONS}"
    )
    wanted = frozenset(name.strip() for name in parser.parse_args(argv).only.split(",") if name)
    unknown = wanted - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}; choose from {', '.join(SECTIONS)}")
    return wanted


async def main(sections: frozenset[str]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        project, home = Path(scratch) / "project", Path(scratch) / "home"
        _prepare(project)
        floor = await _floor_ms(Path(scratch))
        lines = [f"bare SDK server, trivial tool (the floor):   {floor:6.2f} ms"]
        async with Client(_params(project, home)) as client:
            tools = await client.list_tools()
            assert {"validate", "validate_plan", "merge_check"} <= {t.name for t in tools.tools}
            for suffix in ("py", "js", "ts") if "validate" in sections else ():
                files = [f"src/mod_{i}.{suffix}" for i in range(100)]
                arguments = {"moduleId": f"bench-{suffix}", "runId": "bench", "files": files}
                await client.call_tool("validate", arguments)  # warm up caches
                ms = await _median_ms(client, "validate", arguments, 20)
                lines.append(
                    f"warm validate, 100 .{suffix} files:            {ms:6.1f} ms (target <= 50 ms)"
                )
            if "validate" in sections:
                lines += _raw_validate_lines(project, home, Path(scratch))
            if "validate" not in sections:  # the run the read-only calls name
                await client.call_tool(
                    "validate",
                    {"moduleId": "bench-py", "runId": "bench", "files": ["src/mod_0.py"]},
                )
            readonly_calls = (
                ("iteration_state", {"moduleId": "bench-py", "action": "get", "runId": "bench"}),
                ("forge_logs", {"runId": "bench", "limit": 1}),
                ("session_state", {"action": "list"}),
            )
            async with Client(_bare_params(Path(scratch))) as bare:
                for tool, arguments in readonly_calls if "readonly" in sections else ():
                    await client.call_tool(tool, arguments)
                    ms, paired_floor, over = await _over_floor_ms(client, bare, tool, arguments, 30)
                    lines.append(
                        f"{tool + ' (read-only)':43} {ms:6.2f} ms = floor + {over:5.2f} ms "
                        f"(target: floor + 5 ms; floor alongside {paired_floor:5.2f} ms)"
                    )
            if "recall" in sections:
                await client.call_tool("memory_recall", {"query": "warm"})
                recall = await _median_ms(
                    client, "memory_recall", {"query": "alembic postgres migration"}, 20
                )
                lines.append(
                    f"memory_recall over 10,000 entries:          {recall:6.1f} ms (target <= 10 ms "
                    f"beyond the floor: {recall - floor:5.1f} ms)"
                )
            if "plan" in sections:
                plan = {"planPath": ".forge/plans/big.json"}
                await client.call_tool("validate_plan", plan)
                plan_ms = await _median_ms(client, "validate_plan", plan, 10)
                lines.append(
                    f"validate_plan, 1,000 modules:               {plan_ms:6.1f} ms (target <= 40 ms)"
                )
            if "concurrent" in sections:
                seconds = await _concurrent_seconds(client)
                lines.append(
                    f"8 concurrent validate, each 'sleep 1':      {seconds:6.2f} s (target < 2.5 s)"
                )

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print("\n".join(lines))


if __name__ == "__main__":
    anyio.run(main, _sections())
