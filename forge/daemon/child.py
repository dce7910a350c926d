"""A daemon's child: it serves one command, in the caller's place, and exits.

The child reads the caller's request (argv, environment, working dir), takes
over the caller's standard streams and terminal, relays its signals, runs the
command as ``forge ARGV`` would in a fresh process, and sends the exit code.
"""

from __future__ import annotations

import contextlib
import io
import locale
import os
import resource
import signal
import socket
import struct
import sys
import threading
import traceback

from forge.daemon.client import ACCEPTED, GO, LIMITS, REFUSED, Request, decode_request
from forge.daemon.waiter import EXITED, FORWARDED_SIGNALS, receive_exactly

#: How long a caller may take to send its command before its child gives up.
REQUEST_TIMEOUT_S = 10.0


#: A request larger than this (arguments and environment) is refused.
MAX_REQUEST_BYTES = 16 * 1024 * 1024

#: Whether this process is a daemon's child (set once it is forked).
_in_child = False


def in_child() -> bool:
    """Whether this process is a forge daemon's child, running a caller's command."""
    return _in_child


def run_child(
    connection: socket.socket,
    listeners: tuple[socket.socket, ...],
    lock: int,
    siblings: list[int],
) -> None:
    """Run one command in this forked child, then exit; never returns.

    ``siblings`` are the parent's pidfds of the other children: not this one's.
    """
    global _in_child
    _in_child = True
    code = 2
    try:
        for listener in listeners:
            listener.close()
        os.close(lock)
        for pidfd in siblings:
            os.close(pidfd)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        code = _serve_request(connection)
    except BaseException:  # the child must exit here, whatever happened
        with contextlib.suppress(BaseException):
            traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _serve_request(connection: socket.socket) -> int:
    connection.settimeout(REQUEST_TIMEOUT_S)
    request = _read_request(connection, receive_exactly(connection, 4))
    if request is None:
        send(connection, REFUSED + b"malformed request")
        return 2
    # Nothing runs before the caller's go: a caller that gave up waiting runs
    # the command itself, and this child must not run it too.
    send(connection, ACCEPTED)
    go, descriptors, _flags, _address = socket.recv_fds(connection, 1, 4)
    if go != GO or len(descriptors) != 4:
        for fd in descriptors:
            os.close(fd)
        return 0
    _take_over(request, descriptors)
    connection.settimeout(None)
    finished = threading.Event()
    threading.Thread(target=_relay_signals, args=(connection, finished), daemon=True).start()
    code = _run_command([os.fsdecode(arg) for arg in request.argv])
    _finish_threads()
    finished.set()
    sys.stdout.flush()
    sys.stderr.flush()
    send(connection, EXITED + b"%d\n" % (code & 0xFF))
    return code


def _read_request(connection: socket.socket, head: bytes) -> Request | None:
    if len(head) != 4:
        return None
    (size,) = struct.unpack(">I", head)
    if size > MAX_REQUEST_BYTES:
        return None
    body = receive_exactly(connection, size)
    if len(body) != size:
        return None
    try:
        return decode_request(body)
    except ValueError:
        return None


def _take_over(request: Request, descriptors: list[int]) -> None:
    """Become the caller: its stdio, working dir, environment, umask and limits."""
    for target, fd in enumerate(descriptors[:3]):
        os.dup2(fd, target)
        os.close(fd)
    os.fchdir(descriptors[3])
    os.close(descriptors[3])
    os.environb.clear()
    os.environb.update(request.env)
    os.umask(request.umask)
    for name, (soft, hard) in request.limits.items():
        if name in LIMITS:
            with contextlib.suppress(ValueError, OSError):  # cannot raise past the daemon's own
                resource.setrlimit(getattr(resource, name), (soft, hard))
    # The locale was set from the daemon's environment when it started.
    with contextlib.suppress(locale.Error):
        locale.setlocale(locale.LC_CTYPE, "")
    sys.argv = ["forge", *(os.fsdecode(arg) for arg in request.argv)]
    streams = [*request.streams, *[("utf-8", "strict")] * 3][:3]
    sys.stdin = _text_stream(0, "r", streams[0], line_buffering=False)
    sys.stdout = _text_stream(1, "w", streams[1], line_buffering=None)
    sys.stderr = _text_stream(2, "w", streams[2], line_buffering=True)


def _text_stream(
    fd: int, mode: str, settings: tuple[str, str], *, line_buffering: bool | None
) -> io.TextIOWrapper:
    """A standard stream on ``fd`` as Python would have made it for the caller."""
    encoding, errors = settings
    raw = io.FileIO(fd, mode, closefd=False)
    buffer: io.BufferedReader | io.BufferedWriter = (
        io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    )
    return io.TextIOWrapper(
        buffer,
        encoding=encoding,
        errors=errors,
        line_buffering=raw.isatty() if line_buffering is None else line_buffering,
    )


def _relay_signals(connection: socket.socket, finished: threading.Event) -> None:
    """Deliver the caller's forwarded signals; the caller gone means interrupt."""
    while True:
        try:
            data = connection.recv(16)
        except OSError:
            data = b""
        if finished.is_set():
            return
        if not data:
            os.kill(os.getpid(), signal.SIGINT)
            return
        for signum in data:
            if signum in FORWARDED_SIGNALS:
                os.kill(os.getpid(), signum)


def _run_command(argv: list[str]) -> int:
    from forge.cli.app import run_here

    try:
        return run_here(argv)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1


def _finish_threads() -> None:
    """Wait for the command's threads, as an interpreter does before it exits.

    An MCP session's calls still running when its client went away stop in
    their own threads (killing their commands): the child must not exit
    before them, as ``os._exit`` alone would.
    """
    shutdown = getattr(threading, "_shutdown", None)  # what interpreter finalization calls
    if shutdown is not None:
        shutdown()


def send(connection: socket.socket, data: bytes) -> None:
    with contextlib.suppress(OSError):
        connection.sendall(data)
