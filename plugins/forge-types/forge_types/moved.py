"""A diagnostic that moved with its unchanged code: the same one, whatever its function is
now called or wherever in the file it went.

Matching by enclosing symbol makes an honest rename (``test_total`` to
``test_sum_of_items``) turn every old diagnostic inside it new. So each
diagnostic also carries the key of its code: the innermost function or class
around it, its text with its own name taken out and each line's indentation
dropped (a method moved to module level keeps its key), and the diagnostic's
line within it. A diagnostic the symbol match calls new is old when the base
has one of the same rule, message and code key.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

#: Tree-sitter node types that are a named scope (functions, methods, classes).
_SCOPE_WORDS = ("function", "method", "class")


def code_key(root_node: Node, line: int, column: int, source: bytes) -> str | None:
    """The key of the code around a 1-based (line, column); None at module level."""
    lines = source.split(b"\n")
    row = max(line - 1, 0)
    text = lines[row] if row < len(lines) else b""
    byte_column = len(text.decode("utf-8", errors="replace")[: max(column - 1, 0)].encode("utf-8"))
    node: Node | None = root_node.descendant_for_point_range((row, byte_column), (row, byte_column))
    while node is not None:
        name = node.child_by_field_name("name")
        if name is not None and any(word in node.type for word in _SCOPE_WORDS):
            body = source[node.start_byte : name.start_byte] + source[name.end_byte : node.end_byte]
            stripped = b"\n".join(part.strip() for part in body.split(b"\n"))
            offset = str(row - node.start_point[0]).encode()
            return hashlib.sha256(stripped + b"\0" + offset).hexdigest()[:24]
        node = node.parent
    return None
