"""The forge daemon: warm once, then fork a child per command.

Why fork: the child starts with everything the warm-up imported and built
(pydantic models, grammars, plugins) and with nothing a previous command
left behind, because each command runs in its own child, which exits after
it. The parent only accepts connections, checks the caller
(:mod:`forge.daemon.peer`) and its own freshness, and forks; it never reads
what a caller sends, so a slow caller cannot hold up another.

Freshness: the daemon notes the files of every module it loaded and the
folders on ``sys.path``. When any of them changes (forge upgraded, a plugin
installed or edited), it refuses the next caller (who runs the command
itself), starts a fresh daemon in its place and exits.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import io
import json
import locale
import os
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from forge.daemon import address, peer
from forge.daemon.client import (
    ACCEPTED,
    EXITED,
    FORWARDED_SIGNALS,
    GO,
    LIMITS,
    REFUSED,
    Request,
    decode_request,
    receive_exactly,
)

#: How long a caller may take to send its command before its child gives up.
REQUEST_TIMEOUT_S = 10.0
#: How long the parent gives a ``status`` or ``stop`` caller to speak.
CONTROL_TIMEOUT_S = 2.0
#: A request larger than this (arguments and environment) is refused.
MAX_REQUEST_BYTES = 16 * 1024 * 1024
#: Files that warm every grammar and check a ``forge validate --files`` uses.
WARM_UP_FILES = {
    "warm.py": "import os\n\n\ndef f(x: int) -> int:\n    return x + len(os.sep)\n",
    "warm.js": "import { f } from './warm.ts';\nexport const g = (x) => f(x) + 1;\n",
    "warm.ts": "export function f(x: number): number {\n  return x * 2;\n}\n",
    "warm.tsx": "export const View = () => <div>{1}</div>;\n",
}


class _Stopped(BaseException):
    """Raised by SIGTERM or SIGHUP in the daemon's parent, out of a blocking wait."""


def _stop(_signum: int, _frame: object) -> None:
    raise _Stopped


class DaemonError(Exception):
    """The daemon cannot start: another one runs, or its folder is not private."""


def serve(idle_seconds: float) -> None:
    """Warm up, then answer commands until idle for ``idle_seconds``, stopped, or stale.

    Raises :class:`DaemonError` when another daemon holds this address or the
    socket's folder is not private.
    """
    path = socket_folder()
    lock = _single_instance(path)
    listeners: list[socket.socket] = []
    try:
        _warm_up()
        # What the warm-up built stays put: the collector never scans it again,
        # so children do not copy the pages it would touch.
        gc.freeze()
        daemon = _Daemon(idle_seconds)
        listeners += [_listen(path), _listen(address.control_path(path))]
        daemon.inodes = [os.stat(listener.getsockname()).st_ino for listener in listeners]
    except BaseException:
        for listener in listeners:
            listener.close()
        os.close(lock)
        raise
    # Children are reaped by the kernel: the parent never waits for one.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGHUP, _stop)
    restart = False
    try:
        restart = daemon.run(listeners[0], listeners[1], lock)
    except _Stopped:
        pass
    finally:
        for listener, inode in zip(listeners, daemon.inodes, strict=True):
            name = listener.getsockname()
            # A fresh daemon may have bound the path already: remove only our own.
            with contextlib.suppress(OSError):
                if os.stat(name).st_ino == inode:
                    os.unlink(name)
            listener.close()
        os.close(lock)
    if restart:
        start_background(idle_seconds)


class _Daemon:
    """The parent's state: counters for ``status``, the idle clock, what it depends on."""

    def __init__(self, idle_seconds: float) -> None:
        self.idle_seconds = idle_seconds
        self.started = time.time()
        self.last_command = time.monotonic()
        self.served = 0
        self.refused = 0
        self.freshness = _Freshness()
        self.inodes: list[int] = []

    def run(self, commands: socket.socket, control: socket.socket, lock: int) -> bool:
        """Serve until idle or stopped (``False``) or stale (``True``: start a fresh daemon)."""
        while (remaining := self.idle_seconds - (time.monotonic() - self.last_command)) > 0:
            ready, _, _ = select.select([commands, control], [], [], remaining)
            if control in ready and not self._control(control):
                return False
            if commands in ready:
                verdict = self._command(commands, control, lock)
                if verdict is not None:
                    return verdict
        return False

    def _control(self, control: socket.socket) -> bool:
        """Answer one ``status`` or ``stop``; ``False`` to stop. Asking is not using."""
        connection, _ = control.accept()
        with connection:
            if self._refusal(connection) is not None:
                return True
            connection.settimeout(CONTROL_TIMEOUT_S)
            with contextlib.suppress(OSError):
                asked = connection.recv(16).strip()
                info = {
                    "pid": os.getpid(),
                    "started": self.started,
                    "served": self.served,
                    "refused": self.refused,
                    "idle_seconds": self.idle_seconds,
                }
                connection.sendall(json.dumps(info).encode())
                return asked != b"stop"
        return True

    def _command(self, commands: socket.socket, control: socket.socket, lock: int) -> bool | None:
        """Fork a child for one command (``None``), or refuse it; ``True`` when stale."""
        connection, _ = commands.accept()
        with connection:
            if (reason := self._refusal(connection)) is not None:
                _send(connection, REFUSED + reason.encode())
                return None
            if (changed := self.freshness.changed()) is not None:
                _send(connection, REFUSED + f"the daemon is stale ({changed})".encode())
                return True
            self.last_command = time.monotonic()
            try:
                child = os.fork()
            except OSError as exc:
                _send(connection, REFUSED + f"cannot fork ({exc.strerror})".encode())
                return None
            if child == 0:
                _child(connection, (commands, control), lock)
            self.served += 1
            # The parent keeps nothing of the command: the child owns the connection now.
        return None

    def _refusal(self, connection: socket.socket) -> str | None:
        try:
            reason = peer.refusal(connection)
        except OSError as exc:
            reason = f"the caller could not be inspected ({exc.strerror})"
        if reason is not None:
            self.refused += 1
        return reason


def _child(connection: socket.socket, listeners: tuple[socket.socket, ...], lock: int) -> None:
    """Run one command in this forked child, then exit; never returns."""
    code = 2
    try:
        for listener in listeners:
            listener.close()
        os.close(lock)
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
        _send(connection, REFUSED + b"malformed request")
        return 2
    # Nothing runs before the caller's go: a caller that gave up waiting runs
    # the command itself, and this child must not run it too.
    _send(connection, ACCEPTED)
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
    finished.set()
    sys.stdout.flush()
    sys.stderr.flush()
    _send(connection, EXITED + struct.pack(">i", code))
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


def _send(connection: socket.socket, data: bytes) -> None:
    with contextlib.suppress(OSError):
        connection.sendall(data)


def socket_folder() -> str:
    """The socket's path, once its folder exists (0700) and is this user's alone.

    Raises :class:`DaemonError` when the folder is someone else's, a symlink,
    or open to others.
    """
    path = address.socket_path()
    _private_folder(os.path.dirname(path))
    return path


def _private_folder(folder: str) -> None:
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, 0o700)
    if not address.private_dir_ok(folder):
        raise DaemonError(f"{folder} is not a private folder of this user (mode 0700, no symlink)")


def _single_instance(path: str) -> int:
    lock = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(lock)
        raise DaemonError("a forge daemon already runs for this environment") from None
    return lock


def _listen(path: str) -> socket.socket:
    # Holding the lock, any socket left at the path belongs to a daemon that died.
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(64)
    return listener


def _warm_up() -> None:
    """Run a real ``forge validate`` of one file per language, with its output thrown away.

    A real run, rather than a list of imports, warms exactly what commands use:
    modules, model schemas, grammars, queries and plugins.
    """
    from forge.cli.app import run_here

    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="forge-daemon-") as scratch, _quiet():
        for name, text in WARM_UP_FILES.items():
            Path(scratch, name).write_text(text, encoding="utf-8")
        os.environ["FORGE_HOME"] = str(Path(scratch, "home"))
        os.environ["FORGE_CWD"] = scratch
        try:
            os.chdir(scratch)
            run_here(["validate", "--files", *WARM_UP_FILES])
        finally:
            # Fork copies only the calling thread: leave no other behind.
            from forge.languages import oxc

            oxc.release_parser()
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class _Freshness:
    """What the running code depends on, noted at start, checked before every command.

    - the file of every module loaded outside the standard library (forge, its
      dependencies, plugins): an upgrade or an edit of an editable install;
    - every ``sys.path`` folder: installing or removing a distribution adds or
      removes its ``.dist-info`` folder there, which changes the folder.

    A few hundred ``stat`` calls, well under a millisecond: cheaper than the
    entry-point cache's full fingerprint, which also lists each folder.
    """

    def __init__(self) -> None:
        stdlib = sysconfig.get_paths()["stdlib"]
        self.files = {
            file: _mark(file)
            for file in [
                *(entry or "." for entry in sys.path),
                *(getattr(module, "__file__", None) for module in list(sys.modules.values())),
            ]
            if isinstance(file, str) and not file.startswith(stdlib)
        }

    def changed(self) -> str | None:
        """What changed since the daemon started, if anything."""
        for file, mark in self.files.items():
            if _mark(file) != mark:
                return f"{file} changed"
        return None


def _mark(file: str) -> tuple[int, int, int] | None:
    try:
        status = os.stat(file)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size, status.st_ino


def start_background(idle_seconds: float) -> subprocess.Popen[bytes]:
    """Start ``forge daemon start --foreground`` detached from this process and its terminal."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "forge",
            "daemon",
            "start",
            "--foreground",
            "--idle",
            str(idle_seconds),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        # A daemon pins no folder, and ``-m`` puts the working dir on sys.path:
        # the root, rather than a project whose modules could shadow forge's.
        cwd="/",
    )


def ask(control: str) -> dict[str, Any] | None:
    """Send ``status`` or ``stop`` to the running daemon: its state, or ``None`` if none runs."""
    path = address.control_path(address.socket_path())
    if not address.private_dir_ok(os.path.dirname(path)):
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(CONTROL_TIMEOUT_S)
        try:
            connection.connect(path)
            connection.sendall(control.encode() + b"\n")
            answer = b""
            while chunk := connection.recv(1 << 16):
                answer += chunk
        except OSError:
            return None
    try:
        info: dict[str, Any] = json.loads(answer)
    except ValueError:
        return None
    return info
