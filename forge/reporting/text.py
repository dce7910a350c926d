"""``forge validate``'s text output: a report as lines per check, a plan run as a table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forge.models import SyntaxLocation
from forge.paths import absolute, shown
from forge.reporting.terminal import format_duration, paint, printable, table
from forge.validate.verdict import counted, counts_as_failure

if TYPE_CHECKING:
    from forge.models import CheckResult, Location
    from forge.validate.outcome import ModuleRun, ValidateReport

#: Lines of a failing command's output tail shown in text mode.
SHOWN_OUTPUT_LINES = 12


def module_line(run: ModuleRun) -> str:
    """One line as a module finishes: PASS/FAIL/SKIP, the id, the score, the time."""
    if run.report is None:
        return f"{paint('SKIP', 'yellow')} {printable(f'{run.module_id}: {run.skipped}')}"
    mark = paint("PASS", "green") if run.report.passed else paint("FAIL", "red")
    return f"{mark} {run.module_id} (score {run.report.score:.2f}, {format_duration(run.seconds)})"


def render_summary(runs: list[ModuleRun]) -> str:
    """Every failing module's report, then a table of all modules and the verdict."""
    lines: list[str] = []
    for run in runs:
        if run.report is not None and not run.report.passed:
            # The title is the plan's text: escaped, as every name text output shows.
            heading = printable(f"{run.module_id}: {run.title or run.module_id}")
            lines.append(paint(f"== {heading}", "bold"))
            lines.append(render_report(run.report))
            lines.append("")
    rows = [
        [
            run.module_id,
            run.status,
            f"{run.report.score:.2f}" if run.report else "-",
            str(run.report.attempt) if run.report else "-",
            run.report.recommendation if run.report else "-",
            _reason(run),
        ]
        for run in runs
    ]
    lines.append(table(["MODULE", "STATUS", "SCORE", "ATTEMPT", "NEXT", "REASON"], rows))
    counts = {s: sum(r.status == s for r in runs) for s in ("passed", "failed", "skipped")}
    all_passed = counts["passed"] == len(runs)
    verdict = paint("PASSED", "green") if all_passed else paint("FAILED", "red")
    lines.append(
        f"{verdict}: {counts['passed']}/{len(runs)} modules passed, "
        f"{counts['failed']} failed, {counts['skipped']} skipped"
    )
    return "\n".join(lines)


def _reason(run: ModuleRun) -> str:
    if run.report is None:
        return run.skipped or ""

    failures = [r for r in run.report.results if counts_as_failure(r)]
    if not failures:
        return ""
    first = failures[0]
    more = f" (+{len(failures) - 1} more)" if len(failures) > 1 else ""
    return printable(f"{first.type} {first.target}: {first.message}{more}")


def render_report(report: ValidateReport) -> str:
    """The report as text: one line per check, details under failures, a summary line."""
    lines: list[str] = []
    width = max((len(result.type) for result in report.results), default=0)
    for result in report.results:
        if result.skipped:
            mark = paint("SKIP", "yellow")
        elif result.unjudged:  # not checked: no pass, and no failure of the code either
            mark = paint("ERR ", "red")
        elif result.passed:
            mark = paint("PASS", "green")
        else:
            mark = paint("FAIL", "red")
            if result.pre_existing:
                mark = paint("OLD ", "yellow")
            elif result.advisory:
                mark = paint("WARN", "yellow")
        # Escaped: a file named "a\nb.py" must not split its finding over two lines.
        lines.append(
            f"{mark} {printable(f'{result.type.ljust(width)}  {result.target}: {result.message}')}"
        )
        # A passing result's places are shown for information (counted nowhere).
        if not result.passed or result.locations:
            lines.extend(_details(result))
    judged = [result for result in report.results if result.judged]
    passed = sum(result.passed for result in judged)
    verdict = paint("PASSED", "green") if report.passed else paint("FAILED", "red")
    attempt = f", attempt {report.attempt}" if report.attempt else ""
    old = sum(location.pre_existing for result in report.results for location in result.locations)
    baseline = f", {old} pre-existing at {report.base_commit[:12]}" if report.base_commit else ""
    not_run = sum(result.unjudged for result in report.results)
    unjudged = f", {not_run} could not judge" if not_run else ""
    lines.append(
        f"{verdict}: {passed}/{len(judged)} checks passed{unjudged} (score {report.score:.2f})"
        f"{baseline}{attempt} -> {report.recommendation}"
        + (f" ({report.reason})" if report.recommendation == "ESCALATE" else "")
    )
    lines.extend(f"note: {printable(notice)}" for notice in report.notices)
    return "\n".join(lines)


def location_line(location: Location, path: str) -> str:
    """``path:line:column: message [rule]``: a place in the form editors and CI annotators
    (problem matchers, errorformat) recognise; ``path`` is the place's file as shown."""
    return f"{path}:{location.line}:{location.column}: {place_text(location)}"


def place_text(location: Location) -> str:
    """A place's message with its rule code and whether it counts: ``msg [rule] (pre-existing)``."""
    text = location.message
    if location.rule and f"[{location.rule}]" not in text:
        text += f" [{location.rule}]"
    if location.pre_existing:
        text += " (pre-existing)"
    elif location.informational:
        text += " (not counted)"
    return text


def source_and_caret_pad(source_line: str, column: int) -> tuple[str, str]:
    """A line of source as text output shows it, and what goes before a caret under ``column``.

    Control characters are escaped (:func:`~forge.reporting.terminal.printable`): the line is
    the file's own text, and an escape sequence in a string literal would drive the
    terminal. Tabs stay tabs, and the pad keeps them, so the caret lines up under an
    indented line; every other character before the column pads as wide as it is shown.
    """
    shown = "\t".join(printable(part) for part in source_line.split("\t"))
    pad = "".join(
        "\t" if char == "\t" else " " * len(printable(char)) for char in source_line[: column - 1]
    )
    return shown, pad


def _details(result: CheckResult) -> list[str]:

    details: list[str] = []
    # path:line:col: message at the start of a line, the form editors and CI
    # annotators (problem matchers, errorformat) recognise; the source under it.
    for location in result.locations:
        details.append(printable(location_line(location, location.path or result.target)))
        if isinstance(location, SyntaxLocation) and location.source_line.strip():
            shown, pad = source_and_caret_pad(location.source_line, location.column)
            details.append(paint(f"    {shown}", "dim"))
            details.append(f"    {pad}^")
    if getattr(result, "error_count", 0) > len(result.locations):
        details.append(f"    ... and {result.error_count - len(result.locations)} more")  # type: ignore[attr-defined]
    for stream in ("stderr", "stdout"):
        text = getattr(result, stream, "") or ""
        tail = text.rstrip("\n").splitlines()[-SHOWN_OUTPUT_LINES:]
        if tail:
            details.append(paint(f"    {stream}:", "dim"))
            details.extend(f"      {line}" for line in tail)
    return details


def display(name: str, cwd: Path) -> str:
    """A result's file name (relative to ``cwd`` or absolute) as :func:`shown` spells it."""
    return shown(absolute(cwd, name), cwd)


def result_findings(result: CheckResult, cwd: Path) -> list[str]:
    """``path:line:column: message`` for each place a failed result points at.

    Read from the ``locations`` channel alone, whatever the check: a place
    without a path is in the result's target. Places found at the base, and
    informational ones, are left out.
    """
    lines = [
        location_line(location, display(location.path or result.target, cwd))
        for location in result.locations
        if counted(location)
    ]
    return lines or [f"{display(result.target, cwd)}: {result.message}"]
