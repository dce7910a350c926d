"""Small helpers shared by the subcommands: text output, request models, start-up."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel


def use_color(stream: TextIO = sys.stdout) -> bool:
    """Colours only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    return "NO_COLOR" not in os.environ and stream.isatty()


def paint(text: str, color: str, stream: TextIO = sys.stdout) -> str:
    """``text`` in ``color`` (red, green, yellow, dim, bold) when colours are on."""
    codes = {"red": "31", "green": "32", "yellow": "33", "dim": "2", "bold": "1"}
    return f"\033[{codes[color]}m{text}\033[0m" if use_color(stream) else text


#: Characters that would break a line of text output or drive the terminal: C0 and C1
#: controls, DEL, and the Unicode line and paragraph separators.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED_ESCAPES.get(char)
    if named is not None:
        return named
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def printable(text: str) -> str:
    """``text`` for one line of text output: each control character as its escape (``\\n``).

    A file may be named ``bad\\nname.py``: printed raw, its finding would span
    two lines (the second read as a finding of its own) and an escape sequence
    in a name would drive the terminal. Only text output escapes; JSON, SARIF
    and JUnit carry the real name.
    """
    return _UNPRINTABLE.sub(_escape, text) if _UNPRINTABLE.search(text) else text


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain left-aligned table; the last column is not padded."""
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]
    lines = []
    for row in [headers, *rows]:
        cells = [str(cell).ljust(widths[i]) for i, cell in enumerate(row[:-1])]
        lines.append("  ".join([*cells, str(row[-1])]).rstrip())
    return "\n".join(lines)


M = TypeVar("M", bound="BaseModel")


def build_request(
    model: type[M],
    args: argparse.Namespace,
    *,
    flags: Mapping[str, str] | None = None,
    **overrides: Any,
) -> M:
    """A tool's request model from the parsed flags named like its fields (and ``overrides``).

    The CLI builds the same request models as the MCP tools, so every limit is
    checked in one place; a bad value is a usage error (exit 2) naming the flag
    the user typed: ``max_attempts`` is ``--max-attempts``, and ``flags`` names
    the others (``{"commands": "--command"}``).
    """
    from pydantic import ValidationError

    from forge.errors import UsageError, describe_validation_error

    values = {name: getattr(args, name) for name in model.model_fields if hasattr(args, name)}
    try:
        return model(**values | overrides)
    except ValidationError as exc:
        raise UsageError(describe_validation_error(exc, names=flag_names(model, flags))) from None


def flag_names(model: type[BaseModel], flags: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each field of ``model`` as the CLI spells its flag: ``--`` and dashes, unless ``flags``
    says otherwise."""
    return {name: "--" + name.replace("_", "-") for name in model.model_fields} | dict(flags or {})


@contextlib.contextmanager
def fresh_command() -> Iterator[None]:
    """Around a command a fresh process runs often (validate, hook, plan check).

    pydantic's plugin lookup is answered from the entry-point cache
    (:mod:`forge.plugin_host.pydantic_lookup`), and every lookup of the command shares
    one reading of that cache (:func:`forge.plugin_host.entry_points.one_reading`).
    """
    from forge.plugin_host.entry_points import one_reading
    from forge.plugin_host.pydantic_lookup import answer_plugin_lookup_from_cache

    answer_plugin_lookup_from_cache()
    with one_reading():
        yield


@contextlib.contextmanager
def startup_without_gc() -> Iterator[None]:
    """Cyclic GC off while a fresh command starts: imports, pydantic models, plugins.

    Start-up allocates a lot and frees almost nothing, and the GC passes over
    it cost 3-5% of a ``forge plan check``, ``forge validate`` or ``forge hook``.
    On leaving, what was built is frozen (never scanned again) and GC is back
    as it was. Wrap start-up and one bounded unit of work, never a loop over
    a plan's modules.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
