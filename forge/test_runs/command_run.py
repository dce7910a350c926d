"""A verify command's run: supervised, its test summaries read as it streams, judged, worded.

The one way forge runs a verify command, for the ``command`` check and for
acceptance criteria alike: :func:`forge.runtime.processes.supervise` runs it,
:class:`~forge.test_runs.summary.SummaryScanner` reads the runners' summaries
from both streams as they pass (so they count even when they scroll out of the
kept tail), :func:`~forge.test_runs.counts.judge` decides whether the counts
let it pass (a runner that ran no test does not), and the result says so in
one line.
"""

from __future__ import annotations

import signal
from collections import Counter
from pathlib import Path

from forge.models import CommandResult, TestCounts
from forge.runtime.processes import TAIL_BYTES, Finished, Tail, supervise
from forge.test_runs.counts import describe, judge, total, unfinished
from forge.test_runs.summary import SummaryScanner, combine


def run_command(
    command: str,
    cwd: Path,
    timeout: float,
    *,
    result_type: str,
    min_tests: int | None = 1,
    summaries: Counter[str] | None = None,
    unfinished_message: str = "",
) -> CommandResult:
    """Run ``command`` with ``sh`` in ``cwd``; never raises for anything the command does.

    ``result_type``: the id of the check that asked (the result's ``type``).

    ``min_tests``: the fewest tests a recognised test runner must run for the
    command to pass (see :func:`forge.test_runs.counts.judge`); None leaves the
    verdict to the exit code alone (an exempt command).

    ``summaries``: the summaries the runners the command line starts must print
    (:func:`forge.test_runs.expected_summaries`); a run that exits 0 without
    them fails with ``unfinished_message`` (the asking check's words).
    """
    scanners = (SummaryScanner(), SummaryScanner())
    finished = supervise(
        command,
        cwd,
        timeout,
        stdout=Tail(TAIL_BYTES, scanners[0].feed),
        stderr=Tail(TAIL_BYTES, scanners[1].feed),
    )
    if finished.exit_code is None:
        return CommandResult(
            type=result_type,
            target=command,
            passed=False,
            exit_code=None,
            message=f"could not start: {finished.start_error}",
        )
    for scanner in scanners:
        scanner.close()
    runs = combine(scanners)
    passed, message = _worded(finished, timeout, runs, min_tests)
    missing = unfinished(summaries or Counter(), (scanner.seen for scanner in scanners))
    if passed and missing:
        passed = False
        message = (
            f"{unfinished_message}: {', '.join(missing)} printed none, so exit 0 proves nothing"
        )
    return CommandResult(
        type=result_type,
        target=command,
        passed=passed,
        message=message,
        exit_code=finished.exit_code,
        timed_out=finished.timed_out,
        duration_ms=finished.duration_ms,
        stdout=finished.stdout.text(),
        stderr=finished.stderr.text(),
        stdout_bytes=finished.stdout.total,
        stderr_bytes=finished.stderr.total,
        tests=total(runs),
    )


def _worded(
    finished: Finished, timeout: float, runs: list[TestCounts], min_tests: int | None
) -> tuple[bool, str]:
    """Whether the run passed, and the one line that says how it ended."""
    exit_code = finished.exit_code
    assert exit_code is not None
    duration_ms = finished.duration_ms
    if finished.timed_out:
        return False, f"timed out after {timeout:g} s; the command's process group was killed"
    if finished.cancelled:
        return False, f"cancelled after {duration_ms} ms; the command's process group was killed"
    if exit_code < 0:
        return False, f"killed by signal {signal.Signals(-exit_code).name} after {duration_ms} ms"
    verdict = None if min_tests is None else judge(runs, exit_code=exit_code, min_tests=min_tests)
    if verdict is not None:
        return False, verdict
    message = f"exit {exit_code} in {duration_ms} ms"
    tests = total(runs)
    if tests is not None:
        message += f": {describe(tests)}"
    return exit_code == 0, message
