"""forge's MCP server against the reference server, in one sitting, through the Python SDK's client.

Run: ``python benchmarks/versus_reference.py [--reference PATH]`` with forge
installed in this interpreter's environment. ``PATH`` is the reference's
``forge-mcp-server`` folder (TT-Wang/forge 0.5.0, its ``node_modules``
installed with ``npm install --omit=dev``); without it, forge alone is measured.
Every figure is a median over stdio, spawn included where it says start:

- server start (spawn, then ``tools/list`` answered): forge cold (no daemon
  runs: a fresh ``FORGE_HOME`` per round, its caches filled by one ``forge
  plugins`` as a user's are, and the daemon that the session starts is
  stopped before the next round) and warm (a daemon runs); target:
  warm at most 100 ms, cold no worse than ``FORGE_DAEMON=0``;
- validate of 100 small files per language (target 50 ms; forge's first call,
  which warms caches, is not timed; the reference is slower by orders of
  magnitude, so it gets ``--reference-rounds`` calls), and what forge-types'
  type check costs the .py call repeated with nothing changed (sessions with it
  on and off, called in turn);
- validate_plan of a 1,000-module plan (target: half the reference's);
- memory_recall over 10,000 entries; 8 concurrent validations of ``sleep 1``;
- the unique memory (USS, ``/proc/PID/smaps_rollup``) of eight concurrent
  sessions, each after one validate and one validate_plan: forge's eight
  daemon-served sessions (their ``forge serve`` relays, the daemon and all its
  children, each counted by its own pages) against eight reference servers
  (target: less). Beside it, the proportional memory (PSS): pages shared by
  several processes (the daemon's warm heap and its children's, an
  interpreter's code) counted once in all, which USS counts nowhere. forge's
  sessions start once forge-types' warm checker listens, as they do after a
  daemon's first minute: whether the sessions' validate reached it would
  otherwise decide whether its language server holds the project (13 MiB or 60).
  ``benchmarks/daemon_memory.py`` breaks forge's figure down by process and mapping.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import anyio
from bench_server import _concurrent_seconds, _median_ms, _prepare
from forge_types.checkers import socket_path
from mcp import Client, StdioServerParameters

FORGE = str(Path(sys.executable).parent / "forge")
ROUNDS = 9
PLAN: dict[str, object] = {"planPath": ".forge/plans/big.json"}


class Server:
    """How to start one server for ``project``: forge's ``forge serve``, or the reference's node."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name, self.command, self.env = name, command, env

    def params(self, project: Path, **env: str) -> StdioServerParameters:
        """The client's parameters for a session in ``project``."""
        return StdioServerParameters(
            command=self.command[0],
            args=self.command[1:],
            env={**self.env, "FORGE_CWD": str(project), **env},
            cwd=str(project),
        )


def _forge_env(home: Path) -> dict[str, str]:
    keep = ("PATH", "HOME", "XDG_RUNTIME_DIR")
    env = {name: value for name, value in os.environ.items() if name in keep}
    env.update({k: v for k, v in os.environ.items() if k.startswith(("PYTHON", "EXP_"))})
    return {**env, "FORGE_HOME": str(home)}


def _daemon(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FORGE, "daemon", *args], env=env, capture_output=True, text=True, check=False, cwd="/"
    )


def _stop_daemon(env: dict[str, str], patience: float = 60.0) -> None:
    """Stop the daemon of ``env``, waiting for one still warming up to answer."""
    deadline = time.monotonic() + patience
    while _daemon(env, "status").returncode != 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    _daemon(env, "stop")


async def _start_ms(params: StdioServerParameters) -> float:
    started = time.perf_counter()
    async with Client(params) as client:
        await client.list_tools()
        return (time.perf_counter() - started) * 1000


async def _starts(project: Path, scratch: Path, reference: Server | None) -> list[str]:
    """Cold and warm starts of forge, in alternating rounds with the reference's."""
    own: list[float] = []
    cold: list[float] = []
    warm: list[float] = []
    ref: list[float] = []
    warm_home = scratch / "warm-home"
    warm_env = _forge_env(warm_home)
    assert _daemon(warm_env, "start").returncode == 0
    try:
        for round_ in range(ROUNDS):
            home = scratch / f"cold-home-{round_}"
            env = _forge_env(home)
            # No daemon runs, but forge has run here before, as on a user's machine: its
            # caches under FORGE_HOME (the plugins' entry points) are warm, as they are for
            # the FORGE_DAEMON=0 start.
            subprocess.run(
                [FORGE, "plugins"], env={**env, "FORGE_DAEMON": "0"}, capture_output=True
            )
            direct = Server("forge", [FORGE, "serve"], {**env, "FORGE_DAEMON": "0"})
            # Which of the two goes first alternates: the second finds the system's caches warmer.
            if round_ % 2:
                own.append(await _start_ms(direct.params(project)))
            cold.append(await _start_ms(Server("forge", [FORGE, "serve"], env).params(project)))
            _stop_daemon(env)
            if not round_ % 2:
                own.append(await _start_ms(direct.params(project)))
            warm.append(
                await _start_ms(Server("forge", [FORGE, "serve"], warm_env).params(project))
            )
            if reference is not None:
                ref.append(await _start_ms(reference.params(project)))
    finally:
        _stop_daemon(warm_env)
    lines = [
        f"start, cold (no daemon; starts one):  forge {statistics.median(cold):7.1f} ms "
        f"(FORGE_DAEMON=0: {statistics.median(own):.1f} ms; target: no worse)",
        f"start, warm (daemon running):         forge {statistics.median(warm):7.1f} ms "
        "(target <= 100 ms)",
    ]
    if ref:
        lines.append(f"start, reference:                     {statistics.median(ref):13.1f} ms")
    return lines


@contextlib.asynccontextmanager
async def _session(server: Server, project: Path) -> AsyncIterator[Client]:
    async with Client(server.params(project)) as client:
        yield client


async def _work(server: Server, project: Path, rounds: int, quick: int) -> list[str]:
    """One server's figures: validate per language, validate_plan, recall, concurrency."""
    lines = []
    async with _session(server, project) as client:
        for suffix in ("py", "js", "ts"):
            files = [f"src/mod_{i}.{suffix}" for i in range(100)]
            arguments: dict[str, object] = {
                "moduleId": f"bench-{suffix}",
                "files": files,
                "commands": [],
            }
            if server.name == "forge":  # the reference keeps nothing warm: its first call counts
                await client.call_tool("validate", arguments)
            ms = await _median_ms(client, "validate", arguments, rounds)
            lines.append(f"validate, 100 .{suffix} files: {ms:10.1f} ms")
        await client.call_tool("validate_plan", PLAN)
        lines.append(
            f"validate_plan, 1,000 modules: {await _median_ms(client, 'validate_plan', PLAN, quick):7.1f} ms"
        )
        query: dict[str, object] = {"query": "alembic postgres migration"}
        await client.call_tool("memory_recall", query)
        lines.append(
            f"memory_recall, 10,000 entries: {await _median_ms(client, 'memory_recall', query, quick):6.1f} ms"
        )
        lines.append(f"8 concurrent validate (sleep 1): {await _concurrent_seconds(client):5.2f} s")
    return [f"{server.name:9} {line}" for line in lines]


async def _type_check_cost(server: Server, project: Path) -> str:
    """What forge-types costs a validate of 100 .py files repeated with nothing changed.

    Two sessions, forge-types on and off, called in turn (a busy machine slows
    both alike): the median of the paired differences is the type check's cost.
    """
    files = [f"src/mod_{i}.py" for i in range(100)]
    arguments: dict[str, object] = {"moduleId": "untyped", "files": files, "commands": []}
    off = Server(server.name, server.command, {**server.env, "FORGE_DISABLE_PLUGINS": "types"})
    on_ms, off_ms = [], []
    async with _session(server, project) as typed, _session(off, project) as untyped:
        for client in (typed, untyped):
            await client.call_tool("validate", arguments)
        for _ in range(20):
            on_ms.append(await _median_ms(typed, "validate", arguments, 1))
            off_ms.append(await _median_ms(untyped, "validate", arguments, 1))
    cost = statistics.median(on - off for on, off in zip(on_ms, off_ms, strict=True))
    return (
        f"forge     validate, 100 .py files, forge-types off: {statistics.median(off_ms):6.1f} ms "
        f"(on: {statistics.median(on_ms):.1f} ms; the type check of an unchanged repeat costs "
        f"{cost:.1f} ms, the median of paired calls)"
    )


def _memory_kib(pid: int) -> tuple[int, int]:
    """Unique (private pages) and proportional memory of ``pid`` in KiB; 0 once it has gone."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text(encoding="utf-8")
    except OSError:
        return 0, 0
    lines = [line.split() for line in text.splitlines()]
    unique = sum(int(line[1]) for line in lines if line[0].startswith("Private_"))
    return unique, sum(int(line[1]) for line in lines if line[0] == "Pss:")


def _tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    found, queue = [], [root]
    while queue:
        pid = queue.pop()
        found.append(pid)
        with contextlib.suppress(OSError):
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="utf-8")
            queue += [int(child) for child in children.split()]
    return found


def _own_children() -> list[int]:
    """The processes this one started (the servers its clients spawned)."""
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(pid) for pid in (task / "children").read_text(encoding="utf-8").split()]
    return found


async def _eight_sessions_mib(
    server: Server, project: Path, roots: Callable[[], list[int]]
) -> tuple[float, float, float]:
    """Sums of the USS and PSS of every process of eight concurrent sessions, each warmed by
    calls, and the USS of forge-types' warm checkers among them."""
    ready, done = anyio.Event(), anyio.Event()
    count = 0

    async def one(index: int) -> None:
        nonlocal count
        async with _session(server, project) as client:
            files = [f"src/mod_{i}.py" for i in range(100)]
            arguments = {"moduleId": f"mem-{index}", "files": files, "commands": []}
            await client.call_tool("validate", arguments)
            await client.call_tool("validate_plan", PLAN)
            count += 1
            if count == 8:
                ready.set()
            await done.wait()

    total = proportional = checkers = 0.0
    async with anyio.create_task_group() as group:
        for index in range(8):
            group.start_soon(one, index)
        await ready.wait()
        await anyio.sleep(0.5)
        pids = {pid for root in roots() for pid in _tree(root)}
        memory = {pid: _memory_kib(pid) for pid in pids}
        total = sum(unique for unique, _ in memory.values()) / 1024
        proportional = sum(pss for _, pss in memory.values()) / 1024
        checkers = sum(memory[pid][0] for pid in pids if _is_type_checker(pid)) / 1024
        done.set()
    return total, proportional, checkers


def _await_warm_checkers(daemon: int, patience: float = 120.0) -> None:
    """Wait until each of the daemon's forge-types warm checkers listens on its socket."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        keys = []
        for pid in _tree(daemon):
            with contextlib.suppress(OSError):
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if b"forge_types.warm" in argv:
                    keys.append(argv[argv.index(b"forge_types.warm") + 2].decode())
        if keys and all(socket_path(key).exists() for key in keys):
            return
        time.sleep(0.2)


def _is_type_checker(pid: int) -> bool:
    """forge-types' warm checker or the language server it runs."""
    with contextlib.suppress(OSError):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes()
        return b"pyrefly" in argv or b"forge_types.warm" in argv or b"tsbuilder.js" in argv
    return False


async def main(reference_path: Path | None, reference_rounds: int) -> None:
    """Measure everything and print it."""
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        # One project each: their .forge/ files differ in shape (histories, logs).
        project, reference_project = scratch / "project", scratch / "reference-project"
        _prepare(project)
        _prepare(reference_project)
        reference = None
        if reference_path is not None:
            node = shutil.which("node") or "node"
            reference = Server(
                "reference",
                [node, str(reference_path.resolve() / "index.mjs")],
                {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/")},
            )
        lines = await _starts(project, scratch, reference)
        home = scratch / "home"
        forge = Server("forge", [FORGE, "serve"], _forge_env(home))
        direct = Server("forge", [FORGE, "serve"], {**forge.env, "FORGE_DAEMON": "0"})
        lines += await _work(direct, project, 20, 10)
        lines.append(await _type_check_cost(direct, project))
        if reference is not None:
            lines += await _work(reference, reference_project, reference_rounds, 10)
        # Started for the project, as a cold ``forge serve`` starts it: its type checker is shared.
        assert _daemon({**forge.env, "FORGE_CWD": str(project)}, "start").returncode == 0
        try:
            daemon = int(_daemon(forge.env, "status").stdout.split("(pid ")[1].split(")")[0])
            _await_warm_checkers(daemon)
            mib, pss, checkers = await _eight_sessions_mib(
                forge, project, lambda: [daemon, *_own_children()]
            )
        finally:
            _stop_daemon(forge.env)
        lines.append(
            f"eight sessions' memory (USS): forge {mib:7.1f} MiB (daemon-served; of which "
            f"{checkers:.1f} MiB forge-types' warm checker and its language server; PSS {pss:.1f} MiB)"
        )
        if reference is not None:
            ref_mib, ref_pss, _ = await _eight_sessions_mib(
                reference, reference_project, _own_children
            )
            lines.append(
                f"eight sessions' memory (USS): reference {ref_mib:7.1f} MiB "
                f"(PSS {ref_pss:.1f} MiB; target: forge less)"
            )
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {ROUNDS} start rounds")
    print("\n".join(lines))


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference", type=Path, help="the reference's forge-mcp-server folder")
    parser.add_argument(
        "--reference-rounds", type=int, default=1, help="validate calls timed per language (slow)"
    )
    return parser.parse_args()


if __name__ == "__main__":
    arguments = _arguments()
    anyio.run(main, arguments.reference, arguments.reference_rounds)
