"""Benchmark fresh processes: ``forge validate`` of one file, ``forge plan check``, MCP start.

Run from a checkout with forge installed (``pip install -e '.[dev]'``)::

    python benchmarks/cold_start.py            # 21 rounds
    python benchmarks/cold_start.py --runs 41  # steadier figures

Each round starts every command once, interleaved, so a busy machine slows
them alike; medians and minimums are printed. Baselines, measured in the same
rounds: ``python -c pass`` for the CLI commands, and a process that only
imports the MCP SDK's server (``from mcp.server.mcpserver import MCPServer``)
for the MCP cold start. Targets:

- ``forge validate --files one.py`` (a fresh process checking one file):
  at most 150 ms; measured in its own process (``FORGE_DAEMON=0``) and handed
  to a running ``forge daemon`` (started for the run, stopped after);
- MCP cold start (spawn ``forge serve``, ``initialize``, ``tools/list``
  answered): at most the SDK import plus 150 ms.

Python's bytecode cache is on, as for users (a first run, not timed, writes it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from daemon import running_daemon

PYTHON = sys.executable
DAEMON = "... with forge daemon running"
FORGE = shutil.which("forge", path=str(Path(PYTHON).parent)) or "forge"

MCP_REQUESTS = b"".join(
    json.dumps(message).encode() + b"\n"
    for message in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    )
)


def run_command(command: list[str], env: dict[str, str], cwd: Path) -> Callable[[], None]:
    """A round's action: run ``command`` to its end."""

    def action() -> None:
        subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=False)

    return action


def mcp_start(env: dict[str, str], cwd: Path) -> Callable[[], None]:
    """A round's action: spawn ``forge serve``, initialize, wait for the tools/list answer."""

    def action() -> None:
        process = subprocess.Popen(
            [FORGE, "serve"],
            env=env,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(MCP_REQUESTS)
        process.stdin.flush()
        for line in process.stdout:
            if json.loads(line).get("id") == 2:
                break
        process.stdin.close()
        process.wait()

    return action


def main() -> None:
    """Time every command in a temporary project."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="rounds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch).resolve()
        (project / "one.py").write_text("def f(x):\n    return x + 1\n", encoding="utf-8")
        plan = {
            "modules": [
                {
                    "id": f"m{i}",
                    "title": f"Module {i}",
                    "objective": "o",
                    "files": [f"src/m{i}.py"],
                    "verify": ["true"],
                    "doneWhen": "done",
                    "dependsOn": [f"m{i - 1}"] if i else [],
                }
                for i in range(10)
            ]
        }
        (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
        daemon_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        daemon_env |= {"FORGE_CWD": str(project), "FORGE_HOME": str(project / "home")}
        env = daemon_env | {"FORGE_DAEMON": "0"}
        actions = {
            "python -c pass": run_command([PYTHON, "-c", "pass"], env, project),
            "forge validate --files one.py": run_command(
                [FORGE, "validate", "--files", "one.py"], env, project
            ),
            DAEMON: run_command([FORGE, "validate", "--files", "one.py"], daemon_env, project),
            "forge plan check (10 modules)": run_command(
                [FORGE, "plan", "check", "plan.json"], env, project
            ),
            "import the MCP SDK server": run_command(
                [PYTHON, "-c", "from mcp.server.mcpserver import MCPServer"], env, project
            ),
            "forge serve to tools/list": mcp_start(env, project),
        }
        timings: dict[str, list[float]] = {name: [] for name in actions}
        with running_daemon(FORGE, daemon_env, project):
            for action in actions.values():  # writes bytecode caches and forge's own caches
                action()
            for _ in range(args.runs):
                for name, action in actions.items():
                    started = time.perf_counter()
                    action()
                    timings[name].append((time.perf_counter() - started) * 1000)
    median = {name: statistics.median(values) for name, values in timings.items()}
    best = {name: min(values) for name, values in timings.items()}
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.runs} rounds")
    for name in actions:
        print(f"  {name:32} median {median[name]:7.1f} ms   min {best[name]:7.1f} ms")
    python, sdk = "python -c pass", "import the MCP SDK server"
    for name, target in (
        ("forge validate --files one.py", "<= 150 ms"),
        (DAEMON, "<= 150 ms"),
        ("forge plan check (10 modules)", ""),
    ):
        print(
            f"  {name}: {median[name] - median[python]:6.1f} ms over python -c pass "
            f"(ratio {median[name] / median[python]:4.1f}x) {target}"
        )
    serve = "forge serve to tools/list"
    print(
        f"  MCP cold start: SDK import + {median[serve] - median[sdk]:6.1f} ms "
        f"(ratio {median[serve] / median[sdk]:4.2f}x; target: + 150 ms at most)"
    )


if __name__ == "__main__":
    main()
