"""The one way to write a ``forge`` subcommand: declare it, its actions and flags, print its output.

A subcommand module's ``register(subparsers)`` declares itself with
:func:`add_command` from one usage text (summary, description, examples, as
``--help`` shows them), its actions with :func:`add_actions` (``forge plan
check|schema``: the command alone is a usage error naming them), its flags
with argparse (``--json`` with :func:`add_json_flag`, repeatable ones with
:func:`add_list_flag`), and the function each parser runs (``run=``). A run function returns the exit
code and prints with :func:`emit` / :func:`out` / :func:`print_json` / :func:`warn`; it
raises :class:`forge.errors.ForgeError` for anything the user must fix, which
:func:`forge.cli.app.run_here` turns into one line and exit 2, as it turns
Ctrl-C into 130 and a closed pipe into a quiet exit. No subcommand maps
errors to exit codes itself.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

#: What a parser runs: the parsed arguments in, the exit code out.
Runner = Callable[[argparse.Namespace], int]


def add_command(
    subparsers: Any, name: str, usage: str, *, run: Runner | None = None
) -> argparse.ArgumentParser:
    """Add ``forge NAME`` as ``usage`` declares it; ``run`` is what it runs.

    ``usage`` reads like the command's help: its one-line summary (what
    ``forge --help`` lists), a blank line, what it does (the description,
    optional), and from the paragraph that starts with ``example`` on, its
    examples and exit codes, shown after the options as written. A command
    made of actions has no ``run`` (see :func:`add_actions`).
    """
    summary, description, examples = _parts(usage)
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=summary,
        description=description or summary[:1].upper() + summary[1:] + ".",
        epilog=examples or None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if run is not None:
        parser.set_defaults(run=run)
    return parser


def _parts(usage: str) -> tuple[str, str, str]:
    """``usage``'s summary line, its description and its examples, each as written."""
    summary, _, rest = usage.strip("\n").partition("\n\n")
    paragraphs = rest.split("\n\n") if rest else []
    cut = next(
        (i for i, text in enumerate(paragraphs) if text.lower().startswith("example")),
        len(paragraphs),
    )
    description = "\n\n".join(paragraphs[:cut]).strip()
    examples = "\n\n".join(paragraphs[cut:])
    return " ".join(summary.split()), description, examples + "\n" if examples else ""


def add_actions(parser: argparse.ArgumentParser, *, default: Runner | None = None) -> _Actions:
    """The actions of a command (``forge memory recall|save|list``).

    ``forge CMD`` alone runs ``default``; without one it is a usage error that
    names the actions. Each action is declared with :meth:`_Actions.add`; an
    action whose usage gives no examples shows the command's.
    """
    actions = _Actions(parser, parser.add_subparsers(dest="action", metavar="ACTION"))
    parser.set_defaults(run=default or actions.usage)
    return actions


class _Actions:
    """The actions of one command, as :func:`add_actions` made them."""

    def __init__(self, parser: argparse.ArgumentParser, subparsers: Any) -> None:
        self._parser = parser
        self._subparsers = subparsers
        self._names: list[str] = []

    def add(self, name: str, usage: str, *, run: Runner) -> argparse.ArgumentParser:
        """Add action ``name`` as ``usage`` declares it (see :func:`add_command`), run by ``run``."""
        self._names.append(name)
        if not _parts(usage)[2] and self._parser.epilog:
            usage = f"{usage.rstrip()}\n\n{self._parser.epilog}"
        return add_command(self._subparsers, name, usage, run=run)

    def usage(self, args: argparse.Namespace) -> int:
        """``forge CMD`` without an action: say which actions there are."""
        from forge.errors import UsageError

        *first, last = self._names
        named = f"{', '.join(first)} or {last}" if first else last
        raise UsageError(f"an action is required: {named} ({self._parser.prog} --help)")


def add_list_flag(
    parser: argparse.ArgumentParser, flag: str, *, dest: str, metavar: str, help: str
) -> None:
    """A repeatable flag whose values are collected in order (``--command A --command B``)."""
    parser.add_argument(flag, dest=dest, action="append", default=[], metavar=metavar, help=help)


def add_base_flag(parser: argparse.ArgumentParser, help: str) -> None:
    """``--base REF`` (``base_ref``): the git revision a command judges or merges against."""
    parser.add_argument("--base", dest="base_ref", metavar="REF", help=help)


def add_plan_flag(parser: argparse.ArgumentParser, help: str, *, dest: str = "plan") -> None:
    """``--plan PLAN``: the plan file a command takes its modules from."""
    parser.add_argument("--plan", dest=dest, metavar="PLAN", help=help)


def add_json_flag(parser: argparse.ArgumentParser, what: str = "the result") -> None:
    """``--json``: print ``what`` as JSON (the same object the MCP tool returns) instead of text."""
    parser.add_argument("--json", action="store_true", help=f"print {what} as JSON")


def json_text(value: Any) -> str:
    """``value`` as the indented JSON every ``--json`` prints, non-ASCII text as it is."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def out(text: str = "") -> None:
    """Print ``text`` and a line break on stdout, at once.

    A reader that went away (``forge status --json | head``) ends the output
    quietly: what is left goes nowhere, and the command's exit code stands (a
    failed validation still exits 1). Every subcommand prints through this.
    """
    try:
        print(text, flush=True)
    except BrokenPipeError:
        stdout_to_devnull()
        _reader.gone = True


class _Reader:
    """Whether stdout's reader went away (a follow or watch loop then stops)."""

    gone = False


_reader = _Reader()


def reader_gone() -> bool:
    """True once a write to stdout found its reader gone: a loop that prints should stop."""
    return _reader.gone


def stdout_to_devnull() -> None:
    """Send the rest of stdout nowhere: its reader is gone, and Python must not say so at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


def print_json(value: Any) -> None:
    """Print ``value`` as :func:`json_text`."""
    out(json_text(value))


def emit(args: argparse.Namespace, result: Any, text: str) -> None:
    """Print ``result`` (a wire model) as JSON with ``--json``, else ``text``."""
    if getattr(args, "json", False):
        print_json(result.to_wire())
    else:
        out(text)


def warn(command: str, notices: list[str]) -> None:
    """Each notice on stderr as ``forge COMMAND: warning: ...`` (the output stays clean)."""
    for notice in notices:
        print(f"forge {command}: warning: {notice}", file=sys.stderr)
