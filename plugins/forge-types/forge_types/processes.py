"""Running a checker: its own process group, a timeout, nothing left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from forge_types.diagnostics import CheckerFailed

#: Bytes of a checker's output read at most (a project with very many diagnostics).
MAX_OUTPUT = 64 * 1024 * 1024


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

    Raises :class:`CheckerFailed` when it cannot start or takes longer than ``timeout``.
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
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise CheckerFailed(f"{Path(argv[0]).name} took longer than {timeout:g} s") from None
    except BaseException:
        _kill_group(process)
        raise
    return Finished(
        process.returncode,
        out[:MAX_OUTPUT].decode("utf-8", errors="replace"),
        err[-MAX_OUTPUT:].decode("utf-8", errors="replace"),
    )


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):  # already gone
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate()


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
