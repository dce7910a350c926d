"""``forge logs``: the event log of a run, filtered like the ``forge_logs`` tool, or followed."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any, get_args

from forge.cli.subcommand import add_command, add_json_flag, out, print_json, reader_gone, warn
from forge.errors import clip
from forge.reporting.terminal import paint, printable

if TYPE_CHECKING:
    from forge.state.event_log import LogEntry

USAGE = """\
events of a run: tool calls, validations, memory, sessions

Show the event log of a run (default: the agents' most recently written run, not a
server's or the CLI's own log), filtered by module, phase and severity.

examples:
  forge logs                                  # the last 50 events of the newest run
  forge logs --run-id run-42 --module auth --severity error
  forge logs --phase validation --limit 10 --json
  forge logs --follow                         # new events as they come (Ctrl-C to stop)
  forge logs --follow --json | jq .event      # one JSON object a line

exit codes: 0 shown (also when nothing matched), 2 usage error
"""

#: Seconds between looks at the log file with --follow.
FOLLOW_INTERVAL = 0.5
#: Characters of an event's data shown in text mode.
DATA_WIDTH = 160

_SEVERITY_COLORS = {"info": "dim", "warn": "yellow", "error": "red"}


def register(subparsers: Any) -> None:
    """Add ``forge logs`` to the parser."""
    from forge.state.event_log import DEFAULT_LIMIT, MAX_LIMIT, EventSeverity, Phase

    parser = add_command(subparsers, "logs", USAGE, run=run)
    parser.add_argument("--run-id", help="the run whose log to read (default: the newest)")
    parser.add_argument(
        "--module", "--module-id", dest="module_id", metavar="ID", help="only this module's events"
    )
    parser.add_argument(
        "--phase",
        choices=get_args(Phase),
        metavar="PHASE",
        help="only events of this phase: " + ", ".join(get_args(Phase)),
    )
    parser.add_argument(
        "--severity",
        choices=get_args(EventSeverity),
        metavar="LEVEL",
        help="only events of this severity: " + ", ".join(get_args(EventSeverity)),
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        help=f"the last N matching events (default {DEFAULT_LIMIT}, at most {MAX_LIMIT})",
    )
    parser.add_argument(
        "--follow", "-f", action="store_true", help="keep printing new events until Ctrl-C"
    )
    add_json_flag(parser, "the query result (with --follow, one event a line)")


def run(args: argparse.Namespace) -> int:
    """Print the matching events; with ``--follow``, keep printing new ones."""
    from forge.cli.output import build_request
    from forge.config import project_root
    from forge.service.arguments import ForgeLogsRequest
    from forge.state.event_log import MAX_LIMIT, query_logs
    from forge.store.forge_dir import ForgeDir

    request = build_request(ForgeLogsRequest, args)
    forge_dir = ForgeDir(project_root())
    filters = request.model_dump(include={"module_id", "phase", "severity"})
    result = query_logs(forge_dir, run_id=request.run_id, limit=request.limit, **filters)
    warn("logs", result.notices)
    if not args.follow:
        if args.json:
            print_json(result.to_wire())
        elif result.message and not result.entries:
            print(result.message, file=sys.stderr)
            if result.unknown_module:
                return 1
        else:
            _print(result.entries, as_json=False)
            if result.total > len(result.entries):
                out(
                    paint(
                        f"({len(result.entries)} of {result.total} shown; --limit for more)", "dim"
                    )
                )
        return 0
    _print(result.entries, as_json=args.json)
    run_id = result.run_id
    seen = result.total
    try:
        while not reader_gone():  # | head has read its lines: stop following
            time.sleep(FOLLOW_INTERVAL)
            if run_id is None:  # no log yet: follow the first one that appears
                result = query_logs(forge_dir, limit=MAX_LIMIT, **filters)
                run_id, seen = result.run_id, 0
                if run_id is None:
                    continue
            result = query_logs(forge_dir, run_id=run_id, limit=MAX_LIMIT, **filters)
            if result.total > seen:
                _print(result.entries[-(result.total - seen) :], as_json=args.json)
                seen = result.total
    except KeyboardInterrupt:
        return 0
    return 0


def _print(entries: list[LogEntry], *, as_json: bool) -> None:
    for entry in entries:
        if as_json:
            out(json.dumps(entry.to_wire(), ensure_ascii=False))
        else:
            out(format_entry(entry))


def format_entry(entry: LogEntry) -> str:
    """``09:44:00.123 WARN  validation  validate  auth  passed=false score=0.5 ...``."""
    # Each part escaped (printable) before it is painted: the log holds what agents and
    # plans wrote, and JSON encoding leaves C1 controls and U+2028 as they are.
    clock = entry.timestamp[11:23] if len(entry.timestamp) >= 23 else entry.timestamp
    severity = printable(entry.severity.upper()).ljust(5)
    parts = [
        printable(clock),
        paint(severity, _SEVERITY_COLORS.get(entry.severity, "bold")),
        printable(entry.phase).ljust(10),
        printable(entry.event),
    ]
    if entry.module_id:
        parts.append(paint(printable(entry.module_id), "bold"))
    data = " ".join(f"{printable(key)}={_short(value)}" for key, value in entry.data.items())
    if data:
        parts.append(clip(data, DATA_WIDTH))
    return " ".join(parts)


def _short(value: Any) -> str:
    if isinstance(value, str):
        shown = value if value and " " not in value else json.dumps(value, ensure_ascii=False)
    else:
        shown = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return printable(shown)
