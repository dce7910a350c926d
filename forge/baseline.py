"""Matching findings across revisions: by check, file, message and enclosing symbol, never by line.

An edit above a finding moves it without making it new, so line numbers take
no part; positions written inside a message ("line 4", ":4:2") are taken out
too. What a file was at the base comes from :mod:`forge.git`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

#: Positions inside a message: they move with edits, so they never take part in matching.
_POSITIONS = re.compile(
    r"\b(?:lines?|columns?|col|row)\s+\d+(?:\s*(?:-|to)\s*\d+)?|:\d+(?::\d+)?\b", re.IGNORECASE
)
#: Tree-sitter node types that name a scope a finding can be in.
_SCOPE_WORDS = ("function", "method", "class", "interface", "module", "namespace")


@dataclass(frozen=True)
class Finding:
    """What makes two findings the same one in two revisions: never a line number."""

    check: str
    file: str
    message: str
    symbol: str | None


def finding(check: str, file: str, message: str, symbol: str | None) -> Finding:
    """A :class:`Finding` whose message has its positions ("line 4", ":4:2") taken out."""
    normalized = " ".join(_POSITIONS.sub("#", message).split())
    return Finding(check=check, file=file, message=normalized, symbol=symbol)


def pre_existing(head: Sequence[Finding], base: Iterable[Finding]) -> list[bool]:
    """For each finding of the working revision, whether the base already had it.

    Findings are matched as a multiset: two identical placeholders in one
    function at the base cover two at the head, not a third one added.
    """
    left = Counter(base)
    marks = []
    for item in head:
        marks.append(left[item] > 0)
        if left[item] > 0:
            left[item] -= 1
    return marks


def enclosing_symbol(root_node: Node, line: int, column: int, source: bytes) -> str | None:
    """Dotted names of the functions and classes around a 1-based (line, column) of a tree.

    Any grammar works: a scope is a
    node whose type names a function, method, class, interface, module or
    namespace and that has a ``name`` field. None at module level.
    """
    lines = source.split(b"\n")
    row = max(line - 1, 0)
    text = lines[row] if row < len(lines) else b""
    byte_column = len(text.decode("utf-8", errors="replace")[: max(column - 1, 0)].encode("utf-8"))
    node: Node | None = root_node.descendant_for_point_range((row, byte_column), (row, byte_column))
    names: list[str] = []
    while node is not None:
        if any(word in node.type for word in _SCOPE_WORDS):
            name = node.child_by_field_name("name")
            if name is not None and name.text is not None:
                names.append(name.text.decode("utf-8", errors="replace"))
        node = node.parent
    return ".".join(reversed(names)) or None
