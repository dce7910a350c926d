"""``forge hook``: the command Claude Code and Codex run with one hook event on stdin.

What it decides is :mod:`forge.hook`'s; this module reads stdin, prints the
decision and exits 0 whatever happens.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any

from forge.cli.subcommand import add_command

USAGE = """\
answer one agent hook event (Claude Code, Codex) read from stdin

Read one hook event as JSON on stdin; block a broken edit or a stop on a failing module.
Always exits 0; forge's own failure allows.

examples (Claude Code runs it; these feed it by hand):
  echo '{"hook_event_name": "PostToolUse", "tool_name": "Write", "cwd": ".",
         "tool_input": {"file_path": "src/app.py"}}' | forge hook
  echo '{"hook_event_name": "SubagentStop", "cwd": ".", "stop_hook_active": false}' \\
    | FORGE_MODULE_ID=api FORGE_RUN_ID=run-42 forge hook

events: PostToolUse (Write, Edit, MultiEdit, NotebookEdit, apply_patch), Stop,
SubagentStop; SessionStart starts the forge daemon (FORGE_DAEMON=0: not); any
other event or tool is allowed silently.

the module of a Stop: FORGE_MODULE_ID (+ FORGE_RUN_ID) with the plan FORGE_PLAN
or the newest .forge/plans/*.json, else the session state whose "worktrees"
maps a module to the hook's cwd (see docs/clients.md)

output: nothing (allow) or {"decision": "block", "reason": ...}; exit 0 always
"""


def register(subparsers: Any) -> None:
    """Add ``forge hook`` to the parser."""
    add_command(subparsers, "hook", USAGE, run=run)


def run(args: argparse.Namespace) -> int:
    """Decide on the event on stdin; print the decision (if any); exit 0 whatever happens."""
    from forge.hook import decide, one_line, read_event
    from forge.runtime.startup import startup_without_gc

    try:
        with startup_without_gc():  # one event: start-up and a bounded unit of work
            decision = decide(read_event(sys.stdin.buffer))
    except Exception as exc:  # forge broke or was misused: never block the agent for it
        print(f"forge hook: allowed without checking: {one_line(exc)}", file=sys.stderr)
        return 0
    if decision is not None:
        # ASCII JSON: whatever the locale's encoding, the answer can be written.
        with contextlib.suppress(OSError):  # the agent stopped listening: nothing to tell
            print(json.dumps(decision), flush=True)
    return 0
