"""Where the memory of eight daemon-served MCP sessions goes, by process kind and mapping.

Run: ``python benchmarks/daemon_memory.py`` with forge installed in this
interpreter's environment. The same eight sessions as the memory line of
``benchmarks/versus_reference.py`` (each: one validate of 100 .py files, one
validate_plan of 1,000 modules, a daemon started for the project whose
forge-types warm checker listens), measured at three moments: after
``initialize``, after the validate, after the validate_plan. For each moment it
prints the unique memory (USS: the ``Private_*`` lines of
``/proc/PID/smaps_rollup``) per process kind (the daemon, its forked session
children, the ``forge serve`` relays, forge-types' warm checker, pyrefly's
language server) and, for the daemon and the first child, the private pages
by mapping: ``[heap]``, anonymous mappings (Python's obmalloc arenas, other
malloc arenas, thread stacks), files.

What it showed (issue 42, Python 3.11, eight sessions, 375 MiB before the relay
became a shell and the daemon read the plan; 327 after):

- a session's child, ~29 MiB: ~19 of pages copied from the daemon, ~10 of its
  own. Of the copied pages two in three differ from the daemon's by at most three
  8-byte words, a third by none at all: reference counts (and 3.11's adaptive
  bytecode) written by merely using an object, on pages of strings, code objects,
  dicts and tuples spread over the whole warm heap. 11-12 MiB are copied before
  the first tool call (the SDK's session, anyio, the engine); a validate of 100
  files adds ~12 (5.6 copied; of its own, 3.4 of Python objects it keeps: parse
  cache, results, status lines; the rest allocator slack), a validate_plan ~4.8,
  nearly all of it obmalloc pools left free in arenas a few survivors keep
  (``sys._debugmallocstats``: 281 unused pools);
- the daemon, ~24 MiB: mostly the originals of pages every child copied;
- pyrefly's language server, 62 MiB once it has checked a file (13 before):
  typeshed's builtins, whatever the file (1 file or 100: the same);
- forge-types' warm checker, 10 MiB: its Python imports (the modules it needs
  alone: 6);
- the eight relays, 0.1 MiB each (a POSIX shell; a bare interpreter was 2.8).

Tried and measured, no gain beyond noise (±3 MiB): ``MALLOC_ARENA_MAX`` 1 or 2,
``gc.disable()`` through the warm-up or ``gc.collect()`` before ``gc.freeze()``
and a freeze before each fork, ``malloc_trim(0)`` after each call (-1 MiB a
child), ``PYTHONMALLOC=malloc`` (+4 a child), pyrefly with one thread or
jemalloc returning memory at once, the daemon's engine reused by its children
(-0.4 a child), the plan checked in the daemon before forking (+1 a child).

Tried and measured, not kept: each validate, validate_plan and merge_check of a
daemon-served session in a process forked for that call, answering through a
pipe (progress, result or exception; cancellation kills it). Eight sessions
went from 319 to 240 MiB (the reference: 196), since a child kept ~18 MiB, not
~28: the ~12 copied by ``initialize`` stay, and handling a call's result on the
session's side copies ~4 more. Dropping everything else a call copies would
still leave ~192. The price was time in every daemon-served call: a call's
process starts without what the session's earlier calls kept (the parse cache
above all) and pays the fork (~4.5 ms), so a validate of 100 files went from
41/33/30 to 79/86/70 ms (py/js/ts) and validate_plan of 1,000 modules from 21
to 40 ms. pyrefly's language server, driven as forge-types drives it, holds
70-72 MiB after one check with one thread or ``MALLOC_ARENA_MAX=1`` alike; a
configuration that leaves the interpreter's site-packages out gives 59-60, but
it changes what is checked.
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import anyio
from bench_server import _prepare
from versus_reference import (
    FORGE,
    PLAN,
    Server,
    _await_warm_checkers,
    _daemon,
    _forge_env,
    _memory_kib,
    _own_children,
    _session,
    _stop_daemon,
    _tree,
)

MOMENTS = ("initialize", "validate", "validate_plan")


def _kind(pid: int, daemon: int, relays: set[int]) -> str:
    """What ``pid`` is among a daemon-served session's processes."""
    if pid == daemon:
        return "daemon"
    if pid in relays:
        return "relay"
    with contextlib.suppress(OSError):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes()
        if b"forge_types.warm" in argv:
            return "warm checker"
        if b"pyrefly" in argv:
            return "pyrefly lsp"
        if b"tsbuilder.js" in argv:
            return "tsbuilder"
        if b"daemon" in argv:
            return "child"
    return "other"


def _by_mapping(pid: int) -> dict[str, list[int]]:
    """Private clean and dirty KiB of ``pid`` per kind of mapping."""
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    name = "?"
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps").read_text(encoding="utf-8").splitlines():
            head = line.split(maxsplit=5)
            if "-" in head[0] and not head[0].endswith(":"):
                path = head[5] if len(head) > 5 else ""
                if not path:
                    name = "anonymous"
                elif path.startswith("["):
                    name = path
                else:
                    name = "file " + Path(path).name
            elif head[0] == "Private_Clean:":
                totals[name][0] += int(head[1])
            elif head[0] == "Private_Dirty:":
                totals[name][1] += int(head[1])
    return totals


def _report(moment: str, daemon: int, relays: set[int]) -> None:
    pids = {pid for root in (daemon, *relays) for pid in _tree(root)}
    kinds: dict[str, list[int]] = defaultdict(list)
    for pid in pids:
        kinds[_kind(pid, daemon, relays)].append(pid)
    uss = {pid: _memory_kib(pid)[0] for pid in pids}
    print(f"\nafter {moment}: USS {sum(uss.values()) / 1024:.1f} MiB in all")
    for kind, members in sorted(kinds.items()):
        each = " ".join(f"{uss[pid] / 1024:.1f}" for pid in sorted(members))
        print(f"  {kind:13} {sum(uss[p] for p in members) / 1024:7.1f} MiB  ({each})")
    for kind in ("daemon", "child"):
        if kinds.get(kind):
            pid = min(kinds[kind])
            mappings = sorted(_by_mapping(pid).items(), key=lambda item: -sum(item[1]))
            shown = ", ".join(
                f"{name} {clean / 1024:.1f}+{dirty / 1024:.1f}"
                for name, (clean, dirty) in mappings[:8]
                if clean + dirty >= 100
            )
            print(f"    {kind} {pid} private clean+dirty MiB: {shown}")


async def _sessions(server: Server, project: Path, daemon: int) -> None:
    """Eight sessions, in step: all reach a moment, it is measured, they go on."""
    reached = {moment: anyio.Event() for moment in MOMENTS}
    measured = {moment: anyio.Event() for moment in MOMENTS}
    counts = dict.fromkeys(MOMENTS, 0)
    #: Whether each session's type check was the warm checker's answer.
    warm: set[str] = set()

    async def arrive(moment: str) -> None:
        counts[moment] += 1
        if counts[moment] == 8:
            reached[moment].set()
        await measured[moment].wait()

    async def one(index: int) -> None:
        async with _session(server, project) as client:
            await arrive("initialize")
            files = [f"src/mod_{i}.py" for i in range(100)]
            arguments = {"moduleId": f"mem-{index}", "files": files, "commands": []}
            result = await client.call_tool("validate", arguments)
            warm.update(
                str(item.get("warm"))
                for item in (result.structured_content or {}).get("results", [])
                if item.get("type") == "type_check"
            )
            await arrive("validate")
            await client.call_tool("validate_plan", PLAN)
            await arrive("validate_plan")

    async with anyio.create_task_group() as group:
        for index in range(8):
            group.start_soon(one, index)
        for moment in MOMENTS:
            await reached[moment].wait()
            await anyio.sleep(0.5)
            _report(moment, daemon, set(_own_children()))
            if moment == "validate":
                print(f"  (the sessions' type checks answered warm: {', '.join(sorted(warm))})")
            measured[moment].set()


async def main() -> None:
    """Start a daemon for a prepared project, run the sessions, stop it."""
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder) / "project"
        _prepare(project)
        forge = Server("forge", [FORGE, "serve"], _forge_env(Path(folder) / "home"))
        # As in versus_reference.py, a direct server has checked the project's types once
        # before: the warm checker answers only for a configuration the command line read.
        direct = Server("forge", forge.command, {**forge.env, "FORGE_DAEMON": "0"})
        async with _session(direct, project) as client:
            files = [f"src/mod_{i}.py" for i in range(100)]
            await client.call_tool("validate", {"moduleId": "cold", "files": files, "commands": []})
        assert _daemon({**forge.env, "FORGE_CWD": str(project)}, "start").returncode == 0
        try:
            daemon = int(_daemon(forge.env, "status").stdout.split("(pid ")[1].split(")")[0])
            _await_warm_checkers(daemon)
            _report("the daemon's start (no session)", daemon, set())
            await _sessions(forge, project, daemon)
        finally:
            _stop_daemon(forge.env)
    print(f"\npython {sys.version.split()[0]}")


if __name__ == "__main__":
    anyio.run(main)
