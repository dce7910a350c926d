"""The caller's side once a daemon's child runs its command: pass signals on, then exit as it did.

An MCP session's caller (``forge serve``) waits as long as its client stays,
so, once its child runs, it replaces itself (:func:`become`) with a POSIX shell
that does the same over the same socket (:data:`SHELL_WAITER`): 0.1-0.3 MiB of
unique memory instead of the 2.8 of the smallest Python interpreter, for each
session. The module itself is imported by every ``forge`` command before
anything else, so it imports C modules only (``_signal``, ``_socket``).
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
#: The child's last word: ``X``, the exit status in decimal (0-255), a newline.
EXITED = b"X"
#: The shell an MCP session's caller waits as (POSIX: dash, bash, busybox ash).
SHELL = "/bin/sh"
#: What it runs, ``{fd}`` being the socket: each forwarded signal is passed on as its
#: byte (a write to a child gone fails quietly), the child's ``X`` line gives the exit
#: status; without one, a signal passed on gives ``128 + signal``, else an error (2).
#: ``read`` returns early when a trapped signal arrives: the loop reads on unless no
#: signal came (the end of the socket).
SHELL_WAITER = """trap '' PIPE
n=0
last=0
{traps}
while :; do
  seen=$n
  reply=
  if IFS= read -r reply <&{fd}; then break; fi
  [ "$seen" = "$n" ] && break
done
case $reply in
X[0-9] | X[0-9][0-9] | X[0-9][0-9][0-9]) exit "${{reply#X}}" ;;
esac
[ "$n" -gt 0 ] && exit $((128 + last))
echo "forge: error: the forge daemon's worker ended without an answer" >&2
exit 2
"""
_SIGNAL_NAMES = {_signal.SIGINT: "INT", _signal.SIGTERM: "TERM", _signal.SIGHUP: "HUP"}
#: The socket's descriptor in the shell: redirections take one digit.
_MAX_SHELL_FD = 9


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
    answer = b""
    try:
        while not answer.endswith(b"\n") and len(answer) < 5:
            chunk = connection.recv(5 - len(answer))
            if not chunk:
                break
            answer += chunk
    except OSError:
        pass
    code = answer[1:].strip()
    if answer[:1] == EXITED and answer.endswith(b"\n") and code.isdigit():
        return int(code)
    # The child ended without an answer: killed by a signal this caller passed
    # on (exit as a shell reports it), or by something else.
    if received:
        return 128 + received[-1]
    print("forge: error: the forge daemon's worker ended without an answer", file=sys.stderr)
    return 2


def become(connection: _socket.socket, argv: list[str]) -> None:
    """Replace this process with a shell waiting on ``connection`` (:data:`SHELL_WAITER`).

    Returns only when the shell cannot be run; the caller then waits itself.
    A signal that arrives while the shell starts (a millisecond) ends it: the
    child, its caller gone, interrupts its command, as it would have on the signal.
    """
    fd = os.dup(connection.fileno())  # the lowest free descriptor: 3 unless others are open
    if fd > _MAX_SHELL_FD:
        os.close(fd)
        return
    script = shell_script(fd)
    sys.stdout.flush()
    sys.stderr.flush()
    os.set_inheritable(fd, True)
    try:
        # ``forge`` and the command are the script's $0 and arguments: ``ps`` still shows them.
        os.execv(SHELL, ["sh", "-c", script, "forge", *argv])
    except OSError:
        os.close(fd)


def shell_script(fd: int) -> str:
    """:data:`SHELL_WAITER` for the socket on descriptor ``fd`` (0-9)."""
    traps = "\n".join(
        f"trap 'n=$((n + 1)); last={signum}; printf \"\\{signum:03o}\" >&{fd} 2>/dev/null' "
        f"{_SIGNAL_NAMES[signum]}"
        for signum in FORWARDED_SIGNALS
    )
    return SHELL_WAITER.format(fd=fd, traps=traps)
