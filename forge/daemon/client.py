"""The caller's side: hand this ``forge`` command to a running daemon, if there is one.

Standard library only, and nothing is imported when no daemon listens: a
failed ``connect`` on a missing socket costs microseconds.

The exchange, over one Unix stream socket:

1. the caller sends a frame (4-byte big-endian length, then NUL-separated
   fields, see :func:`encode_request`: its ``argv``, environment, ``umask``,
   the encoding of its standard streams, resource limits);
2. the daemon answers ``R`` and a reason (refused: run the command yourself),
   or its child answers ``A`` (accepted); the caller then sends ``G`` (go)
   with four file descriptors attached: stdin, stdout, stderr and its working
   directory. A caller that hears nothing within :data:`HANDSHAKE_TIMEOUT_S`
   closes the socket and runs the command itself: the child, finding no
   ``G``, exits, so a command never runs twice, and a stalled daemon holds
   none of the caller's pipes open (whoever reads them sees their end);
3. once the command has run, the child sends ``X``, the exit status in
   decimal (0-255) and a newline. Meanwhile the caller forwards, one byte each, the signals
   it receives (SIGINT, SIGTERM, SIGHUP); closing the socket cancels the command.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import struct
import sys
from collections.abc import Sequence

from forge.daemon import waiter
from forge.daemon.address import enabled, private_dir_ok, runtime_dir, socket_path
from forge.daemon.waiter import FORWARDED_SIGNALS, await_exit, forwarder, receive_exactly

#: Bumped whenever the exchange above changes; a daemon refuses any other.
PROTOCOL = 2
REFUSED = b"R"
ACCEPTED = b"A"
GO = b"G"
#: Commands that never go to a daemon: the daemon's own, and the web page of
#: ``forge ui`` (a long-lived server that gains nothing from a fork). The MCP
#: server (``forge serve``) does go: its child starts with the SDK and the
#: tools already built, and the caller stays as a thin relay of signals.
OWN_PROCESS = frozenset({"daemon", "ui"})
#: Commands that last as long as their client (an MCP session): once the daemon's
#: child runs one, the caller waits as a POSIX shell (:func:`waiter.become`).
LONG_LIVED = frozenset({"serve"})
#: The resource limits a child takes over from its caller (``ulimit``).
LIMITS = ("RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_AS", "RLIMIT_NOFILE", "RLIMIT_CORE")
#: How long a caller waits to connect, and then for the child's ``A``, before
#: running the command itself (a stopped or overloaded daemon).
CONNECT_TIMEOUT_S = 2.0
HANDSHAKE_TIMEOUT_S = 5.0


class Request:
    """What a caller hands to a daemon: the command and the process it would have run in.

    A plain class: importing dataclasses would cost a daemon's caller 10 ms.
    """

    def __init__(
        self,
        *,
        argv: Sequence[bytes] = (),
        env: dict[bytes, bytes] | None = None,
        umask: int = 0o022,
        streams: Sequence[tuple[str, str]] = (),
        limits: dict[str, tuple[int, int]] | None = None,
    ) -> None:
        self.argv = list(argv)
        self.env = env or {}
        self.umask = umask
        #: (encoding, errors) of stdin, stdout and stderr.
        self.streams = list(streams)
        self.limits = limits or {}


def encode_request(request: Request) -> bytes:
    """``request`` as one frame: a 4-byte length, then NUL-separated fields.

    NUL cannot occur in an argument or an environment entry, and bytes carry
    both exactly (no JSON, whose import alone would cost a daemon's caller more
    than the rest of its work).
    """
    fields = [
        str(PROTOCOL).encode(),
        b"%o" % request.umask,
        ";".join(f"{encoding},{errors}" for encoding, errors in request.streams).encode(),
        ";".join(f"{name}={soft},{hard}" for name, (soft, hard) in request.limits.items()).encode(),
        str(len(request.argv)).encode(),
        *request.argv,
        *(key + b"=" + value for key, value in request.env.items()),
    ]
    body = b"\0".join(fields)
    return struct.pack(">I", len(body)) + body


def decode_request(body: bytes) -> Request:
    """The :class:`Request` in a frame's body; ``ValueError`` when it is not one."""
    fields = body.split(b"\0")
    if len(fields) < 5 or fields[0] != str(PROTOCOL).encode():
        raise ValueError("not a forge daemon request of this protocol")
    count = int(fields[4])
    if not 0 <= count <= len(fields) - 5:
        raise ValueError("argument count out of range")
    streams = [item.split(",", 1) for item in fields[2].decode().split(";") if item]
    limits = {}
    for item in fields[3].decode().split(";"):
        if item:
            name, _, values = item.partition("=")
            soft, _, hard = values.partition(",")
            limits[name] = (int(soft), int(hard))
    return Request(
        argv=fields[5 : 5 + count],
        env=dict(entry.partition(b"=")[::2] for entry in fields[5 + count :] if entry),
        umask=int(fields[1], 8),
        streams=[(encoding, errors) for encoding, errors in streams],
        limits=limits,
    )


def connect() -> socket.socket | None:
    """A connection to this environment's daemon, or ``None`` when none listens."""
    # The folder's owner and mode, then the listener's uid: a caller hands over
    # its environment and terminal, so only to a daemon of its own user.
    if not enabled() or not private_dir_ok(runtime_dir()):
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(CONNECT_TIMEOUT_S)
    try:
        connection.connect(socket_path())
        raw = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:  # no socket, nobody listening, path too long: run in this process
        connection.close()
        return None
    if struct.unpack("3i", raw)[1] != os.getuid():
        connection.close()
        return None
    return connection


def run_in_daemon(argv: Sequence[str]) -> int | None:
    """Run ``forge ARGV`` in the daemon: its exit code, or ``None`` to run it here.

    ``None`` means nothing ran: no daemon, the daemon refused, or this command
    is not one a daemon runs.
    """
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    if command in OWN_PROCESS:
        return None
    connection = connect()
    if connection is None:
        return None
    with connection:
        try:
            accepted = _hand_over(connection, argv)
        except OSError:  # the daemon went away, or did not answer in time
            return None
        if not accepted:
            return None
        if command in LONG_LIVED:
            waiter.become(connection, list(argv))
        received: list[int] = []
        previous = {
            sig: signal.signal(sig, forwarder(connection, received)) for sig in FORWARDED_SIGNALS
        }
        try:
            return await_exit(connection, received)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _hand_over(connection: socket.socket, argv: Sequence[str]) -> bool:
    """Send the command; ``True`` once the daemon's child accepted it and was told to go."""
    descriptors = [_open_or_null(fd) for fd in (0, 1, 2)]
    opened = [fd for fd, standard in zip(descriptors, (0, 1, 2), strict=True) if fd != standard]
    try:
        descriptors.append(os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))
        opened.append(descriptors[-1])
        request = encode_request(
            Request(
                argv=[os.fsencode(arg) for arg in argv],
                env=dict(os.environb),
                umask=_umask(),
                streams=[
                    _stream_settings(stream) for stream in (sys.stdin, sys.stdout, sys.stderr)
                ],
                limits={name: resource.getrlimit(getattr(resource, name)) for name in LIMITS},
            )
        )
        connection.sendall(request)
        connection.settimeout(HANDSHAKE_TIMEOUT_S)
        if receive_exactly(connection, 1) != ACCEPTED:  # refused, or gone: nothing ran
            return False
        socket.send_fds(connection, [GO], descriptors)
    finally:
        for fd in opened:
            os.close(fd)
    connection.settimeout(None)
    return True


def _open_or_null(fd: int) -> int:
    """``fd`` if it is open, else ``/dev/null`` in its place (a closed stdin, say)."""
    try:
        os.fstat(fd)
    except OSError:
        return os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    return fd


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _stream_settings(stream: object) -> tuple[str, str]:
    encoding = getattr(stream, "encoding", None)
    errors = getattr(stream, "errors", None)
    if isinstance(encoding, str) and isinstance(errors, str):
        return encoding, errors
    return "utf-8", "strict"  # a stream replaced by something without encoding
