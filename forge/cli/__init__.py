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

import atexit
import os
import sys
from collections.abc import Sequence

# Not ``typing.TYPE_CHECKING``: every ``forge`` process imports this module, and ``typing``
# would be a tenth of a daemon-handed command's time (as in ``forge/__init__.py``).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

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


#: The code :func:`console` exits with once the interpreter's own exit work is done.
_exit_code: int | None = None


def console() -> NoReturn:
    """Entry point of the ``forge`` console script: :func:`main`, then an exit that skips teardown.

    Tearing the heap down (every module's objects freed one by one) is a
    few milliseconds of a fresh command's own time and serves no purpose at
    that point. Python's exit still does everything else it does: other
    threads are joined and every other ``atexit`` callback runs first (this
    one is registered before any of them, and they run last registered
    first); then the standard streams are flushed and the process exits
    with ``main``'s code. When ``main`` raises, the exit is Python's own.

    A callback registered before this one (a ``.pth`` file's, such as a
    coverage tool saving its data) would run after it, that is never: when
    there is one, or when Python cannot say (``atexit._ncallbacks``, CPython's
    count), the exit is Python's own as well.
    """
    global _exit_code
    count = getattr(atexit, "_ncallbacks", None)
    if count is not None and count() == 0:
        atexit.register(_exit_without_teardown)
    code = main()
    _exit_code = code
    sys.exit(code)


def _exit_without_teardown() -> None:
    """Flush the standard streams and end the process with :data:`_exit_code`."""
    if _exit_code is None:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return  # Python reports a stream it cannot flush, and exits 120, as without forge
    os._exit(_exit_code)


def serve_main() -> int:
    """Entry point of the ``forge-mcp`` console script: the same as ``forge serve``."""
    return main(["serve", *sys.argv[1:]])
