"""The caller's side once a daemon's child runs its command: pass signals on, then exit as it did.

An MCP session's caller (``forge serve``) waits as long as its client stays,
so, once its child runs, it replaces itself (:func:`become`) with a bare
interpreter (``python -I -S``) that runs :func:`main` over the same socket:
3 MiB of unique memory instead of 5, for each session. So this module imports
C modules only (``_signal``, ``_socket``), never ``socket``, ``signal`` or ``struct``.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # no stubs; signal.py would import enum
import _socket
import os
import sys

# Not ``typing.TYPE_CHECKING``, nor collections.abc at run time: see the module's docstring.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

#: The signals a caller passes on to the child, one byte each (the child's number).
FORWARDED_SIGNALS = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
EXITED = b"X"


def receive_exactly(connection: _socket.socket, size: int) -> bytes:
    """``size`` bytes from ``connection``, or fewer when it closes first."""
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def forwarder(connection: _socket.socket, received: list[int]) -> Callable[[int, object], None]:
    """A signal handler that passes the signal on to the daemon's child."""

    def forward(signum: int, _frame: object) -> None:
        received.append(signum)
        try:  # noqa: SIM105 (contextlib is one import more for the bare interpreter)
            connection.send(bytes([signum]))
        except OSError:
            pass  # the child has gone: its exit (or the lack of one) says the rest

    return forward


def await_exit(connection: _socket.socket, received: list[int]) -> int:
    """The command's exit code, once the daemon's child has run it (it runs: never ``None``)."""
    try:
        answer = receive_exactly(connection, 5)
    except OSError:
        answer = b""
    if len(answer) == 5 and answer[:1] == EXITED:
        return int.from_bytes(answer[1:], "big", signed=True)
    # The child ended without an answer: killed by a signal this caller passed
    # on (exit as a shell reports it), or by something else.
    if received:
        return 128 + received[-1]
    print("forge: error: the forge daemon's worker ended without an answer", file=sys.stderr)
    return 2


def become(connection: _socket.socket, argv: list[str]) -> None:
    """Replace this process with a bare interpreter waiting on ``connection`` (:func:`main`).

    Returns only when the interpreter cannot be run; the caller then waits itself.
    A signal that arrives while the new interpreter starts (a few milliseconds)
    ends it: the child, its caller gone, interrupts its command, as it would
    have on the signal.
    """
    fd = connection.fileno()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = f"import sys; sys.path[:0] = [{root!r}]; import forge.daemon.waiter as w; w.main()"
    sys.stdout.flush()
    sys.stderr.flush()
    os.set_inheritable(fd, True)
    try:
        # ``forge`` and the command stay in the arguments: ``ps`` still shows what runs.
        os.execv(sys.executable, [sys.executable, "-I", "-S", "-c", code, str(fd), "forge", *argv])
    except OSError:
        os.set_inheritable(fd, False)


def main() -> None:
    """Wait on the socket whose descriptor is the first argument; exit with the command's code."""
    connection = _socket.socket(fileno=int(sys.argv[1]))
    received: list[int] = []
    for signum in FORWARDED_SIGNALS:
        _signal.signal(signum, forwarder(connection, received))
    raise SystemExit(await_exit(connection, received))
