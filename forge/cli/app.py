"""The ``forge`` command run in this process: parse the arguments, run the subcommand.

:func:`forge.cli.main` comes here when no daemon takes the command, and a
daemon's child comes here to run it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from forge import __version__
from forge.cli import EXIT_OK, EXIT_USAGE, SUBCOMMANDS
from forge.cli.subcommand import stdout_to_devnull
from forge.errors import ForgeError


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``forge CMD: error: what (forge CMD --help)``.

    Subcommand parsers are of this class too (argparse makes them of the
    parent's class), so every usage error reads the same.
    """

    def error(self, message: str) -> NoReturn:
        """Print the error as one line and exit 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, with ``command``'s subparser only, or every one for ``None``.

    Registering a subcommand imports its module, so ``forge plan check`` (run
    once per commit) registers ``plan`` alone and never pays for the others.
    """
    parser = Parser(
        prog="forge",
        description="Validate that modules delivered by coding agents really landed.",
        epilog="Run 'forge COMMAND --help' for a command's options and examples.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"forge {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS if command is None else (command,):
        importlib.import_module(f"forge.cli.{name}").register(subparsers)
    return parser


def _requested_command(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, if it names a known one first."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return first if first in SUBCOMMANDS else None


def _not_utf8(argv: Sequence[str]) -> str | None:
    """What is wrong with the first argument that is not UTF-8, if one is not.

    Python hands such bytes over as lone surrogates, which no JSON, log line
    or reply can carry.
    """
    for number, arg in enumerate(argv, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            shown = arg.encode("utf-8", "surrogateescape")[:60]
            return (
                f"argument {number} ({shown!r}) is not UTF-8 text (at position {exc.start}): "
                "pass arguments as UTF-8"
            )
    return None


def run_here(argv: Sequence[str]) -> int:
    """Run ``forge ARGV`` in this process; the exit code."""
    argv = list(argv)
    if (bad := _not_utf8(argv)) is not None:
        print(f"forge: error: {bad}", file=sys.stderr)
        return EXIT_USAGE
    parser = build_parser(_requested_command(argv))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``forge logs --json | head``): what it read was
        # what it wanted. Quiet, exit 0; output printed through out() keeps the
        # command's own code instead (a failed validation still exits 1).
        stdout_to_devnull()
        return EXIT_OK
    except ForgeError as exc:
        print(f"forge {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # the system refused something forge's own checks did not foresee
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"forge {args.command}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        # Say so: a silent exit looks like a crash, or like a run that finished.
        print(f"forge {args.command}: interrupted", file=sys.stderr)
        return 130
    return code
