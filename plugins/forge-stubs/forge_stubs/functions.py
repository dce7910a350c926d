"""What the language rules share: a function and its placeholder, and the text tests.

"Says not implemented" is one test for Python ``raise`` messages and JS/TS
``throw`` messages alike; "asks for an implementation" is one test for
comments in every language; what makes an empty body deliberate rather than
left behind (a test double, a no-op by name, ignored parameters, a default
hook of a base class) is decided once here for both languages.
"""

from __future__ import annotations

import re
from collections.abc import Collection
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
    r"implement|\bstub|placeholder|fill\s+(?:this\s+|it\s+|me\s+)?in\b|\bwrite\s+(?:this|me|it)\b"
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
    #: The file's tests are test inputs or documentation examples (:func:`shows_tests`).
    example_tests: bool = False
    #: Extra decorator names that make a body a declaration (pluggy hookspec markers).
    declaring_decorators: frozenset[str] = frozenset()
    #: Methods (``Class.method``) that override a method doing real work in a base
    #: class of another file: left empty, they turn it off.
    overrides: frozenset[str] = frozenset()


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


# Patterns are compiled on first use (by re, which keeps them): a clean file
# needs few of them, and compiling all is ~2 ms of every fresh forge validate.
_ASKS = f"(?i){_ASKS_FOR_CODE}"
_BARE = r"[\W_]*"
_WORDS = r"[^\W\d_]{2,}"


def _line_before(comment: str, offset: int) -> str:
    """The text before ``offset`` on its line, without the comment's opening (``#``, ``//``, ``/*``)."""
    line = comment[:offset].rsplit("\n", 1)[-1]
    return line.lstrip().removeprefix("/*").removeprefix("//").removeprefix("#").lstrip("*! ")


#: Words in an error message that declare an abstract member, not a missing one:
#: "must be implemented by subclasses", "override this".
_ABSTRACT = (
    r"(?i)sub-?class|overrid|abstract|derived\s+class"
    r"|(?:must|should|needs?\s+to)\s+be\s+implemented"
)

#: Words in a NotImplementedError message that say the code is gone on purpose:
#: "Variant is no longer used in SQLAlchemy; this is a placeholder symbol for
#: backwards compatibility." refuses; it does not promise.
_RETIRED = r"(?i)\bno\s+longer\b|\b(?:has\s+been|was|were|been)\s+removed\b|\bremoved\s+in\b"

#: Words in a NotImplementedError message that say the code is still to come.
_TO_COME = r"(?i)implement|\b(?:yet|soon|later|coming|wip|tbd|todo|fixme|xxx|stub|placeholder)\b"

#: Tool directives in a comment: a marker after one is about the suppressed
#: diagnostic (``// @ts-expect-error FIXME``), not about missing code.
_DIRECTIVE = (
    r"(?i)@ts-(?:expect-error|ignore|nocheck)|eslint-disable|biome-ignore|prettier-ignore"
    r"|(?:istanbul|c8|v8)\s+ignore|type:\s*ignore|\bnoqa\b|\bpragma\b|\bpylint:"
)

#: Words in a comment that say a returned value is not the real one yet.
_FAKE_VALUE = r"(?i)\b(?:placeholder|stub(?:bed)?|fake|dummy|hard-?coded)\b"

#: Names that say the function is empty on purpose.
_NOOP_NAME = r"(?i)_*(?:noop|no_op|nop|do_?nothing)"

#: Methods whose empty body is a complete implementation: nothing to release or flush.
_NOTHING_TO_RELEASE = frozenset(
    {"close", "aclose", "flush", "dispose", "__exit__", "__aexit__", "__del__"}
)

#: Folder names and file-name patterns of test code.
_TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "testing", "spec", "specs"})
#: Folders of stand-ins for something real (yargs' ``platform-shims/``, ``__mocks__/``):
#: their empty bodies are what they stand in with.
_STAND_IN_FOLDER = r"(?i)(?:.*[-_])?(?:shims?|polyfills?|mocks?|__mocks__|fakes?|stubs)"
_TEST_FILE = r"(?i)(?:test_.*\.py|.*_test\.py|conftest\.py|.*[._-](?:test|spec)\.[cm]?[jt]sx?)"


#: Folders of test inputs: a file there is data a test reads, and empty if the test needs it so.
_FIXTURE_FOLDER = re.compile(
    # `__testfixtures__` (jscodeshift), `test-fixtures`, `fixtures-esm` too.
    r"_*(?:test[-_]?)?fixtures?(?:[-_]\w+|_*)|testdata|test[-_]?(?:data|assets|files|inputs?)",
    re.IGNORECASE,
)
#: Folders that hold test inputs when they sit under a test folder (typer's ``tests/assets/``).
_TEST_INPUT_FOLDERS = frozenset(
    {"assets", "data", "resources", "samples", "files", "inputs", "examples", "example_scripts"}
)
#: Folders of documentation: the tests there illustrate the docs (pytest's ``doc/en/example/``).
_DOCUMENTATION_FOLDERS = frozenset({"doc", "docs"})
#: File names that say the file is empty on purpose: ``empty.py``, ``empty_script.py``,
#: ``blank.js``, ``emptyModule.ts``; not ``EmptyState.tsx``, whose name is a feature.
_EMPTY_NAME = re.compile(
    r"(?:empty|blank)(?:[-_]?(?:file|module|mod|script|app|cli|main|index|source|src|input"
    r"|fixture|sample|example|test|spec|case|package|pkg|lib|plugin|config|entry|program"
    r"|project|\d+))*",
    re.IGNORECASE,
)
#: Prose that says why a module holds no code: what is not supported or not needed there,
#: "there is no way to", "nothing to test", "intentionally empty". Read over the whole
#: module, lines joined (fastapi: "# FastAPI doesn't currently support non-scalar Path parameters").
_WHY_EMPTY = re.compile(
    r"(?:\bnot|n['\u2019]t|\bnever|\bcannot|\bno\s+longer)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:support|possible|applicable|apply|needed|necessary|required|relevant|testable|test"
    r"|exist|make\s+sense)"
    r"|\bno\s+longer\s+used\b|\bunsupported\b|\bno\s+(?:way|support|need)\b|\bnothing\s+to\b"
    r"|\b(?:intentionally|deliberately|purposely|on\s+purpose)\b|\bleft\s+(?:blank|empty)\b",
    re.IGNORECASE,
)
#: Words that say the code is still to come: an explanation holding one is a placeholder's
#: ("# Not supported yet", "# Empty for now").
_STILL_TO_COME = re.compile(r"\b(?:yet|soon|later|coming|wip|tbd|for\s+now)\b", re.IGNORECASE)


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
        if _quoted(comment, match.start(), match.end()) or re.search(
            _DIRECTIVE, comment[: match.start()]
        ):
            continue  # commented-out code's 'XXX', or `@ts-expect-error FIXME`
        if options.marker_scope == "all":
            return match.start()
        after, *below = comment[match.end() :].split("\n", 2)[:2]
        after = after.removesuffix("*/")
        if re.fullmatch(_BARE, after) and re.search(_WORDS, _line_before(comment, match.start())):
            continue  # "Consider it a TODO.": the word in a sentence, not a tag
        if re.fullmatch(_BARE, after) and (below or next_line is not None):
            after = below[0].removesuffix("*/") if below else str(next_line)
        if after.rstrip().endswith("?"):
            continue  # "TODO should we implement it everywhere?": a question, not missing code
        if re.search(_ASKS, after) or re.fullmatch(_BARE, after):
            return match.start()
    return None


def is_intentional(comment: str, options: StubOptions) -> bool:
    """True when a comment or docstring marks a placeholder as deliberate ("does nothing")."""
    folded = " ".join(comment.split()).casefold()  # a docstring may break a phrase across lines
    return any(marker.casefold() in folded for marker in options.intentional)


#: A docstring that opens by declining the work: "Don't write.", "Do not visit ...".
_DECLINES = r"""(?i)[rRbBuU]*(?:'{3}|"{3}|'|")\s*(?:don'?t|do\s+not|never)\b"""


def declines(docstring: str) -> bool:
    """True when a docstring opens by declining: ``\"\"\"Don't write.\"\"\"``."""
    return re.match(_DECLINES, docstring) is not None


def says_abstract(message: str) -> bool:
    """True when an error message declares an abstract member ("must be implemented by subclasses")."""
    return re.search(_ABSTRACT, message) is not None


def refusal_is_placeholder(
    message: str | None, options: StubOptions, names: Collection[str] = ()
) -> bool:
    """Whether ``raise NotImplementedError(message)`` marks missing code.

    No message, one that says nothing but ``names`` (the function's own name
    and its class's: ``NotImplementedError("Exporter.flush")``), or one that
    says the code is to come ("not yet", "TODO", "implement"), is a
    placeholder; a message that declares an abstract member or explains a
    deliberate refusal ("use add_unredirected_header()") is not.
    """
    if message is None or only_names(message, names):
        return True
    if says_abstract(message) or re.search(_RETIRED, message) is not None:
        return False
    return re.search(_TO_COME, message) is not None or says_not_implemented(message, options)


#: A string literal in source: its prefix, its quotes, its text.
_LITERAL = re.compile(r"[rRbBuUfF]{0,2}('{3}|\"{3}|'|\"|`)(.*?)\1", re.DOTALL)
#: What a literal fills in at run time: ``{type(self).__name__}``, ``${name}``.
_FILLED_IN = re.compile(r"\$?\{[^{}]*\}")


def only_names(message: str, names: Collection[str]) -> bool:
    """True when the string literals of ``message`` hold nothing but some of ``names``.

    ``"export"``, ``"Exporter.flush()"``, ``f"{type(self).__name__}.close"``:
    words that name the function say nothing about why it is missing. What is
    filled in at run time is left out; one word that is no name ("operator
    %s is not supported") is a real message.
    """
    if not names:
        return False
    text = " ".join(match.group(2) for match in _LITERAL.finditer(message))
    words = re.findall(r"[^\W\d]\w*", _FILLED_IN.sub(" ", text))
    folded = {name.casefold() for name in names}
    return bool(words) and all(word.casefold() in folded for word in words)


def says_fake_value(comment: str) -> bool:
    """True when a comment calls a returned value a placeholder, stub, fake or dummy."""
    return re.search(_FAKE_VALUE, comment) is not None


def is_test_file(path: PurePath) -> bool:
    """True for test code: ``test_*.py``, ``*.test.ts``, ``conftest.py``, files under ``tests/``."""
    return re.fullmatch(_TEST_FILE, path.name) is not None or any(
        part.lower() in _TEST_FOLDERS for part in path.parts[:-1]
    )


def stands_in(path: PurePath) -> bool:
    """True for files under a folder of stand-ins: ``shims/``, ``polyfills/``, ``mocks/``, ``stubs/``."""
    return any(re.fullmatch(_STAND_IN_FOLDER, part) for part in path.parts[:-1])


def empty_by_name(name: str) -> bool:
    """True when a function's own name says its empty body is the implementation.

    ``noop`` and friends say so outright; ``close``, ``flush``, ``__exit__``
    with nothing to release are complete when empty.
    """
    return re.fullmatch(_NOOP_NAME, name) is not None or name in _NOTHING_TO_RELEASE


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


def is_fixture(path: PurePath) -> bool:
    """True for test inputs: files under ``fixtures/``, ``__fixtures__/``, ``testdata/``, or
    under ``assets/``, ``data/``, ... inside a test folder (``tests/assets/cli/``)."""
    folders = [part.lower() for part in path.parts[:-1]]
    return any(
        _FIXTURE_FOLDER.fullmatch(folder)
        or (folder in _TEST_INPUT_FOLDERS and not _TEST_FOLDERS.isdisjoint(folders[:index]))
        for index, folder in enumerate(folders)
    )


def shows_tests(path: PurePath) -> bool:
    """True for files whose tests are inputs or illustrations, not the project's tests.

    Test inputs (:func:`is_fixture`: pytest's ``testing/example_scripts/``, black's
    ``tests/data/cases/``) are collected or formatted by the project's real
    tests; files under ``doc/`` or ``docs/`` show how tests are written. An
    empty test there is the example, not a test left unwritten.
    """
    folders = {part.lower() for part in path.parts[:-1]}
    return is_fixture(path) or not _DOCUMENTATION_FOLDERS.isdisjoint(folders)


def named_empty(path: PurePath) -> bool:
    """True when the file's name says it is empty on purpose: ``empty_script.py``, ``blank.js``."""
    return _EMPTY_NAME.fullmatch(path.name.split(".", 1)[0]) is not None


def explains_emptiness(text: str, options: StubOptions) -> bool:
    """True when a module's comments or docstring say why it holds no code.

    ``# Optional Path parameters are not supported``, ``// intentionally empty``, or
    any of the ``intentional`` phrases; not when they say the code is to come
    ("not supported yet", "not implemented", "stub", a marker such as TODO).
    """
    prose = " ".join(text.split())
    if says_not_implemented(prose, options) or _STILL_TO_COME.search(prose):
        return False
    return _WHY_EMPTY.search(prose) is not None or is_intentional(prose, options)


def empty_on_purpose(path: PurePath, text: str, options: StubOptions) -> bool:
    """True when a module without code is meant to be so: its name, its folder or its text says it.

    A name (``empty_script.py``), a folder of test inputs or stand-ins
    (:func:`is_fixture`, :func:`stands_in`), or comments that explain the emptiness
    (:func:`explains_emptiness`).
    """
    return (
        named_empty(path)
        or is_fixture(path)
        or stands_in(path)
        or explains_emptiness(text, options)
    )
