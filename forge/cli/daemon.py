"""``forge daemon``: a warm process that makes every later ``forge`` command start fast.

A fresh ``forge`` process spends ~0.3 s importing and building before it
checks anything; with a daemon running, ``forge validate``, ``forge hook``
and the rest connect to it and run in a forked, already-warm child (see
:mod:`forge.daemon`). Nothing else changes: same output, same exit codes,
same files written.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from typing import Any

from forge.cli.subcommand import add_actions, add_command, out
from forge.daemon.address import DEFAULT_IDLE_S
from forge.errors import ConfigError

USAGE = """\
a warm background process that makes forge commands start fast

Start, stop or ask about the forge daemon, a warm process that runs every later forge
command of this environment in a forked child.

examples:
  forge daemon start              # in the background; exits after 30 min unused
  forge daemon start --idle 600   # ... after 10 min unused
  forge daemon status             # running? since when, how many commands served
  forge daemon stop
  FORGE_DAEMON=0 forge validate --files a.py   # this command in its own process

Claude Code: the forge plugin starts it at SessionStart, so every hook is warm;
forge serve starts it too, so every later MCP session starts warm.
The daemon serves only this user's processes with the same Python environment,
PYTHON* variables and FORGE_HOME, in the same namespaces and under the same confinement (a
sandboxed caller runs forge in its own process). Linux only.

exit codes: 0 done (status: running), 1 status: not running, 2 usage error or
the daemon cannot start
"""

#: How long ``forge daemon start`` waits for the daemon to answer.
START_TIMEOUT_S = 30.0


def register(subparsers: Any) -> None:
    """Add ``forge daemon`` (start, stop, status) to the parser."""
    actions = add_actions(add_command(subparsers, "daemon", USAGE))
    start = actions.add("start", "start it (in the background)", run=run_start)
    start.add_argument(
        "--idle",
        type=_seconds,
        default=float(DEFAULT_IDLE_S),
        metavar="SECONDS",
        help="exit after this long without a command (default 1800)",
    )
    start.add_argument(
        "--foreground", action="store_true", help="run in this process, until stopped"
    )
    actions.add("stop", "stop it", run=run_stop)
    actions.add(
        "status", "say whether it runs, since when, and how many commands it served", run=run_status
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 7 * 24 * 3600:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 604800 seconds: {text}")
    return value


def _supported() -> None:
    from forge.daemon import address

    if sys.platform != "linux":
        raise ConfigError(f"the daemon runs on Linux only (this is {sys.platform})")
    if not address.enabled():
        raise ConfigError(f"{address.SWITCH_VARIABLE} switches the daemon off: unset it to use one")


def run_start(args: argparse.Namespace) -> int:
    """Start the daemon: in the background (wait until it answers), or in this process."""
    from forge.daemon import server

    _supported()
    if args.foreground:
        try:
            server.serve(args.idle)
        except server.DaemonError as exc:
            raise ConfigError(str(exc)) from None
        return 0
    if (info := server.ask("status")) is not None:
        out(f"forge daemon: already running (pid {info['pid']})")
        return 0
    try:
        server.socket_folder()
    except server.DaemonError as exc:
        raise ConfigError(str(exc)) from None
    process = server.start_background(args.idle)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if (info := server.ask("status")) is not None:
            # Ours, or one that won a race with it (ours then exits at once).
            verb = "running" if info["pid"] == process.pid else "already running"
            out(
                f"forge daemon: {verb} (pid {info['pid']}), exits after {info['idle_seconds']:g} s unused"
            )
            return 0
        time.sleep(0.05)
    process.kill()
    raise ConfigError(
        f"the daemon did not answer within {START_TIMEOUT_S:g} s: "
        "run 'forge daemon start --foreground' to see why"
    )


def run_stop(args: argparse.Namespace) -> int:
    """Stop the daemon, if one runs (commands it is running finish on their own)."""
    from forge.daemon import server

    _supported()
    if server.ask("stop") is None:
        pid = server.warming_up()
        if pid is None:
            out("forge daemon: not running")
            return 0
        # Before its warm-up ends it answers no socket: a signal stops it (as it does after).
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + START_TIMEOUT_S
        while server.warming_up() == pid and time.monotonic() < deadline:
            time.sleep(0.05)
    deadline = time.monotonic() + START_TIMEOUT_S
    while server.ask("status") is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    out("forge daemon: stopped")
    return 0


def run_status(args: argparse.Namespace) -> int:
    """Say whether the daemon runs: exit 0 if it does, 1 if not."""
    from forge.daemon import address, server

    _supported()
    info = server.ask("status")
    if info is None:
        out("forge daemon: not running")
        return 1
    since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(info["started"]))
    out(
        f"forge daemon: running (pid {info['pid']}) since {since}, "
        f"{info['served']} connections served, {info['refused']} callers refused, "
        f"socket {address.socket_path()}"
    )
    return 0
