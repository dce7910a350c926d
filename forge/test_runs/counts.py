"""What a command's test-runner summaries mean: one summary, in words, and the verdict.

:mod:`forge.test_runs.summary` reads the counts from a command's output;
:func:`judge` says whether they let the command pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from forge.models import TestCounts


def total(runs: list[TestCounts]) -> TestCounts | None:
    """One summary for the command: a single runner's counts, or the sum of several."""
    if not runs:
        return None
    if len(runs) == 1:
        return runs[0]
    return TestCounts(
        runner=" + ".join(run.runner for run in runs),
        passed=sum(run.passed for run in runs),
        failed=sum(run.failed for run in runs),
        skipped=sum(run.skipped for run in runs),
        errors=sum(run.errors for run in runs),
    )


def describe(counts: TestCounts) -> str:
    """``"12 passed, 1 skipped (pytest)"``: passed always, the others when not zero."""
    parts = [f"{counts.passed} passed"]
    if counts.failed:
        parts.append(f"{counts.failed} failed")
    if counts.skipped:
        parts.append(f"{counts.skipped} skipped")
    if counts.errors:
        parts.append(f"{counts.errors} error{'s' if counts.errors != 1 else ''}")
    return f"{', '.join(parts)} ({counts.runner})"


def judge(runs: list[TestCounts], *, exit_code: int, min_tests: int) -> str | None:
    """Why a command whose output holds these summaries fails, or None if the counts are fine.

    A runner that ran fewer than ``min_tests`` tests (skipped ones do not count)
    fails the command, and so do failed tests or errors in a command that
    exited 0 (``npm test || true``). A non-zero exit fails the command anyway.
    """
    for run in runs:
        ran = run.passed + run.failed
        if ran == 0 and min_tests > 0:
            if run.skipped or run.errors:
                return f"ran no test: {describe(run)}"
            return f"ran no test: no test found ({run.runner})"
        if ran < min_tests:
            plural = "s" if ran != 1 else ""
            return f"ran {ran} test{plural}, fewer than min-tests = {min_tests}: {describe(run)}"
        if exit_code == 0 and (run.failed or run.errors):
            return f"tests failed but the command exited 0: {describe(run)}"
    return None


def unfinished(expected: Counter[str], seen: Iterable[Counter[str]]) -> list[str]:
    """The runners ``expected`` to print a summary (:func:`forge.test_runs.expected_summaries`)
    that printed fewer than expected on all streams (:attr:`SummaryScanner.seen`)."""
    total: Counter[str] = Counter()
    for counts in seen:
        total.update(counts)
    return [runner for runner, count in sorted(expected.items()) if total[runner] < count]
