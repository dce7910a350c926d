"""``forge ui``: a live, read-only web page over the project's ``.forge/`` (:mod:`forge.ui`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from forge.cli.subcommand import add_command

USAGE = """\
a live web page of the run: the plan's graph, modules, attempts, log

Serve a read-only web page over .forge/: the plan as its dependency graph with each
module's state, a module's attempts and failing lines, the event log, sessions and
memory, updated live as the run goes on. It writes nothing.

examples:
  forge ui                       # http://127.0.0.1:8765/, this machine only
  forge ui --open                # and open it in the default browser
  forge ui --port 0              # any free port (the address is printed)
  forge ui --host 0.0.0.0        # listen on every address: others can read the project

exit codes: 0 stopped (Ctrl-C), 2 usage error (a port in use, an unknown host)
"""


def register(subparsers: Any) -> None:
    """Add ``forge ui`` to the parser."""
    from forge.ui.server import DEFAULT_HOST, DEFAULT_PORT

    parser = add_command(subparsers, "ui", USAGE, run=run)
    parser.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)",
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        metavar="ADDR",
        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    parser.add_argument("--open", action="store_true", help="open the page in a browser")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def run(args: argparse.Namespace) -> int:
    """Serve the page until Ctrl-C."""
    from forge.config import project_root
    from forge.ui.server import serve

    try:
        serve(project_root(), host=args.host, port=args.port, open_page=args.open, out=sys.stdout)
    except KeyboardInterrupt:
        print("forge ui: stopped", file=sys.stderr)
    return 0
