"""The ``forge`` command: a thin adapter over the engine, one module per subcommand.

Each subcommand module defines ``register(subparsers)`` and a ``run(args)``
that returns the exit code; heavy imports happen inside ``run`` so that
``forge plan check`` (started once per commit) stays fast and ``mcp`` is only
imported by ``forge serve``. :mod:`forge.cli.app` parses and dispatches.

This module is imported by every ``forge`` process before it knows whether a
daemon will run the command (:mod:`forge.daemon`), so it imports nothing more.

Exit codes: 0 success, 1 the thing checked failed, 2 usage or configuration error.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

#: Subcommand modules under ``forge.cli``, in the order ``forge --help`` lists them.
SUBCOMMANDS = (
    "validate",
    "reset",
    "plan",
    "merge",
    "report",
    "status",
    "logs",
    "memory",
    "sessions",
    "ui",
    "plugins",
    "hook",
    "serve",
    "daemon",
)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``forge`` console script: in a running daemon if there is one, else here.

    The daemon (``forge daemon start``) runs the command in a warm forked
    child with this process's stdio, working dir and environment; the result
    is the same, only sooner (see :mod:`forge.daemon`).
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    from forge.daemon.address import may_have_daemon

    code = None
    if may_have_daemon():  # else not even the socket module is imported
        from forge.daemon.client import run_in_daemon

        code = run_in_daemon(argv)
    if code is None:
        from forge.cli.app import run_here

        code = run_here(argv)
    return code


def serve_main() -> int:
    """Entry point of the ``forge-mcp`` console script: the same as ``forge serve``."""
    return main(["serve", *sys.argv[1:]])
