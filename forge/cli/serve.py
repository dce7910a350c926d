"""``forge serve``: the MCP server on stdio."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from forge.cli.subcommand import add_command

USAGE = """\
run the MCP server on stdio (same as forge-mcp)

Run forge's MCP server on stdin/stdout for an orchestrating agent. The project is
FORGE_CWD, else the working directory.

example: claude mcp add forge -- forge-mcp
"""


def register(subparsers: Any) -> None:
    """Add ``forge serve`` to the parser."""
    add_command(subparsers, "serve", USAGE, run=run)


def run(args: argparse.Namespace) -> int:
    """Start the server; returns when the client closes the connection.

    Run here, not in a daemon's child (no daemon ran, or ``FORGE_DAEMON=0``),
    it starts a daemon for the next sessions, which then start warm.
    """
    from forge.daemon import address
    from forge.daemon.child import in_child
    from forge.daemon.server import start_unless_running
    from forge.tools.mcp_server import serve  # the only place the CLI reaches mcp

    # Once this session's start is over: a daemon warming up beside it would
    # double the time the client waits.
    serve(start_unless_running if address.enabled() and not in_child() else None)
    return 0


def prepare(rehearsal: Path) -> None:
    """Build the MCP server ahead of any session, after a rehearsal on the project ``rehearsal``:
    the daemon does, before it forks one."""
    from forge.tools.mcp_server import prepare as build

    build(rehearsal)
