"""Placeholders the body-shape rules miss (issue 40): a value left for later, a concrete
method overridden by a refusal, ``assert False`` standing in for code.

- A marker comment tied to a ``return`` of a bare name or literal, whose words
  say what the value still needs (``return total  # TODO: apply the discount``,
  ``return null; // TODO: compute``, ``// TODO: add sales tax`` on the line
  above ``return cents;``): the function returns its input, or nothing, where
  the comment says a computation belongs. A marker about anything else
  (``// TODO: remove in v5``) on a return is a real to-do, not a placeholder.
- ``raise NotImplementedError("...")`` as a whole method, overriding a method
  of the same name that does real work in a base class of the file (or of
  another file: :mod:`forge_stubs.inheritance`), whatever its message, unless
  the message explains a refusal (``"read-only"``, ``"use put() instead"``).
- ``assert False, "not written yet"`` (or ``assert 0``) as a whole body, with
  a message saying the code is to come.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from forge_stubs.functions import refusal_is_placeholder
from forge_stubs.options import StubOptions
from forge_stubs.source import Source

#: What the words after a marker ask to do to the returned value.
_VALUE_VERBS = re.compile(
    r"(?i)\W*(?:\([^)]*\)\W*)?(?:apply|add|compute|calculate|subtract|deduct|include|round"
    r"|convert|sum|multiply|divide|charge|count|derive|scale|fetch|load|look\s+up|return)\b"
)
#: A returned value that passes something through unchanged, or nothing at all.
_PLAIN_VALUES = frozenset(
    {
        "identifier",
        "null",
        "undefined",
        "none",
        "true",
        "false",
        "number",
        "integer",
        "float",
        "string",
    }
)
#: Words of an error message that explain a refusal: the method is finished.
_REFUSES = re.compile(
    r"(?i)\b(?:use|instead|cannot|can'?t|not\s+supported|unsupported|does\s+not|doesn'?t"
    r"|only|read[- ]only|immutable|not\s+allowed|deprecated|removed|no\s+longer|forbidden)\b"
)


def deferred_value(src: Source, comment: Node, options: StubOptions) -> int | None:
    """Offset in ``comment``'s text of a marker that defers a returned value, or None."""
    text = src.text(comment)
    markers = "|".join(re.escape(marker) for marker in options.markers)
    if not markers:
        return None
    found = re.search(rf"(?<![\w])(?:{markers})(?![\w])", text)
    if found is None or not _VALUE_VERBS.match(text[found.end() :]):
        return None
    statement = _return_beside(comment)
    if statement is None or not _plain(statement):
        return None
    return found.start()


def _return_beside(comment: Node) -> Node | None:
    """The ``return`` the comment trails on its line, or the one on the line right below it."""
    before = comment.prev_named_sibling
    if (
        before is not None
        and before.type == "return_statement"
        and before.end_point.row == comment.start_point.row
    ):
        return before
    after = comment.next_named_sibling
    while after is not None and after.type == "comment":
        after = after.next_named_sibling  # a comment block above the return
    if (
        after is not None
        and after.type == "return_statement"
        and after.start_point.row <= comment.end_point.row + 1 + _comment_rows(comment)
    ):
        return after
    return None


def _comment_rows(comment: Node) -> int:
    """Rows of the comments that follow ``comment`` without a gap."""
    rows, current = 0, comment
    following = current.next_named_sibling
    while following is not None and following.type == "comment":
        if following.start_point.row != current.end_point.row + 1:
            break
        rows += following.end_point.row - following.start_point.row + 1
        current, following = following, following.next_named_sibling
    return rows


def _plain(statement: Node) -> bool:
    values = [child for child in statement.named_children if child.type != "comment"]
    return not values or (len(values) == 1 and values[0].type in _PLAIN_VALUES)


def refuses(message: str | None) -> bool:
    """True when an error message explains a refusal (the method is complete)."""
    return message is not None and _REFUSES.search(message) is not None


def asserts_placeholder(src: Source, statement: Node, options: StubOptions) -> bool:
    """``assert False, "<to come>"`` (or ``assert 0``): code still to write."""
    if statement.type != "assert_statement" or not statement.named_children:
        return False
    condition = statement.named_children[0]
    if condition.type not in {"false", "integer"} or src.text(condition) not in {"False", "0"}:
        return False
    message = statement.named_children[1] if len(statement.named_children) > 1 else None
    if message is None or message.type != "string":
        return False  # `assert False` alone: an unreachable branch as often as not
    return refusal_is_placeholder(src.text(message), options)
