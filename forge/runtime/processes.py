"""A shell command run under supervision: its own process group, a bounded tail, killed whole.

Commands run through the shell in the given folder, in their own process
group. Output is streamed and only a bounded tail is kept (a command that
prints 100 MB costs a few KB); a caller may watch every chunk as it streams
(forge reads test-runner summaries this way, so they count even when they
scroll out of the tail). On timeout the whole group gets SIGTERM, then
SIGKILL, so grandchildren (``sleep 300 &``) and children that ignore SIGTERM
are gone too; anything a command leaves running in its group after it exits
is cleaned up the same way.

A call that is cancelled (:mod:`forge.runtime.cancellation`: the MCP client sent
``notifications/cancelled``, or closed stdin) stops its command the same way
as a timeout, within a tenth of a second.

A child that leaves the group (``setsid``, a daemon's double fork) is found
by the token every command's environment carries (:data:`TOKEN_VARIABLE`,
inherited by all its descendants) in ``/proc/<pid>/environ``, and killed with
the group. Where there is no ``/proc`` (macOS), or for a child that clears its
environment, only the process group is killed (SECURITY.md says so).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import selectors
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from forge.runtime.cancellation import cancelled

#: Bytes of the end of stdout and of stderr kept per command.
TAIL_BYTES = 8 * 1024
#: After the shell exits, how long background children may keep its pipes open.
EXIT_GRACE_SECONDS = 0.5
#: After SIGTERM on timeout, how long the group gets before SIGKILL.
TERM_GRACE_SECONDS = 1.0
#: Set to a fresh random value in each command's environment.
TOKEN_VARIABLE = "FORGE_COMMAND_TOKEN"
_PROC = Path("/proc")
_READ_SIZE = 64 * 1024

#: Called with each chunk of a stream as it arrives.
Watcher = Callable[[bytes], None]


class Tail:
    """The last ``limit`` bytes of a stream and how many bytes it had in all."""

    def __init__(self, limit: int, watch: Watcher | None = None) -> None:
        self.limit = limit
        self.total = 0
        self.buffer = bytearray()
        self._watch = watch

    def add(self, chunk: bytes) -> None:
        """Keep ``chunk`` (its end, past the limit) and show it to the watcher."""
        self.total += len(chunk)
        if self._watch is not None:
            self._watch(chunk)
        self.buffer += chunk
        if len(self.buffer) > self.limit:
            del self.buffer[: len(self.buffer) - self.limit]

    def text(self) -> str:
        """The kept bytes as text (undecodable bytes replaced)."""
        return self.buffer.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class Finished:
    """How a supervised command ended.

    ``exit_code`` is None when it could not start (``start_error`` says why);
    negative when a signal killed it.
    """

    exit_code: int | None
    duration_ms: int
    stdout: Tail
    stderr: Tail
    timed_out: bool = False
    cancelled: bool = False
    start_error: str | None = None


def _leader_exited(pid: int) -> bool:
    # WNOWAIT leaves the leader a zombie, so its process-group id cannot be
    # reused before we have signalled the group.
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _kill_escaped(token: str) -> None:
    """SIGKILL every process still carrying ``token``: the children that left the group.

    Passes go on while one finds something, as a process found in one may have
    forked in between. A process in the middle of ``execve`` shows an empty
    environment for that moment: while a pass saw one (not a kernel thread, nor a
    zombie), it looks again shortly, for :data:`_EXEC_PATIENCE_S` at most, so a
    double-forked daemon caught exec'ing ``setsid`` is not missed.
    """
    needle = b"\0" + f"{TOKEN_VARIABLE}={token}\0".encode()
    patience = time.monotonic() + _EXEC_PATIENCE_S
    while True:
        found, unsure = [], False
        with contextlib.suppress(OSError), os.scandir(_PROC) as entries:
            for entry in entries:
                if not entry.name.isdigit() or int(entry.name) == os.getpid():
                    continue
                try:
                    with (_PROC / entry.name / "environ").open("rb") as handle:
                        environ = b"\0" + handle.read()
                except OSError:  # gone, or another user's
                    continue
                if needle in environ:
                    found.append(int(entry.name))
                elif environ == b"\0" and _may_be_execing(entry.name):
                    unsure = True
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if not found:
            if not unsure or time.monotonic() >= patience:
                return
            time.sleep(0.002)


#: How long :func:`_kill_escaped` keeps looking while a process shows no environment.
_EXEC_PATIENCE_S = 0.05
#: ``PF_KTHREAD`` in ``/proc/<pid>/stat``'s flags: a kernel thread, which has no environment.
_KERNEL_THREAD = 0x00200000


def _may_be_execing(pid: str) -> bool:
    """Whether a process with an empty environment may be one between two programs."""
    try:
        stat = (_PROC / pid / "stat").read_bytes()
    except OSError:
        return False
    fields = stat[stat.rindex(b")") + 2 :].split()  # after the command name, which may hold spaces
    state, flags = fields[0], int(fields[6])
    return state not in (b"Z", b"X") and not flags & _KERNEL_THREAD


def _pump(selector: selectors.BaseSelector, tails: dict[IO[bytes], Tail], wait: float) -> None:
    for key, _ in selector.select(max(wait, 0.0)):
        stream = key.fileobj
        chunk = os.read(key.fd, _READ_SIZE)
        if chunk:
            tails[stream].add(chunk)  # type: ignore[index]
        else:
            selector.unregister(stream)


def supervise(
    command: str,
    cwd: Path,
    timeout: float,
    *,
    stdout: Tail | None = None,
    stderr: Tail | None = None,
) -> Finished:
    """Run ``command`` with ``sh`` in ``cwd`` until it exits, times out or is cancelled.

    Never raises for anything the command does; on any exception of its own
    (Ctrl-C in the CLI) the command's whole group is killed first. ``stdout``
    and ``stderr``: where its streams go (default: a :data:`TAIL_BYTES` tail each).
    """
    started = time.monotonic()
    token = secrets.token_hex(16)
    # Everything that can take a while happens before the child exists: from
    # its start to the ``try`` that kills it on Ctrl-C, nothing may be slow.
    out = stdout if stdout is not None else Tail(TAIL_BYTES)
    err = stderr if stderr is not None else Tail(TAIL_BYTES)
    deadline = started + timeout
    try:
        process = subprocess.Popen(
            command,
            shell=True,
            cwd=cwd,
            env={**os.environ, TOKEN_VARIABLE: token},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the command or cwd
        return Finished(None, 0, out, err, start_error=str(exc))
    except BaseException:
        # Interrupted inside Popen, after the fork: the child is ours to kill,
        # and its token is the only handle on it left.
        _kill_escaped(token)
        raise
    timed_out = False
    stopped = False  # cancelled by the caller
    exited_at: float | None = None
    idle = 0.001
    try:
        assert process.stdout is not None and process.stderr is not None
        tails = {process.stdout: out, process.stderr: err}
        with selectors.DefaultSelector() as selector:
            for stream in tails:
                selector.register(stream, selectors.EVENT_READ)
            while True:
                now = time.monotonic()
                if exited_at is None and _leader_exited(process.pid):
                    exited_at = now
                if exited_at is not None and (
                    not selector.get_map() or now - exited_at >= EXIT_GRACE_SECONDS
                ):
                    break
                if now >= deadline:
                    timed_out = True
                    break
                if cancelled():
                    stopped = True
                    break
                wait = min(deadline - now, 0.1)
                if selector.get_map():
                    _pump(selector, tails, wait)
                else:
                    # Output closed, leader not gone yet: usually it is exiting right
                    # now, so look again soon, then back off for a long-running one.
                    time.sleep(min(wait, idle))
                    idle = min(idle * 2, 0.1)
            if timed_out or stopped:
                _signal_group(process.pid, signal.SIGTERM)
                term_deadline = time.monotonic() + TERM_GRACE_SECONDS
                while not _leader_exited(process.pid) and time.monotonic() < term_deadline:
                    _pump(selector, tails, 0.05)
            # Whatever is left of the group (background children, children that
            # ignored SIGTERM) goes now, while the unreaped leader pins the pgid.
            _signal_group(process.pid, signal.SIGKILL)
            _kill_escaped(token)
            drain_deadline = time.monotonic() + 0.2
            while selector.get_map() and time.monotonic() < drain_deadline:
                _pump(selector, tails, 0.05)
    except BaseException:
        # Ctrl-C in the CLI, or a bug: the command must not outlive forge.
        _signal_group(process.pid, signal.SIGKILL)
        _kill_escaped(token)
        process.wait()
        raise
    exit_code = process.wait()
    for stream in tails:
        stream.close()
    duration_ms = round((time.monotonic() - started) * 1000)
    return Finished(exit_code, duration_ms, out, err, timed_out=timed_out, cancelled=stopped)
