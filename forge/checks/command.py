"""``command``: each verify command must exit 0 within its timeout.

Commands run through the shell in the working dir, in their own process
group. Output is streamed and only a bounded tail is kept (a command that
prints 100 MB costs a few KB). On timeout the whole group gets SIGTERM, then
SIGKILL, so grandchildren (``sleep 300 &``) and children that ignore SIGTERM
are gone too; anything a command leaves running in its group after it exits
is cleaned up the same way.

A call that is cancelled (:mod:`forge.validate.cancellation`: the MCP client sent
``notifications/cancelled``, or closed stdin) stops its command the same way
as a timeout, within a tenth of a second.

A child that leaves the group (``setsid``, a daemon's double fork) is found
by the token every command's environment carries (:data:`TOKEN_VARIABLE`,
inherited by all its descendants) in ``/proc/<pid>/environ``, and killed with
the group. Where there is no ``/proc`` (macOS), or for a child that clears its
environment, only the process group is killed (SECURITY.md says so).

While the output streams, test-runner summaries are read from it
(:mod:`forge.test_runs`; :mod:`forge.test_runs` judges them), so
they count even when they scroll out of the kept tail: the result carries the runner's counts, and a runner that ran no
test fails the command whatever its exit code.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import selectors
import signal
import subprocess
import time
from pathlib import Path
from typing import IO

from forge import hookimpl
from forge.models import CheckDescriptor, CommandResult, ValidateRequest
from forge.validate.cancellation import cancelled
from forge.workspace import Workspace

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


class _Tail:
    """The last ``limit`` bytes of a stream, how many bytes it had in all, its test summaries."""

    def __init__(self, limit: int) -> None:
        # Imported with the first command, not with the plugin: a validate
        # without verify commands (forge hook, one file) never compiles the
        # runners' summary patterns.
        from forge.test_runs import SummaryScanner

        self.limit = limit
        self.total = 0
        self.buffer = bytearray()
        self.summaries = SummaryScanner()

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        self.summaries.feed(chunk)
        self.buffer += chunk
        if len(self.buffer) > self.limit:
            del self.buffer[: len(self.buffer) - self.limit]

    def text(self) -> str:
        return self.buffer.decode("utf-8", errors="replace")


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

    A few passes, as a process found in one may have forked in between.
    """
    needle = f"{TOKEN_VARIABLE}={token}\0".encode()
    for _ in range(3):
        found = []
        with contextlib.suppress(OSError), os.scandir(_PROC) as entries:
            for entry in entries:
                if not entry.name.isdigit() or int(entry.name) == os.getpid():
                    continue
                try:
                    with (_PROC / entry.name / "environ").open("rb") as handle:
                        environ = b"\0" + handle.read()
                except OSError:  # gone, or another user's
                    continue
                if b"\0" + needle in environ:
                    found.append(int(entry.name))
        if not found:
            return
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def _pump(selector: selectors.BaseSelector, tails: dict[IO[bytes], _Tail], wait: float) -> None:
    for key, _ in selector.select(max(wait, 0.0)):
        stream = key.fileobj
        chunk = os.read(key.fd, _READ_SIZE)
        if chunk:
            tails[stream].add(chunk)  # type: ignore[index]
        else:
            selector.unregister(stream)


def run_command(
    command: str, cwd: Path, timeout: float, *, min_tests: int | None = 1
) -> CommandResult:
    """Run ``command`` with ``sh`` in ``cwd``; never raises for anything the command does.

    ``min_tests``: the fewest tests a recognised test runner must run for the
    command to pass (see :func:`forge.test_runs.judge`); None leaves the
    verdict to the exit code alone (an exempt command).
    """
    started = time.monotonic()
    token = secrets.token_hex(16)
    # Everything that can take a while happens before the child exists: from
    # its start to the ``try`` that kills it on Ctrl-C, nothing may be slow.
    stdout, stderr = _Tail(TAIL_BYTES), _Tail(TAIL_BYTES)
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
        return CommandResult(
            type="command",
            target=command,
            passed=False,
            exit_code=None,
            message=f"could not start: {exc}",
        )
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
        tails = {process.stdout: stdout, process.stderr: stderr}
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
    from forge.test_runs import combine, describe, judge, total

    for tail in (stdout, stderr):
        tail.summaries.close()
    runs = combine(tail.summaries for tail in (stdout, stderr))
    tests = total(runs)
    passed = exit_code == 0 and not timed_out and not stopped
    verdict = (
        None
        if timed_out or stopped or min_tests is None
        else judge(runs, exit_code=exit_code, min_tests=min_tests)
    )
    if timed_out:
        message = f"timed out after {timeout:g} s; the command's process group was killed"
    elif stopped:
        message = f"cancelled after {duration_ms} ms; the command's process group was killed"
    elif exit_code < 0:
        message = f"killed by signal {signal.Signals(-exit_code).name} after {duration_ms} ms"
    elif verdict is not None:
        passed = False
        message = verdict
    else:
        message = f"exit {exit_code} in {duration_ms} ms"
        if tests is not None:
            message += f": {describe(tests)}"
    return CommandResult(
        type="command",
        target=command,
        passed=passed,
        message=message,
        exit_code=exit_code,
        timed_out=timed_out,
        duration_ms=duration_ms,
        stdout=stdout.text(),
        stderr=stderr.text(),
        stdout_bytes=stdout.total,
        stderr_bytes=stderr.total,
        tests=tests,
    )


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CommandResult]:
    """Run each of the request's ``commands`` in turn, in the working dir."""
    config = workspace.config
    timeout = request.timeout or config.command_timeout
    results = []
    for number, command in enumerate(request.commands, 1):
        if cancelled():  # the rest would only be killed at once
            break
        exempt = config.exempt_from_tests(command)
        min_tests = None if exempt else config.min_tests
        results.append(run_command(command, workspace.cwd, timeout, min_tests=min_tests))
        workspace.report_progress(f"command {number}/{len(request.commands)}: {command}")
    return results


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``command``: shown after the file checks; a command is about no file."""
    return [
        CheckDescriptor(
            id="command",
            summary="A verify command exits 0, and a test runner in it ran at least one test.",
            order=50,
        )
    ]
