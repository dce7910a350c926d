"""Running a checker: its own process group, a timeout, nothing left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from forge.runtime.cancellation import cancelled
from forge_types.diagnostics import CheckerFailed, CheckerTimedOut

#: Bytes of a checker's output read at most (a project with very many diagnostics).
MAX_OUTPUT = 64 * 1024 * 1024
#: Seconds between looks at whether the call was cancelled while a checker runs.
CANCEL_POLL = 0.05
#: Bytes read from a pipe at a time.
READ_SIZE = 1024 * 1024
#: Seconds a killed checker's group is given to be gone and its pipes to close.
KILLED_GRACE = 5.0


@dataclass(frozen=True)
class Finished:
    """A checker's exit status and output."""

    returncode: int
    stdout: str
    stderr: str


def run_tool(
    argv: Sequence[str], cwd: Path, timeout: float, env: dict[str, str] | None = None
) -> Finished:
    """Run ``argv`` in ``cwd`` in a process group of its own; the whole group dies on timeout.

    Its output is read as it comes, never more than :data:`MAX_OUTPUT` of each stream
    held: a checker that prints without end is killed, not read until memory runs out.
    Raises :class:`CheckerFailed` when it cannot start or prints more than
    :data:`MAX_OUTPUT` on stdout, :class:`CheckerTimedOut` when it takes longer than
    ``timeout``.
    """
    try:
        process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
    except OSError as exc:
        raise CheckerFailed(f"cannot start {Path(argv[0]).name}: {exc.strerror or exc}") from None
    assert process.stdout is not None and process.stderr is not None
    out = _Reader(process.stdout, on_overflow=lambda: _kill_group(process))
    err = _Reader(process.stderr, keep_tail=True)
    try:
        deadline = time.monotonic() + timeout
        for reader in (out, err):
            while reader.is_alive() and (left := deadline - time.monotonic()) > 0:
                reader.join(min(left, CANCEL_POLL))
                if cancelled():  # the call was cancelled or ended early: so does the checker
                    raise CheckerFailed(f"{Path(argv[0]).name} stopped: the call was cancelled")
        if out.is_alive() or err.is_alive():
            raise CheckerTimedOut(f"{Path(argv[0]).name} took longer than {timeout:g} s")
        if out.overflowed:
            limit = MAX_OUTPUT // (1024 * 1024)
            raise CheckerFailed(f"{Path(argv[0]).name} printed more than {limit} MiB; stopped")
        process.wait(timeout=max(deadline - time.monotonic(), 0.1))
        _close(out, err)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        _finish(process, out, err)
        raise CheckerTimedOut(f"{Path(argv[0]).name} took longer than {timeout:g} s") from None
    except BaseException:
        _kill_group(process)
        _finish(process, out, err)
        raise
    return Finished(
        process.returncode,
        bytes(out.data).decode("utf-8", errors="replace"),
        bytes(err.data).decode("utf-8", errors="replace"),
    )


class _Reader(threading.Thread):
    """Reads one stream to its end, holding at most :data:`MAX_OUTPUT` of it.

    ``keep_tail``: hold the last bytes (the end of stderr is where the reason is);
    otherwise the first ones, and ``on_overflow`` is called once when more come.
    """

    def __init__(
        self,
        stream: IO[bytes],
        *,
        keep_tail: bool = False,
        on_overflow: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.keep_tail = keep_tail
        self.on_overflow = on_overflow
        self.data = bytearray()
        self.overflowed = False
        self.start()

    def run(self) -> None:
        with contextlib.suppress(OSError, ValueError):  # closed under it
            while chunk := self.stream.read1(READ_SIZE):  # type: ignore[attr-defined]
                if self.overflowed:
                    continue  # drained, not held, until the killed group closes it
                self.data += chunk
                if len(self.data) <= MAX_OUTPUT:
                    continue
                if self.keep_tail:
                    del self.data[: len(self.data) - MAX_OUTPUT]
                else:
                    del self.data[MAX_OUTPUT:]
                    self.overflowed = True
                    if self.on_overflow is not None:
                        self.on_overflow()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):  # already gone
        os.killpg(process.pid, signal.SIGKILL)


def _finish(process: subprocess.Popen[bytes], *readers: _Reader) -> None:
    """Reap the killed ``process`` and let its readers end (a stray holder of a pipe may not)."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=KILLED_GRACE)
    for reader in readers:
        reader.join(KILLED_GRACE)
    _close(*readers)


def _close(*readers: _Reader) -> None:
    """Close the pipes whose reader has ended (one still reading holds its stream's lock)."""
    for reader in readers:
        if not reader.is_alive():
            with contextlib.suppress(OSError):
                reader.stream.close()


def reap(process: subprocess.Popen[bytes], grace: float = 2.0) -> None:
    """Wait ``grace`` seconds for a server asked to exit, kill it if it has not, close its pipes."""
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
