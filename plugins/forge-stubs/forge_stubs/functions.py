"""What the language rules share: a function and its placeholder, and the text tests.

"Says not implemented" is one test for Python ``raise`` messages and JS/TS
``throw`` messages alike; "asks for an implementation" is one test for
comments in every language; what makes an empty body deliberate rather than
left behind (a test double, a no-op by name, ignored parameters, a default
hook of a base class) is decided once here for both languages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePath

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
    """One function or method of a file and, when its body is a placeholder, which one.

    A ``hardcoded_return`` placeholder is only a candidate: it counts when a
    comment calls the value a placeholder (:func:`says_fake_value`).
    """

    node: Node
    name: str
    placeholder: Placeholder | None


@dataclass(frozen=True)
class FileFacts:
    """What the rules learn about the whole file before judging each function."""

    #: The file is test code (:func:`is_test_file`).
    test_file: bool
    #: Names of the classes other classes of the file extend.
    extended: frozenset[str]
    #: Extra decorator names that make a body a declaration (pluggy hookspec markers).
    declaring_decorators: frozenset[str] = frozenset()


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

#: Words in an error message that declare an abstract member, not a missing one:
#: "must be implemented by subclasses", "override this".
_ABSTRACT = re.compile(
    r"sub-?class|overrid|abstract|derived\s+class|(?:must|should|needs?\s+to)\s+be\s+implemented",
    re.IGNORECASE,
)

#: Words in a NotImplementedError message that say the code is still to come.
_TO_COME = re.compile(
    r"implement|\b(?:yet|soon|later|coming|wip|tbd|todo|fixme|xxx|stub|placeholder)\b",
    re.IGNORECASE,
)

#: Tool directives in a comment: a marker after one is about the suppressed
#: diagnostic (``// @ts-expect-error FIXME``), not about missing code.
_DIRECTIVE = re.compile(
    r"@ts-(?:expect-error|ignore|nocheck)|eslint-disable|biome-ignore|prettier-ignore"
    r"|(?:istanbul|c8|v8)\s+ignore|type:\s*ignore|\bnoqa\b|\bpragma\b|\bpylint:",
    re.IGNORECASE,
)

#: Words in a comment that say a returned value is not the real one yet.
_FAKE_VALUE = re.compile(r"\b(?:placeholder|stub(?:bed)?|fake|dummy|hard-?coded)\b", re.IGNORECASE)

#: Names that say the function is empty on purpose.
_NOOP_NAME = re.compile(r"_*(?:noop|no_op|nop|do_?nothing)", re.IGNORECASE)

#: Methods whose empty body is a complete implementation: nothing to release or flush.
_NOTHING_TO_RELEASE = frozenset(
    {"close", "aclose", "flush", "dispose", "__exit__", "__aexit__", "__del__"}
)

#: Folder names and file-name patterns of test code.
_TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "testing", "spec", "specs"})
#: Folders of stand-ins for something real (yargs' ``platform-shims/``, ``__mocks__/``):
#: their empty bodies are what they stand in with.
_STAND_IN_FOLDER = re.compile(
    r"(?:.*[-_])?(?:shims?|polyfills?|mocks?|__mocks__|fakes?|stubs)", re.IGNORECASE
)
_TEST_FILE = re.compile(
    r"(?:test_.*\.py|.*_test\.py|conftest\.py|.*[._-](?:test|spec)\.[cm]?[jt]sx?)", re.IGNORECASE
)


def marker_in_comment(
    comment: str, options: StubOptions, next_line: str | None = None
) -> int | None:
    """Character offset of the marker that makes ``comment`` a finding, or None.

    With ``marker_scope = "implementation"``, the text after the marker must
    ask for code ("implement this", "stub", "fill in") or say nothing at all
    (a bare ``TODO``); ``"all"`` counts every marker. A marker that ends its
    line is read with ``next_line``, the comment on the line below if any
    (``// FIXME:`` then ``// - the generics here are probably unnecessary``).
    """
    pattern = _marker_pattern(options.markers)
    if pattern is None:
        return None
    for match in pattern.finditer(comment):
        if _quoted(comment, match.start(), match.end()) or _DIRECTIVE.search(
            comment[: match.start()]
        ):
            continue  # commented-out code's 'XXX', or `@ts-expect-error FIXME`
        if options.marker_scope == "all":
            return match.start()
        after, *below = comment[match.end() :].split("\n", 2)[:2]
        after = after.removesuffix("*/")
        if _BARE.fullmatch(after) and (below or next_line is not None):
            after = below[0].removesuffix("*/") if below else str(next_line)
        if _ASKS.search(after) or _BARE.fullmatch(after):
            return match.start()
    return None


def is_intentional(comment: str, options: StubOptions) -> bool:
    """True when a comment or docstring marks a placeholder as deliberate ("does nothing")."""
    folded = " ".join(comment.split()).casefold()  # a docstring may break a phrase across lines
    return any(marker.casefold() in folded for marker in options.intentional)


#: A docstring that opens by declining the work: "Don't write.", "Do not visit ...".
_DECLINES = re.compile(
    r"""[rRbBuU]*(?:'{3}|"{3}|'|")\s*(?:don'?t|do\s+not|never)\b""", re.IGNORECASE
)


def declines(docstring: str) -> bool:
    """True when a docstring opens by declining: ``\"\"\"Don't write.\"\"\"``."""
    return _DECLINES.match(docstring) is not None


def says_abstract(message: str) -> bool:
    """True when an error message declares an abstract member ("must be implemented by subclasses")."""
    return _ABSTRACT.search(message) is not None


def refusal_is_placeholder(message: str | None, options: StubOptions) -> bool:
    """Whether ``raise NotImplementedError(message)`` marks missing code.

    No message, or one that says the code is to come ("not yet", "TODO",
    "implement"), is a placeholder; a message that declares an abstract member
    or explains a deliberate refusal ("use add_unredirected_header()") is not.
    """
    if message is None:
        return True
    if says_abstract(message):
        return False
    return _TO_COME.search(message) is not None or says_not_implemented(message, options)


def says_fake_value(comment: str) -> bool:
    """True when a comment calls a returned value a placeholder, stub, fake or dummy."""
    return _FAKE_VALUE.search(comment) is not None


def is_test_file(path: PurePath) -> bool:
    """True for test code: ``test_*.py``, ``*.test.ts``, ``conftest.py``, files under ``tests/``."""
    return _TEST_FILE.fullmatch(path.name) is not None or any(
        part.lower() in _TEST_FOLDERS for part in path.parts[:-1]
    )


def stands_in(path: PurePath) -> bool:
    """True for files under a folder of stand-ins: ``shims/``, ``polyfills/``, ``mocks/``, ``stubs/``."""
    return any(_STAND_IN_FOLDER.fullmatch(part) for part in path.parts[:-1])


def empty_by_name(name: str) -> bool:
    """True when a function's own name says its empty body is the implementation.

    ``noop`` and friends say so outright; ``close``, ``flush``, ``__exit__``
    with nothing to release are complete when empty.
    """
    return _NOOP_NAME.fullmatch(name) is not None or name in _NOTHING_TO_RELEASE


def ignores_its_parameters(names: list[str]) -> bool:
    """True when every parameter is named ``_``-something: the author says they go unused.

    Such functions exist for their signature (``assertIs<T>(_arg: T): void {}``,
    a processor that does nothing for one case), not for a body still to come.
    """
    return bool(names) and all(name.startswith("_") for name in names)


def _quoted(text: str, start: int, end: int) -> bool:
    """Whether the marker at ``start:end`` is quoted: ``'XXX'``, or inside ``"# TODO: ..."``."""
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    if before in {"'", '"', "`"} or after in {"'", '"', "`"}:
        return True
    # Inside a string that opens before it and closes after it (a comment quoting
    # another comment); apostrophes are left out, "don't" opens nothing.
    return any(text.count(q, 0, start) % 2 == 1 and q in text[end:] for q in ('"', "`"))
