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
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from typing import Any

from forge.daemon import address, peer
from forge.daemon.child import run_child, send
from forge.daemon.client import (
    REFUSED,
)
from forge.daemon.warm import Freshness, serving_engine, warm_up

#: How long the parent gives a ``status`` or ``stop`` caller to speak.
CONTROL_TIMEOUT_S = 2.0


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
    engine = None
    try:
        warm_up()
        engine = serving_engine()
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
        if engine is not None:
            engine.stop_serving()
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
        if engine is not None:
            engine.stop_serving()
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
        self.freshness = Freshness()
        self.inodes: list[int] = []
        #: A pidfd per child still running (readable once it has ended).
        self.children: list[int] = []

    def run(self, commands: socket.socket, control: socket.socket, lock: int) -> bool:
        """Serve until idle or stopped (``False``) or stale (``True``: start a fresh daemon).

        A child still running (an MCP session lives as long as its client) is
        activity: the idle clock starts when the last one has ended.
        """
        while True:
            remaining = None
            if not self.children:
                remaining = self.idle_seconds - (time.monotonic() - self.last_command)
                if remaining <= 0:
                    return False
            # poll, not select: a pidfd per child may go past select's 1024.
            poll = select.poll()
            for fd in (commands.fileno(), control.fileno(), *self.children):
                poll.register(fd, select.POLLIN)
            ready = {fd for fd, _ in poll.poll(None if remaining is None else remaining * 1000)}
            if control.fileno() in ready and not self._control(control):
                return False
            if commands.fileno() in ready:
                verdict = self._command(commands, control, lock)
                if verdict is not None:
                    return verdict
            for ended in ready.intersection(self.children):
                self.children.remove(ended)
                os.close(ended)
                self.last_command = time.monotonic()

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
                send(connection, REFUSED + reason.encode())
                return None
            if (changed := self.freshness.changed()) is not None:
                send(connection, REFUSED + f"the daemon is stale ({changed})".encode())
                return True
            self.last_command = time.monotonic()
            try:
                child = os.fork()
            except OSError as exc:
                send(connection, REFUSED + f"cannot fork ({exc.strerror})".encode())
                return None
            if child == 0:
                run_child(connection, (commands, control), lock, self.children)
            self.served += 1
            with contextlib.suppress(OSError):  # ended (and reaped) already: nothing to wait for
                self.children.append(os.pidfd_open(child))
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
    # Whose it is, for ``forge daemon stop`` while this one warms up and answers no socket.
    os.ftruncate(lock, 0)
    os.pwrite(lock, str(os.getpid()).encode(), 0)
    return lock


def warming_up() -> int | None:
    """The pid of this environment's daemon while it warms up (its lock taken, no socket
    answering yet), else ``None``: the pid its lock file names, if that process holds the file.
    """
    path = f"{address.socket_path()}.lock"
    if not address.private_dir_ok(os.path.dirname(path)):
        return None
    try:
        with open(path, "rb", opener=_no_follow) as lock_file:
            named = lock_file.read(32).strip()
    except OSError:
        return None
    if not named.isdigit():
        return None
    pid = int(named)
    with contextlib.suppress(OSError):
        for descriptor in os.scandir(f"/proc/{pid}/fd"):
            if os.readlink(descriptor.path) == path:
                return pid
    return None


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)


def _listen(path: str) -> socket.socket:
    # Holding the lock, any socket left at the path belongs to a daemon that died.
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(64)
    return listener


def start_unless_running() -> None:
    """Start the daemon in the background unless one runs, it is switched off, or not Linux.

    Does not wait for it: this process goes on, and later ``forge`` commands
    and MCP sessions turn fast once the daemon has warmed up (a second or two).
    """
    if address.enabled() and ask("status") is None:
        start_background(address.DEFAULT_IDLE_S)


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
        # The project it is started for, whose plugins keep warm resources
        # (forge_engine_started); each command runs with its caller's own environment.
        env=_with_project(dict(os.environ)),
    )


def _with_project(env: dict[str, str]) -> dict[str, str]:
    """``env`` with ``FORGE_CWD`` set to the project the daemon is started from, if any."""
    from forge.config import project_root
    from forge.errors import ConfigError

    with contextlib.suppress(ConfigError):  # started outside a usable project: none
        env["FORGE_CWD"] = str(project_root())
    return env


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
