"""The syntax authority for JavaScript, TypeScript and TSX: oxc's parser, in-process.

``oxc-python`` (bindings to the oxc parser, a standards-tracking JS/TS parser
written in Rust) is a default dependency wherever it has wheels. When it is
not importable, :func:`load_authority` raises and tree-sitter decides alone;
``forge plugins`` says which parser decides for each language.

Parse goals follow the file, as node and TypeScript do:

- ``.ts`` ``.mts`` ``.cts``: TypeScript; ``.tsx``: TypeScript with JSX;
  ``.d.ts``: a declaration file (``export const x: T;`` is fine there);
- ``.mjs``: a module; ``.cjs``: CommonJS (a script, run as a function body
  the way node wraps it); ``.jsx``: a module with JSX;
- ``.js``: a module (with JSX) under a ``package.json`` whose ``"type"`` is
  ``"module"``; otherwise CommonJS, and, failing that, a module with JSX:
  node runs a ``.js`` file with ``import``/``export`` or top-level ``await`` as
  ESM, and bundlers take JSX in ``.js`` files.

oxc-python 0.1.1 reports every error at offset 0, so the place is found by
bisection over prefixes of the file (see :func:`_locate`); a cut file's
``... found `EOF``` is at its end.

oxc recurses once per nesting level (up to about 2 KB of stack each), and a
Rust stack overflow kills the process, so every parse runs on one worker
thread with a 1 GiB stack (address space, not memory), and a file that might
nest deeper than that (:func:`_fits_the_stack`: over 256 KB, and deep
brackets or over ~1 MB) gets no verdict: tree-sitter decides.
"""

from __future__ import annotations

import importlib
import itertools
import json
import os
import queue
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from forge.languages.oxc_early import early_error, let_as_identifier
from forge.languages.project_files import nearest_value
from forge.models import SyntaxAuthority, SyntaxVerdict
from forge.plugin_host.entry_points import installed_version

DISTRIBUTION = "oxc-python"
#: Stack of the parser thread (address space, touched only as deep as a file nests).
STACK_BYTES = 1 << 30
#: Stack oxc takes per level, measured on oxc-python 0.1.1 (x86_64), with a margin:
#: a bracket level (`(`, `[`, `{`: one byte each) up to ~2 KB; a level without one
#: (`!`, `-`, `new`, `a ?`, `=>`, `if (a)`) at most ~512 bytes per byte of source.
BRACKET_LEVEL_BYTES = 4096
OTHER_LEVEL_BYTES_PER_BYTE = 1024
#: Files up to this size cannot nest deeper than the stack holds, whatever they hold.
ALWAYS_SAFE_BYTES = STACK_BYTES // BRACKET_LEVEL_BYTES

_GOALS = {
    ".ts": ("ts",),
    ".mts": ("ts",),
    ".cts": ("ts",),
    ".tsx": ("tsx",),
    ".mjs": ("module",),
    ".cjs": ("commonjs",),
    ".jsx": ("jsx",),
}
#: CommonJS is a script run as a function body, as node wraps it (a top-level
#: `return` is valid). Places are computed on the file's own text, unwrapped. The
#: file starts a line of its own: an HTML-like `-->` comment is one only at a line start.
_COMMONJS_OPEN = "(function (exports, require, module, __filename, __dirname) {\n"
_COMMONJS_CLOSE = "\n})"
#: oxc-python parses no declaration file (.d.ts) as such: what their ambient context allows.
_AMBIENT = frozenset({"Missing initializer in const declaration"})
_EOF = "found `EOF`"
#: Invalid anywhere in JS/TS outside strings and comments (see _locate).
_MARKER = "\x01"
_OPENERS = bytes(range(256)).translate(None, b"([{)]}")  # every byte but the brackets
_SIGNS = bytes.maketrans(b"([{)]}", b"\x01\x01\x01\xff\xff\xff")


class Outcome(NamedTuple):
    """One parse: oxc's error messages, or the first early error of a tree it accepted."""

    messages: list[str]
    #: (message, character offset in the file's own text), found on the tree.
    early: tuple[str, int] | None


class ParserFailed(Exception):
    """oxc-python raised or panicked (a Rust panic is a BaseException): no verdict."""


class _ParserThread:
    """One daemon thread with a large stack that runs every oxc parse."""

    def __init__(self, parse: Callable[..., Any]) -> None:
        self._parse = parse
        self._jobs: queue.SimpleQueue[tuple[str, str, queue.SimpleQueue[Any]] | None] = (
            queue.SimpleQueue()
        )
        # threading.stack_size is process-wide: set it only while this thread starts.
        previous = threading.stack_size(STACK_BYTES)
        try:
            self._thread = threading.Thread(target=self._serve, name="forge-oxc", daemon=True)
            self._thread.start()
        finally:
            threading.stack_size(previous)

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:  # stop(): the thread ends
                return
            source, goal, reply = job
            try:
                reply.put(self._outcome(source, goal))
            except BaseException as exc:  # handed to the caller, never kills the thread
                reply.put(exc)

    def _outcome(self, source: str, goal: str) -> Outcome:
        kind, prefix = goal, ""
        if goal == "commonjs":
            if source.startswith("#!"):  # node strips a hashbang before wrapping
                source = "//" + source[2:]
            source, kind, prefix = (
                _COMMONJS_OPEN + source + _COMMONJS_CLOSE,
                "script",
                _COMMONJS_OPEN,
            )
        elif goal == "dts":
            kind = "ts"
        result = self._parse(source, source_type=kind)
        if not result.is_valid and kind == "script":
            respelled = let_as_identifier(source)  # oxc 0.1.1 refuses `let` as a name
            if respelled is not None:
                second = self._parse(respelled, source_type=kind)
                result = second if second.is_valid else result
        messages = [] if result.is_valid else [str(e.message) for e in result.errors]
        if goal == "dts":
            messages = [m for m in messages if m not in _AMBIENT]
        if messages:
            return Outcome(messages, None)
        early = early_error(result.program, source, goal)
        if early is None:
            return Outcome([], None)
        message, offset = early
        # oxc counts UTF-8 bytes; places are characters of the file's own text.
        before = source.encode("utf-8")[:offset].decode("utf-8", errors="ignore")
        return Outcome([], (message, len(before) - len(prefix)))

    def stop(self) -> None:
        """End the thread once it has finished the jobs already queued."""
        self._jobs.put(None)
        self._thread.join()

    def outcome(self, source: str, goal: str) -> Outcome:
        """oxc's verdict on ``source`` parsed with ``goal``."""
        reply: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._jobs.put((source, goal, reply))
        outcome = reply.get()
        if isinstance(outcome, BaseException):
            raise ParserFailed(f"{type(outcome).__name__}: {outcome}") from outcome
        assert isinstance(outcome, Outcome)
        return outcome

    def errors(self, source: str, goal: str) -> list[str]:
        """oxc's parse error messages for ``source`` parsed with ``goal``; [] when it parses."""
        return self.outcome(source, goal).messages


_parser: _ParserThread | None = None
_parser_lock = threading.Lock()


def release_parser() -> None:
    """End the parser thread; the next check starts a new one.

    For a process about to fork workers (the forge daemon): it then forks
    with one thread, as fork wants.
    """
    global _parser
    with _parser_lock:
        if _parser is not None:
            _parser.stop()
        _parser = None


def _forget_parser_in_child() -> None:
    # A forked child has no parser thread (fork copies only the calling
    # thread): a check would wait forever on the dead thread's queue.
    global _parser, _parser_lock
    _parser = None
    _parser_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_parser_in_child)


def version() -> str | None:
    """The installed oxc-python version, or None."""
    return installed_version(DISTRIBUTION)


def load_authority() -> SyntaxAuthority:
    """The oxc authority; ``ImportError`` when oxc-python is not importable.

    forge then lets tree-sitter decide alone and ``forge plugins`` shows why.
    JavaScript, TypeScript and TSX share one parser thread.
    """
    global _parser
    try:
        # By name: the package's stubs do not declare the extension's functions.
        oxc_python: Any = importlib.import_module("oxc_python")
    except ImportError as exc:
        raise ImportError(
            f"{DISTRIBUTION} is not importable ({exc}): no wheel for this platform? "
            f"pip install {DISTRIBUTION}"
        ) from None
    with _parser_lock:
        if _parser is None:
            _parser = _ParserThread(oxc_python.parse)
        parser = _parser
    return SyntaxAuthority(
        name=f"oxc (oxc-python {version() or '?'})",
        check=lambda path, source: check(parser, path, source),
        context=package_type,  # the one input of goals() besides the file's name
    )


def check(parser: _ParserThread, path: Path, source: bytes) -> SyntaxVerdict | None:
    """oxc's verdict on ``path``: valid when any of its parse goals accepts it."""
    if len(source) > ALWAYS_SAFE_BYTES and not _fits_the_stack(source):
        return None
    text = source.decode("utf-8", errors="replace")
    first: tuple[str, Outcome] | None = None
    for goal in goals(path):
        try:
            outcome = parser.outcome(text, goal)
        except ParserFailed:
            return None
        if not outcome.messages and outcome.early is None:
            return SyntaxVerdict(valid=True)
        first = first or (goal, outcome)
    assert first is not None
    goal, outcome = first
    if outcome.messages:
        return _locate(parser, text, goal, outcome.messages[0])
    assert outcome.early is not None
    message, offset = outcome.early
    return _verdict_at(text, offset, message)


def uses_jsx(text: str) -> bool:
    """Whether ``text`` parses as a module only with JSX (oxc's parser; no verdict: False)."""
    global _parser
    with _parser_lock:
        if _parser is None:  # released (a daemon before it forks): start another
            _parser = _ParserThread(importlib.import_module("oxc_python").parse)
        parser = _parser
    try:
        return bool(parser.errors(text, "module")) and not parser.errors(text, "jsx")
    except ParserFailed:
        return False


def goals(path: Path) -> tuple[str, ...]:
    """oxc source types to try for ``path``, the file's own goal first."""
    name = path.name.lower()
    if name.endswith((".d.ts", ".d.mts", ".d.cts")) or (".d." in name and name.endswith(".ts")):
        return ("dts",)
    suffix = name[name.rfind(".") :] if "." in name else ""
    if suffix in _GOALS:
        return _GOALS[suffix]
    if package_type(path.parent) == "module":
        return ("jsx",)
    return ("commonjs", "jsx")


def package_type(directory: Path) -> str | None:
    """The ``"type"`` of the nearest ``package.json`` at or above ``directory``."""
    return nearest_value(directory, "package.json", _type_field)


def _type_field(contents: bytes) -> str | None:
    document = json.loads(contents)
    value = document.get("type") if isinstance(document, dict) else None
    return value if isinstance(value, str) else None


def _fits_the_stack(source: bytes) -> bool:
    """Whether oxc's recursion on ``source`` surely fits the parser thread's stack."""
    if len(source) * OTHER_LEVEL_BYTES_PER_BYTE > STACK_BYTES:
        return False
    brackets = source.translate(_SIGNS, _OPENERS)
    # Signed bytes, summed in C: the running sum is the bracket depth.
    depth = max(itertools.accumulate(memoryview(brackets).cast("b")), default=0)
    needed = depth * BRACKET_LEVEL_BYTES + len(source) * OTHER_LEVEL_BYTES_PER_BYTE
    return needed <= STACK_BYTES


def _locate(parser: _ParserThread, text: str, goal: str, message: str) -> SyntaxVerdict:
    """The verdict for a rejected file, placed by bisection (oxc-python gives no offsets).

    oxc stops at its first error, so every prefix that reaches past the culprit
    fails with the same message. A prefix that stops short would fail at its
    end instead, so a character no JS/TS token holds is appended: short of the
    culprit, that character is the first error; past it, never reached.
    """

    def fails_here(end: int, marker: str) -> bool:
        try:
            messages = parser.errors(text[:end] + marker, goal)
        except ParserFailed:  # oxc-python 0.1.1 panics on some cut multi-byte text
            return False
        # Past a recoverable error, a cut adds an error of its own, not always after it.
        return bool(messages) and (messages[0] == message if marker else message in messages)

    if _EOF in message:
        end = len(text.rstrip())
    else:
        # A recoverable error (oxc goes on after it) ranks after the marker's:
        # then prefixes alone, which a cut in mid-expression can fool.
        marker = _MARKER if fails_here(len(text), _MARKER) else ""
        low, end = 0, len(text)
        while end - low > 1:
            middle = (low + end) // 2
            if fails_here(middle, marker):
                end = middle
            else:
                low = middle
        # Back to the start of a word token: point at `foo`, not its last letter.
        while end > 1 and _word(text[end - 1]) and _word(text[end - 2]):
            end -= 1
    offset = min(max(end, 1) - 1, max(len(text) - 1, 0))
    if message == "Unexpected token":
        token = re.match(r"[\w$]+|\S", text[offset:])
        message = f"unexpected token `{token.group()}`" if token else "unexpected end of file"
    return _verdict_at(text, offset, message)


def _verdict_at(text: str, offset: int, message: str) -> SyntaxVerdict:
    """A rejection at character ``offset`` of ``text``, as a line and a column."""
    line_start = text.rfind("\n", 0, offset) + 1
    line = text.count("\n", 0, offset) + 1
    return SyntaxVerdict(valid=False, line=line, column=offset - line_start + 1, message=message)


def _word(char: str) -> bool:
    return char.isalnum() or char in "_$"
