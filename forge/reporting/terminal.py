"""Text for a terminal: colours when they are on, one-line escapes, tables, durations.

Shared by every front end that prints (the CLI's subcommands, the hook's answers,
the text reports), so that a name with a newline in it reads the same everywhere.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import TextIO


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


def format_duration(seconds: float) -> str:
    """``3.2s``, ``3m19s``, ``1h02m``: short and stable in width for status lines."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"
