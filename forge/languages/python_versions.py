"""Syntax a newer Python accepts: which versions a project allows, and that syntax set aside.

forge judges Python with the ``compile()`` of the interpreter it runs on. A
project that allows a newer Python (no ``requires-python``, or one without an
upper bound below the next version) may use syntax this interpreter rejects:
PEP 695 type parameters and ``type`` aliases, PEP 696 defaults, PEP 701
f-strings, PEP 654 ``except*``, PEP 758 ``except A, B:``, PEP 750 t-strings.
Such a rejection is no syntax error. :func:`without_newer_syntax` finds those
constructs with tree-sitter (whose grammar knows them) and replaces each with
older code of the same length, lines kept, so that ``compile()`` can still
judge the rest of the file.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from forge.languages import grammars

if TYPE_CHECKING:
    import tree_sitter

#: A version as (major, minor).
Version = tuple[int, int]

_VERSION = r"v?(\d+)(?:\.(\d+))?(?:\.(\d+|\*))?"
_CLAUSE = re.compile(rf"^\s*(===|==|~=|<=|<|>=|>|!=)\s*{_VERSION}\s*$")
#: An ERROR tree-sitter-python 0.25 leaves in a PEP 696 default (``[T = int]``): its gap.
_DEFAULT_GAP = re.compile(r"\*{0,2}\s*[A-Za-z_]\w*\s*=")
#: What in an f-string's replacement field only PEP 701 allows (beside the outer quote).
_PEP_701 = ("\\", "#")

_local = threading.local()


def highest_version(specifier: str) -> Version | None:
    """The highest (major, minor) a PEP 440 specifier allows; None when it has no upper bound.

    ``<3.12`` and ``==3.11.*`` give (3, 11); ``>=3.10`` gives None; ``~=3.10``
    gives (3, 99), any 3.x.
    """
    caps: list[Version] = []
    for clause in specifier.split(","):
        match = _CLAUSE.match(clause)
        if match is None:
            continue
        operator, major_text, minor_text, patch = match.groups()
        major = int(major_text)
        if minor_text is None:  # ==3, <=3, <3: a whole major version
            if operator in {"==", "===", "<="}:
                caps.append((major, 99))
            elif operator == "<":
                caps.append((major - 1, 99))
            continue
        minor = int(minor_text)
        if operator in {"==", "===", "<="}:
            caps.append((major, minor))
        elif operator == "<":
            released = patch not in {None, "0", "*"}  # <3.12.1 allows 3.12.0
            caps.append((major, minor) if released else (major, minor - 1))
        elif operator == "~=":
            caps.append((major, minor) if patch is not None else (major, 99))
    return min(caps) if caps else None


def running() -> Version:
    """This interpreter's (major, minor)."""
    return sys.version_info[0], sys.version_info[1]


def allows_newer(highest: Version | None) -> bool:
    """Whether a project capped at ``highest`` (None: no cap) allows a Python newer than this."""
    return highest is None or highest > running()


@dataclass(frozen=True)
class _Span:
    """Characters ``start:end`` of the source, to be replaced by code of the same length."""

    start: int
    end: int
    kind: str
    name: str = ""


def without_newer_syntax(source: str, highest: Version | None) -> tuple[str, list[_Span]]:
    """``source`` with the syntax newer than this interpreter (up to ``highest``) replaced.

    Each construct becomes older code of the same length, line breaks kept,
    so what ``compile()`` says of the result is at the same line and column.
    Only constructs whose tree-sitter tree is sound are replaced: a broken
    one stays, for ``compile()`` and tree-sitter to report. Returns the new
    source and what was replaced (empty: nothing, the source unchanged).
    """
    encoded = source.encode("utf-8")
    tree = _parser().parse(encoded)
    spans: list[_Span] = []
    for span in _newer(tree.root_node, highest, encoded):
        # Preorder: an outer construct comes first, and takes what is inside it.
        if span is not None and all(span.start >= s.end or span.end <= s.start for s in spans):
            spans.append(span)
    if not spans:
        return source, []
    text = list(source)
    for span in spans:
        text[span.start : span.end] = _replacement(source[span.start : span.end], span)
    return "".join(text), spans


def touched_lines(source: str, spans: list[_Span]) -> set[int]:
    """The 1-based lines ``spans`` cover."""
    lines: set[int] = set()
    for span in spans:
        first = source.count("\n", 0, span.start) + 1
        lines.update(range(first, first + source.count("\n", span.start, span.end) + 1))
    return lines


def _replacement(original: str, span: _Span) -> list[str]:
    """Older code as long as ``original``, its line breaks where they were."""
    blank = ["\n" if char == "\n" else " " for char in original]
    if span.kind == "blank":
        return blank
    if span.kind == "parenthesized":  # a string: ("") keeps line breaks inside brackets
        return ["(", '"', '"', *blank[3:-1], ")"]
    if span.kind == "alias":  # type X[T] = v  ->  (X    ) = v
        return ["(", *span.name, *blank[len(span.name) + 1 : -1], ")"]
    # "first": keep the first exception type, blank the rest (except A, B -> except A   )
    return [*span.name, *blank[len(span.name) :]]


def _newer(root: tree_sitter.Node, highest: Version | None, source: bytes) -> list[_Span | None]:
    """The newer constructs under ``root`` that this interpreter rejects and the project allows."""

    def wanted(version: Version) -> bool:
        return running() < version and (highest is None or version <= highest)

    def chars(byte: int) -> int:
        return len(source[:byte].decode("utf-8", errors="replace"))

    def span(node: tree_sitter.Node, kind: str, name: str = "") -> _Span:
        return _Span(chars(node.start_byte), chars(node.end_byte), kind, name)

    found: list[_Span | None] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in {"function_definition", "class_definition"}:
            params = node.child_by_field_name("type_parameters")
            if params is not None and _sound(params) and wanted(_type_params_version(params)):
                found.append(span(params, "blank"))
        elif kind == "type_alias_statement":
            left = node.child_by_field_name("left")
            name = _first_identifier(left) if left is not None else None
            if left is not None and name and _sound(node) and wanted(_alias_version(node)):
                found.append(_Span(chars(node.start_byte), chars(left.end_byte), "alias", name))
                continue
        elif kind == "except_clause":
            found.append(_except_span(node, wanted, chars))
            # its body is walked on: it may hold more
        elif kind == "string" and not node.has_error:
            version = _string_version(node)
            if version is not None and wanted(version) and node.end_byte - node.start_byte >= 4:
                found.append(span(node, "parenthesized"))
                continue  # what is inside goes with it
        stack.extend(reversed(node.children))
    return found


def _sound(node: tree_sitter.Node) -> bool:
    """No error in ``node`` but tree-sitter's PEP 696 gap (an ERROR ``T =`` in a type parameter)."""
    if not node.has_error:
        return True
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_missing:
            return False
        if current.is_error:
            parent = current.parent
            text = (current.text or b"").decode("utf-8", errors="replace")
            if parent is None or parent.type != "type_parameter":
                return False
            if not _DEFAULT_GAP.fullmatch(text.strip()):
                return False
            continue
        if current.has_error:
            stack.extend(current.children)
    return True


def _type_params_version(params: tree_sitter.Node) -> Version:
    """3.13 for type parameters with a default (PEP 696), else 3.12 (PEP 695)."""
    return (3, 13) if b"=" in (params.text or b"") else (3, 12)


def _alias_version(node: tree_sitter.Node) -> Version:
    left = node.child_by_field_name("left")
    return _type_params_version(left) if left is not None else (3, 12)


def _first_identifier(node: tree_sitter.Node) -> str | None:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            return (current.text or b"").decode("utf-8", errors="replace")
        stack.extend(reversed(current.children))
    return None


def _except_span(
    node: tree_sitter.Node, wanted: Callable[[Version], bool], chars: Callable[[int], int]
) -> _Span | None:
    """``except*`` (3.11) or ``except A, B:`` without brackets (3.14), as a span to replace."""
    children = node.children
    if len(children) > 1 and children[1].type == "*" and wanted((3, 11)):
        star = children[1]
        return _Span(chars(star.start_byte), chars(star.end_byte), "blank")
    commas = [child for child in children if child.type == ","]
    if not commas or node.has_error or not wanted((3, 14)):
        return None
    first, last = children[1], commas[-1].next_named_sibling
    if last is None or first.type == ",":
        return None
    name = (first.text or b"").decode("utf-8", errors="replace")
    return _Span(chars(first.start_byte), chars(last.end_byte), "first", name)


def _string_version(node: tree_sitter.Node) -> Version | None:
    """3.14 for a t-string, 3.12 for an f-string only PEP 701 allows, else None."""
    start = node.child(0)
    if start is None or start.type != "string_start":
        return None
    opening = (start.text or b"").decode("utf-8", errors="replace")
    prefix = opening.rstrip("'\"").lower()
    if "t" in prefix:
        return (3, 14)
    if "f" not in prefix:
        return None
    quote = opening[len(prefix) :]
    for child in node.children:
        if child.type != "interpolation":
            continue
        inside = (child.text or b"").decode("utf-8", errors="replace")
        if quote[0] in inside or any(mark in inside for mark in _PEP_701):
            return (3, 12)
        if len(quote) == 1 and "\n" in inside:
            return (3, 12)
    return None


def _parser() -> tree_sitter.Parser:
    """This thread's tree-sitter-python parser (the path that needs it is rare)."""
    parser: tree_sitter.Parser | None = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = grammars.parser("python")
    return parser


def first_too_new(source: str, lowest: Version) -> tuple[int, int, str, Version] | None:
    """The first construct of ``source`` a Python as old as ``lowest`` cannot parse.

    Returns (1-based line, 1-based column, what it is, the Python that brought
    it), or None. Read on tree-sitter's tree of a file ``compile()`` accepted.
    """
    encoded = source.encode("utf-8")
    stack = [_parser().parse(encoded).root_node]
    while stack:
        node = stack.pop()
        found = _introduced(node)
        if found is not None and found[1] > lowest:
            where = node if found[2] is None else found[2]
            line_start = encoded.rfind(b"\n", 0, where.start_byte) + 1
            before = encoded[line_start : where.start_byte].decode("utf-8", errors="replace")
            return where.start_point[0] + 1, len(before) + 1, found[0], found[1]
        stack.extend(reversed(node.children))
    return None


def _introduced(
    node: tree_sitter.Node,
) -> tuple[str, Version, tree_sitter.Node | None] | None:
    """What ``node`` is and the Python that brought it, if newer than 3.7; where to point."""
    kind = node.type
    if kind == "match_statement":
        return "a `match` statement", (3, 10), None
    if kind == "named_expression":
        return "an assignment expression (`:=`)", (3, 8), None
    if kind == "positional_separator":
        return "a positional-only parameter marker (`/`)", (3, 8), None
    if kind == "type_alias_statement":
        return "a `type` alias", _alias_version(node), None
    if kind in {"function_definition", "class_definition"}:
        params = node.child_by_field_name("type_parameters")
        if params is not None:
            version = _type_params_version(params)
            what = "a type parameter default" if version == (3, 13) else "type parameters"
            return what, version, params
    if kind == "except_clause":
        children = node.children
        if len(children) > 1 and children[1].type == "*":
            return "`except*`", (3, 11), None
        if any(child.type == "," for child in children) and not node.has_error:
            return "`except A, B:` without brackets", (3, 14), None
    if kind == "string" and not node.has_error:
        needs = _string_version(node)
        if needs == (3, 14):
            return "a t-string", needs, None
        if needs == (3, 12):
            return "an f-string reusing its quotes or holding `\\` or `#`", needs, None
    return None
