"""``forge status``: how far along the run is, from ``.forge/status.json``.

The file is rewritten by the MCP server after every tool call (and by
``forge validate --run-id``); this command only reads it, so it is cheap
enough for a terminal status line that runs every few seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from forge.cli.subcommand import add_command, out, print_json, reader_gone
from forge.reporting.terminal import format_duration, paint, printable, table, use_color

if TYPE_CHECKING:
    from forge.state.status_file import Status
    from forge.state.status_lines import ModuleStatus
    from forge.store.forge_dir import ForgeDir

USAGE = """\
progress of the current run: plan, progress bar, module table

Show the progress of the current run from .forge/status.json: the plan, a progress bar,
and each module's status, attempts, last score and recommendation.

examples:
  forge status                 # the plan, a progress bar and the module table
  forge status --watch         # redraw in place every second (Ctrl-C to stop)
  forge status --line          # [forge] ####------ 2/5 | VALIDATION | refresh endpoint | 3m19s
  forge status --json          # status.json, each module with its recommendation

  tmux:         set -g status-right '#(forge status --line)'
  Claude Code:  "statusLine": {"type": "command", "command": "forge status --line"}

exit codes: 0 shown (--line: always 0, silent when there is no recent status),
1 no status yet, 2 usage error
"""

BAR_WIDTH = 10
#: ``--line`` stays silent when the status is older than this (seconds).
DEFAULT_MAX_AGE = 1800.0


def register(subparsers: Any) -> None:
    """Add ``forge status`` to the parser."""
    parser = add_command(subparsers, "status", USAGE, run=run)
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--watch", action="store_true", help="redraw in place until Ctrl-C")
    shape.add_argument("--line", action="store_true", help="one line, for terminal status lines")
    shape.add_argument("--json", action="store_true", help="print the status as JSON")
    parser.add_argument(
        "--interval",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="--watch: seconds between redraws (default 1)",
    )
    parser.add_argument(
        "--max-age",
        type=float,
        default=DEFAULT_MAX_AGE,
        metavar="SECONDS",
        help="--line: print nothing when the status is older than this (default 1800)",
    )


def run(args: argparse.Namespace) -> int:
    """Print the status in the form asked for."""
    from forge.config import load_config, project_root
    from forge.errors import UsageError
    from forge.state.status_file import read_status
    from forge.store.forge_dir import ForgeDir

    if args.interval <= 0:
        raise UsageError(f"--interval must be more than 0 seconds, not {args.interval:g}")
    root = project_root()
    forge_dir = ForgeDir(root)
    if args.line:
        status = read_status(forge_dir)
        if status is not None and _age(status.updated_at) <= args.max_age:
            out(render_line(status))
        return 0
    max_attempts = load_config(root).max_attempts
    if args.watch:
        return _watch(forge_dir, max_attempts, args.interval)
    status = read_status(forge_dir)
    if status is None:
        print(_no_status(forge_dir), file=sys.stderr)
        return 1
    if args.json:
        wire = status.to_wire()
        for shown, module in zip(wire["modules"], status.modules, strict=True):
            shown["recommendation"] = recommendation(forge_dir, status, module, max_attempts)
        print_json(wire)
    else:
        out(render_status(forge_dir, status, max_attempts))
    return 0


def _no_status(forge_dir: ForgeDir) -> str:
    return (
        f"forge status: no status yet: {forge_dir.status} is written by the MCP server after "
        "each tool call, or by forge validate --run-id RUN"
    )


def recommendation(
    forge_dir: ForgeDir, status: Status, module: ModuleStatus, max_attempts: int
) -> str | None:
    """PROCEED / RETRY / ESCALATE from the module's attempt history, as validate says it."""
    from forge.store.ids import is_valid_id
    from forge.validate.history import assess, read_history, recommend

    if module.state == "done":
        return "PROCEED"
    if not module.attempts or not is_valid_id(module.id):
        return None
    attempts = read_history(forge_dir, module.id, status.run_id)[0].attempts
    if not attempts:
        return None
    if (module.status or "").lower() in {"escalated", "stagnant"}:
        return "ESCALATE"
    return recommend(passed=False, trend=assess(attempts), max_attempts=max_attempts)


def progress_bar(done: int, total: int, width: int = BAR_WIDTH) -> str:
    """``####------``: the share of modules done, in ``width`` characters."""
    filled = round(width * done / total) if total else 0
    return "#" * filled + "-" * (width - filled)


def render_line(status: Status) -> str:
    """``[forge] ####------ 2/5 | VALIDATION | refresh endpoint | 3m19s``."""
    counts = status.counts
    parts = [f"[forge] {progress_bar(counts.done, counts.total)} {counts.done}/{counts.total}"]
    if counts.failed:
        parts[0] += f" ({counts.failed} failed)"
    phase = status.current_phase or status.last_tool
    if phase:
        parts.append(printable(phase.upper()))
    current = _current_module(status)
    if current is not None:
        # Escaped: the title is the plan's text, and a terminal's status line shows it.
        parts.append(printable(current.title))
    if status.started_at:
        parts.append(format_duration(max(0.0, _age(status.started_at))))
    return " | ".join(parts)


def _current_module(status: Status) -> ModuleStatus | None:
    running = [m for m in status.modules if m.state == "running"]
    candidates = running or [m for m in status.modules if m.updated_at]
    if not candidates:
        return None
    return max(candidates, key=lambda m: m.updated_at or "")


_STATE_COLORS = {
    "done": "green",
    "failed": "red",
    "running": "yellow",
    "pending": "dim",
    "skipped": "dim",
}


def render_status(forge_dir: ForgeDir, status: Status, max_attempts: int) -> str:
    """The plan, the progress bar, and the module table."""
    counts = status.counts
    lines = []
    # Escaped (forge.reporting.terminal.printable): the plan's path, objective and titles are
    # the planner's text, as written; a newline or an escape sequence in them would
    # split a row or drive the terminal. --json carries them as they are.
    plan = printable(status.plan_path or "(no plan)")
    objective = f" — {printable(status.objective)}" if status.objective else ""
    lines.append(f"{paint('plan', 'bold')}  {plan}{objective}")
    run = printable(status.run_id or "-")
    phase = printable(status.current_phase or "-")
    lines.append(
        f"{paint('run', 'bold')}   {run}   phase {phase}   updated {_ago(status.updated_at)}"
    )
    bar = progress_bar(counts.done, counts.total, width=30)
    filled = bar.rstrip("-")
    shown_bar = paint(filled, "green") + bar[len(filled) :]
    lines.append(
        f"[{shown_bar}] {counts.done}/{counts.total} passed, {counts.running} running, "
        f"{counts.failed} failed, {counts.skipped} skipped, {counts.pending} pending"
    )
    if status.modules:
        rows = [
            [
                printable(module.id),
                printable(module.title),
                # The word validate prints for it: status.json's "done" is a passed module.
                "passed" if module.state == "done" else module.state,
                str(module.attempts),
                f"{module.score:.2f}" if module.score is not None else "-",
                recommendation(forge_dir, status, module, max_attempts) or "-",
            ]
            for module in status.modules
        ]
        lines.append("")
        rendered = table(["MODULE", "TITLE", "STATUS", "ATTEMPTS", "SCORE", "NEXT"], rows)
        lines.extend(_color_rows(rendered, [m.state for m in status.modules]))
    return "\n".join(lines)


def _color_rows(rendered: str, states: list[str]) -> list[str]:
    """The table's rows coloured by state as whole lines (so column widths stay right)."""
    rows = rendered.splitlines()
    if not use_color():
        return rows
    return [
        rows[0],
        *(paint(row, _STATE_COLORS[s]) for row, s in zip(rows[1:], states, strict=True)),
    ]


def _age(timestamp: str) -> float:
    """Seconds since an ISO 8601 timestamp (infinite when it cannot be read)."""
    try:
        then = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return float("inf")
    if then.tzinfo is None:
        then = then.replace(tzinfo=timezone.utc)
    return (datetime.now(timezone.utc) - then).total_seconds()


def _ago(timestamp: str) -> str:
    age = _age(timestamp)
    return "at an unknown time" if age == float("inf") else f"{format_duration(max(0, age))} ago"


def _watch(forge_dir: ForgeDir, max_attempts: int, interval: float) -> int:
    """Redraw the status in place every ``interval`` seconds until interrupted."""
    from forge.state.status_file import read_status

    terminal = sys.stdout.isatty()
    last = None
    if terminal:
        sys.stdout.write("\033[H\033[2J")
    try:
        while True:
            status = read_status(forge_dir)
            if status is None:
                screen = _no_status(forge_dir) + "\n(waiting...)"
            else:
                screen = render_status(forge_dir, status, max_attempts)
            if terminal:
                # Home, draw, clear what is left of the old screen: no flicker.
                body = screen.replace("\n", "\033[K\n")
                sys.stdout.write(f"\033[H{body}\033[K\033[J")
                sys.stdout.flush()
            elif screen != last:
                out(screen + "\n")
                if reader_gone():
                    return 0
            last = screen
            time.sleep(interval)
    except KeyboardInterrupt:
        if terminal:
            sys.stdout.write("\n")
        return 0
