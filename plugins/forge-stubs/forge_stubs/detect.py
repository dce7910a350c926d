"""Find placeholders in one parsed file: pure functions over tree-sitter trees.

Nothing here reads files or knows about forge's workspace; :mod:`forge_stubs.plugin`
feeds it the trees from forge's parse cache, and the tests feed it trees they
parse themselves.
"""

from __future__ import annotations

from pathlib import PurePath

from tree_sitter import Node, Tree

from forge_stubs import javascript_rules, python_rules
from forge_stubs.deferred import deferred_value
from forge_stubs.functions import (
    Function,
    empty_on_purpose,
    is_fixture,
    is_intentional,
    marker_in_comment,
    says_fake_value,
)
from forge_stubs.models import Kind, StubFinding
from forge_stubs.options import StubOptions
from forge_stubs.source import Source, rows

#: Languages (forge language names) this check has rules for.
RULES = {
    "python": python_rules,
    "javascript": javascript_rules,
    "typescript": javascript_rules,
    "tsx": javascript_rules,
}

#: Files that are declarations by nature: placeholders are what they hold.
DECLARATION_SUFFIXES = (".pyi", ".d.ts", ".d.mts", ".d.cts")


#: Build output: a bundler wrote it (Babel's helpers, a types-only module compiled
#: to an empty file), no worker; the sources it came from are what to check.
MINIFIED_SUFFIXES = (".min.js", ".min.mjs", ".min.cjs")
BUILD_FOLDERS = frozenset({"dist"})


def is_declaration_file(path: PurePath) -> bool:
    """True for ``.pyi`` and ``.d.ts`` files, which are never checked."""
    return path.name.lower().endswith(DECLARATION_SUFFIXES)


def is_build_output(path: PurePath) -> bool:
    """True for ``*.min.js`` bundles and files under ``dist/`` (``path`` relative to the project)."""
    return path.name.lower().endswith(MINIFIED_SUFFIXES) or not BUILD_FOLDERS.isdisjoint(
        path.parts[:-1]
    )


def extended_classes(tree: Tree, source: bytes, language: str) -> frozenset[str]:
    """The names of the classes one file's classes extend (``class Flask(App)`` gives ``App``)."""
    names: frozenset[str] = RULES[language].extended_classes(Source(source, tree))
    return names


def find_placeholders(
    tree: Tree,
    source: bytes,
    language: str,
    path: PurePath,
    options: StubOptions,
    extended: frozenset[str] = frozenset(),
    overrides: frozenset[str] = frozenset(),
    declared: bool = False,
) -> list[StubFinding]:
    """Every placeholder in one file, in source order.

    :param tree: the file's tree, parsed with ``language``'s grammar.
    :param source: the UTF-8 bytes the tree was parsed from.
    :param language: a forge language name; ``KeyError`` for one without rules
        (see :data:`RULES`).
    :param path: the file's path relative to the project, for the rules that
        depend on it (``__init__.py`` is never an empty module; test code has
        fakes and hooks that are empty on purpose).
    :param options: what to look for and what to leave alone.
    :param extended: classes other files extend (:func:`extended_classes`): their
        empty and not-implemented methods are default hooks, as for classes this
        file extends.
    :param overrides: methods (``Class.method``) that override a method doing
        real work in a base class of another file
        (:func:`forge_stubs.inheritance.concrete_overrides`): left empty, they
        turn it off on purpose.
    :param declared: a declaration file (``.d.ts``) sits beside the file: without
        code, it is a module of types only, compiled.
    """
    rules = RULES[language]
    src = Source(source, tree)
    comments = src.captures("comments", "comment")
    findings: list[StubFinding] = []
    flagged_rows: set[int] = set()
    functions = rules.functions(src, options, path, extended, overrides)
    for function in functions:
        if function.placeholder is None or _marked_intentional(src, function, comments, options):
            continue
        kind, node = function.placeholder
        if kind == "hardcoded_return" and not _called_fake(src, function, comments):
            continue
        findings.append(_finding(src, node.start_byte, function.name, kind))
        flagged_rows.update(rows(function.node))
    for index, comment in enumerate(comments):
        following = comments[index + 1] if index + 1 < len(comments) else None
        next_line = (
            src.text(following)
            if following is not None and following.start_point.row == comment.end_point.row + 1
            else None
        )
        offset = marker_in_comment(src.text(comment), options, next_line)
        if offset is None:
            offset = deferred_value(src, comment, options)
        if offset is None or comment.start_point.row in flagged_rows:
            continue  # a comment inside a flagged function adds nothing
        start = comment.start_byte + len(src.text(comment)[:offset].encode("utf-8"))
        findings.append(_finding(src, start, _enclosing(functions, comment), "todo_comment"))
    empty = rules.is_empty_module(src)
    if empty is not None and is_fixture(path):
        # A test input of comments only (a linter's marker-comment case): data, not a to-do.
        findings = [finding for finding in findings if finding.kind != "todo_comment"]
    if (
        empty is not None
        and path.name != "__init__.py"
        and not declared
        and not empty_on_purpose(path, src.text(empty), options)
    ):
        findings.append(_finding(src, 0, None, "empty_module"))
    return sorted(
        (finding for finding in findings if finding.kind not in options.ignore_kinds),
        key=lambda finding: (finding.line, finding.column),
    )


def _finding(src: Source, byte_offset: int, function: str | None, kind: Kind) -> StubFinding:
    row = src.source.count(b"\n", 0, byte_offset)
    return StubFinding(
        line=row + 1,
        column=src.column(byte_offset),
        function=function,
        kind=kind,
        text=src.line_text(byte_offset),
    )


def _marked_intentional(
    src: Source, function: Function, comments: list[Node], options: StubOptions
) -> bool:
    """A comment inside the function, or on the line right above it, says it is deliberate."""
    return any(
        _near(src, function, comment) and is_intentional(src.text(comment), options)
        for comment in comments
    )


def _near(src: Source, function: Function, comment: Node) -> bool:
    """True for a comment inside the function or on the line right above it."""
    outer = function.node
    if outer.parent is not None and outer.parent.type == "decorated_definition":
        outer = outer.parent
    row = comment.start_point.row
    above = row == outer.start_point.row - 1 and src.starts_line(comment)
    return outer.start_point.row <= row <= outer.end_point.row or above


def _called_fake(src: Source, function: Function, comments: list[Node]) -> bool:
    """A comment inside the function or right above it calls its value a placeholder."""
    return any(
        _near(src, function, comment) and says_fake_value(src.text(comment)) for comment in comments
    )


def _enclosing(functions: list[Function], node: Node) -> str | None:
    """The innermost function whose span holds ``node``."""
    holders = [
        function
        for function in functions
        if function.node.start_byte <= node.start_byte < function.node.end_byte
    ]
    if not holders:
        return None
    return min(holders, key=lambda function: function.node.end_byte - function.node.start_byte).name
