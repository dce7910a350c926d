"""``forge sessions``: the orchestrator's saved session snapshots (list, show)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from forge.cli.subcommand import add_actions, add_command, add_json_flag, out, print_json, warn
from forge.reporting.terminal import table

if TYPE_CHECKING:
    from forge.store.forge_dir import ForgeDir

USAGE = """\
saved orchestrator sessions: list them, show one

Session snapshots are what an orchestrator saved with session_state in
.forge/state/<runId>.json, so a run can resume.

examples:
  forge sessions                      # the same as: forge sessions list
  forge sessions list --json
  forge sessions show run-42          # phase, progress and module statuses
  forge sessions show run-42 --json   # the snapshot as saved

exit codes: 0 shown, 1 no session with that run id, 2 usage error
"""


def register(subparsers: Any) -> None:
    """Add ``forge sessions`` (list, show) to the parser."""
    parser = add_command(subparsers, "sessions", USAGE)
    add_json_flag(parser)
    actions = add_actions(parser, default=run_list)
    listing = actions.add("list", "every session, most recently updated first", run=run_list)
    add_json_flag(listing)
    show = actions.add("show", "one session's snapshot", run=run_show)
    show.add_argument("run_id", metavar="RUN_ID")
    add_json_flag(show, "the snapshot")


def _forge_dir() -> ForgeDir:
    from forge.config import project_root
    from forge.store.forge_dir import ForgeDir

    return ForgeDir(project_root())


def run_list(args: argparse.Namespace) -> int:
    """Print every session, most recent first."""
    from forge.state.sessions import list_sessions

    result = list_sessions(_forge_dir())
    warn("sessions", result.notices)
    if args.json:
        print_json(result.to_wire())
        return 0
    if not result.sessions:
        out("No sessions yet: an orchestrator saves them with the session_state tool.")
        return 0
    rows = [
        [
            s.run_id,
            s.current_phase or "-",
            f"{s.completed_count}/{s.total_count}",
            s.last_updated_at or "-",
        ]
        for s in result.sessions
    ]
    out(table(["RUN", "PHASE", "DONE", "UPDATED"], rows))
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print one session; exit 1 when there is none with that run id."""
    from forge.state.sessions import load_session
    from forge.store.forge_dir import valid_run_id

    # Read directly, not through the service: looking must not add events to the run's log.
    loaded = load_session(_forge_dir(), valid_run_id(args.run_id, "RUN_ID"))
    state = loaded.to_wire()
    if not loaded.found:
        if args.json:
            print_json(state)
        else:
            print(
                f"forge sessions: no session {args.run_id!r}: forge sessions list shows the runs",
                file=sys.stderr,
            )
        return 1
    if args.json:
        print_json(state)
        return 0
    out(render_session(args.run_id, state))
    return 0


def render_session(run_id: str, state: dict[str, Any]) -> str:
    """A session for people: the known keys as lines, module statuses as a table."""
    lines = [f"run        {run_id}"]
    for key, label in (
        ("planPath", "plan"),
        ("currentPhase", "phase"),
        ("startedAt", "started"),
        ("lastUpdatedAt", "updated"),
    ):
        if state.get(key) is not None:
            lines.append(f"{label.ljust(10)} {state[key]}")
    completed = state.get("completedModules")
    if isinstance(completed, list):
        lines.append(f"{'completed'.ljust(10)} {len(completed)}: {', '.join(map(str, completed))}")
    statuses = state.get("moduleStatuses")
    retries = state.get("retryCounts")
    retries = retries if isinstance(retries, dict) else {}
    if isinstance(statuses, dict) and statuses:
        lines.append("")
        rows = [
            [str(module), _text(status), str(retries.get(module, 0))]
            for module, status in statuses.items()
        ]
        lines.append(table(["MODULE", "STATUS", "RETRIES"], rows))
    known = {
        "found",
        "runId",
        "planPath",
        "currentPhase",
        "startedAt",
        "lastUpdatedAt",
        "completedModules",
        "moduleStatuses",
        "retryCounts",
    }
    others = sorted(key for key in state if key not in known)
    if others:
        lines.append("")
        lines.append(f"other keys: {', '.join(others)} (--json shows them)")
    return "\n".join(lines)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
