"""What the language rules share: a function and its placeholder, and the text tests.

"Says not implemented" is one test for Python ``raise`` messages and JS/TS
``throw`` messages alike; "asks for an implementation" is one test for
comments in every language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tree_sitter import Node

from forge_stubs.models import Kind
from forge_stubs.options import StubOptions

#: A placeholder body: its kind, and the node the finding points at.
Placeholder = tuple[Kind, Node]

#: Phrases in an error message that say the code is missing.
_NOT_IMPLEMENTED = (
    r"not\s+(?:yet\s+)?implemented|unimplemented|implement\s+me|\bstub\b|\bplaceholder\b"
)

#: Phrases after a comment marker that ask for an implementation.
_ASKS_FOR_CODE = (
    r"implement|\bstub|placeholder|fill\s+(?:this\s+|it\s+|me\s+)?in\b|write\s+(?:this|me|it)\b"
    r"|your\s+code|add\s+(?:the\s+)?(?:logic|code|body|implementation)"
    r"|not\s+(?:yet\s+)?(?:done|written|finished|complete)"
)


@dataclass(frozen=True)
class Function:
    """One function or method of a file and, when its body is a placeholder, which one."""

    node: Node
    name: str
    placeholder: Placeholder | None


def says_not_implemented(message: str, options: StubOptions) -> bool:
    """True when an error message says the code is not there ("not implemented", "TODO")."""
    return _message_pattern(options.markers).search(message) is not None


@lru_cache(maxsize=32)
def _message_pattern(markers: tuple[str, ...]) -> re.Pattern[str]:
    words = "|".join(rf"\b{re.escape(marker)}\b" for marker in markers)
    return re.compile(f"{_NOT_IMPLEMENTED}|{words}" if words else _NOT_IMPLEMENTED, re.IGNORECASE)


@lru_cache(maxsize=32)
def _marker_pattern(markers: tuple[str, ...]) -> re.Pattern[str] | None:
    if not markers:
        return None
    alternatives = "|".join(re.escape(marker) for marker in markers)
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")


_ASKS = re.compile(_ASKS_FOR_CODE, re.IGNORECASE)
_BARE = re.compile(r"[\W_]*")


def marker_in_comment(comment: str, options: StubOptions) -> int | None:
    """Character offset of the marker that makes ``comment`` a finding, or None.

    With ``marker_scope = "implementation"``, the text after the marker must
    ask for code ("implement this", "stub", "fill in") or say nothing at all
    (a bare ``TODO``); ``"all"`` counts every marker.
    """
    pattern = _marker_pattern(options.markers)
    if pattern is None:
        return None
    for match in pattern.finditer(comment):
        if options.marker_scope == "all":
            return match.start()
        after = comment[match.end() :].split("\n", 1)[0].removesuffix("*/")
        if _ASKS.search(after) or _BARE.fullmatch(after):
            return match.start()
    return None


def is_intentional(comment: str, options: StubOptions) -> bool:
    """True when ``comment`` marks a placeholder as deliberate ("intentionally empty")."""
    folded = comment.casefold()
    return any(marker.casefold() in folded for marker in options.intentional)
