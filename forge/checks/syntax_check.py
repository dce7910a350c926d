"""``syntax_check``: every listed file of a known language must parse.

Files are parsed through the workspace's shared parse cache, so other checks
reuse the same trees. Where the language has a syntax authority (CPython's
compiler, oxc for JavaScript and TypeScript) its verdict decides; tree-sitter
gives the locations (see :func:`check_syntax`). Without one, a file fails
when its tree holds ERROR or MISSING nodes. The result lists the first few
places, each with a 1-based line and column (in characters), what is wrong in
words, and the source line.

Files of unknown languages get no result (they do not count in the score),
nor do missing files (``file_check`` reports those). A file forge cannot
judge (over the parse limit, unreadable) is no pass either: its result is
marked ``unjudged`` and the module escalates (:mod:`forge.validate.verdict`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from forge import hookimpl
from forge.languages import NotParsed, ParsedFile
from forge.models import (
    CheckDescriptor,
    CheckResult,
    SyntaxAuthority,
    SyntaxLocation,
    SyntaxResult,
    SyntaxVerdict,
    ValidateRequest,
)
from forge.workspace import Workspace

if TYPE_CHECKING:
    import tree_sitter

#: Locations listed per failing file; the rest are only counted.
MAX_LOCATIONS = 10
#: Characters of a source line kept in a location (minified files have huge lines).
MAX_SOURCE_LINE = 200

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}
#: Token types of a string delimiter: bare inside an ERROR, a string never closed.
_QUOTES = {'"', "'", "`", "string_start"}
#: An authority's context that could not be read: its verdicts are not kept.
_NO_CONTEXT = object()


def find_errors(parsed: ParsedFile, limit: int = MAX_LOCATIONS) -> tuple[list[SyntaxLocation], int]:
    """The first ``limit`` syntax errors of ``parsed``, in file order, and how many there are."""
    places: list[tuple[int, int, str]] = []
    if parsed.language.check_tree is not None:
        places.extend(parsed.language.check_tree(parsed.tree))
    stack = [parsed.tree.root_node] if parsed.has_errors else []
    while stack:
        node = stack.pop()
        if node.is_missing:
            places.append(_describe_missing(node))
        elif node.is_error:
            places.extend(_describe(node))
        elif node.has_error:
            stack.extend(reversed(node.children))
    places.sort()
    shown = [_location(parsed, row, column, message) for row, column, message in places[:limit]]
    return shown, len(places)


def _describe_missing(node: tree_sitter.Node) -> tuple[int, int, str]:
    what = node.type.replace("_", " ") if node.is_named else f"`{node.type}`"
    return (*node.start_point, f"missing {what}")


def _describe(error: tree_sitter.Node) -> list[tuple[int, int, str]]:
    """Where an ERROR node goes wrong, in words, from the tokens it holds.

    Tree-sitter wraps whatever it could not fit in one ERROR node, often with
    valid code around the culprit, so the culprits are found by reading the
    tokens: a string delimiter left bare (a string never closed), a closing
    bracket with no opener, an opener never closed. Failing those, the whole
    node is quoted.
    """
    if error.child_count == 0:
        return [(*error.start_point, f"unexpected {_quote(error.text or b'')}")]
    places: list[tuple[int, int, str]] = []
    open_brackets: list[tree_sitter.Node] = []
    for token in _tokens(error):
        if token.is_missing:
            places.append(_describe_missing(token))
        elif token.type in _QUOTES and token.child_count == 0 and _bare(token):
            places.append((*token.start_point, "unterminated string"))
            break  # what follows an unterminated string is string content
        elif token.type in _OPENERS:
            open_brackets.append(token)
        elif token.type in _CLOSERS:
            if open_brackets and open_brackets[-1].type == _CLOSERS[token.type]:
                open_brackets.pop()
            else:
                places.append((*token.start_point, f"unexpected `{token.type}`"))
    places.extend((*node.start_point, f"`{node.type}` was never closed") for node in open_brackets)
    if places:
        return places
    return [(*error.start_point, f"invalid syntax in {_quote(error.text or b'')}")]


def _bare(token: tree_sitter.Node) -> bool:
    """A token directly in an ERROR node, not inside a string the grammar closed."""
    return token.parent is not None and token.parent.is_error


def _tokens(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """The tokens inside an ERROR node; subtrees free of errors stay whole (balanced)."""
    for child in node.children:
        if child.child_count and (child.is_error or child.has_error):
            yield from _tokens(child)
        else:
            yield child


def _quote(text: bytes, width: int = 40) -> str:
    shown = " ".join(text.decode("utf-8", errors="replace").split())
    if len(shown) > width:
        shown = shown[: width - 1] + "…"
    return f"`{shown}`" if shown else "end of file"


def _location(
    parsed: ParsedFile, row: int, byte_column: int | None, message: str, column: int = 1
) -> SyntaxLocation:
    """A location from a 0-based row and a byte column, or (``byte_column`` None) a 1-based column."""
    line = parsed.line(row)
    if byte_column is not None:
        column = len(line[:byte_column].decode("utf-8", errors="replace")) + 1
    text = line.decode("utf-8", errors="replace")
    if len(text) > MAX_SOURCE_LINE:
        text = text[: MAX_SOURCE_LINE - 1] + "…"
    return SyntaxLocation(line=row + 1, column=column, message=message, source_line=text)


def check_syntax(
    target: str, parsed: ParsedFile, authority: SyntaxAuthority | None = None
) -> SyntaxResult:
    """The ``syntax_check`` result for one parsed file.

    With an ``authority`` (the language's complete parser), its verdict
    decides: it clears the grammar's false alarms, and a file it rejects fails
    at the grammar's locations when the grammar saw the errors too (recovery
    finds several, and words them), else at the authority's own. Without one,
    or when it has no verdict for this file, the grammar decides alone.
    """
    language = parsed.language
    locations, count = find_errors(parsed)
    verdict = _verdict(authority, parsed)
    # The message is what a model reads: plain words. Which parser decided is
    # its own field (--json, SARIF, forge plugins), never jargon in the sentence.
    decided_by = authority.name if verdict is not None and authority is not None else "tree-sitter"
    cleared_by_authority = verdict is not None and verdict.valid
    if verdict is not None and not verdict.valid and not count:
        locations = [_location(parsed, verdict.line - 1, None, verdict.message, verdict.column)]
        count = 1
    if cleared_by_authority or not count:
        return SyntaxResult(
            type="syntax_check",
            target=target,
            passed=True,
            language=language.name,
            message=f"parses as {language.name}",
            decided_by=decided_by,
        )
    first = locations[0]
    return SyntaxResult(
        type="syntax_check",
        target=target,
        passed=False,
        language=language.name,
        locations=[*locations],
        error_count=count,
        decided_by=decided_by,
        message=(
            f"{count} syntax error{'s' if count != 1 else ''} ({language.name}); "
            f"first at line {first.line}, column {first.column}: {first.message}"
        ),
    )


def _verdict(authority: SyntaxAuthority | None, parsed: ParsedFile) -> SyntaxVerdict | None:
    """The authority's verdict; None when there is none or it failed (the grammar decides)."""
    if authority is None:
        return None
    try:
        return authority.check(parsed.path, parsed.source)
    except Exception:  # a failing parser must not fail a valid file, nor take forge down
        return None


def _not_parsed(target: str, workspace: Workspace, problem: NotParsed) -> SyntaxResult:
    language = workspace.languages.for_path(problem.path)
    message = str(problem)
    if problem.reason == "too_large":
        message += "; raise it in pyproject.toml to judge the file"
    elif problem.unjudged:
        message += ": forge could not judge it"
    return SyntaxResult(
        type="syntax_check",
        target=target,
        passed=False,
        unjudged=problem.unjudged,
        language=language.name if language else "",
        message=message,
    )


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """One result per listed file that exists and has a known language.

    A language whose grammar cannot be loaded gives one ``plugin_error``
    naming its plugin instead of a result per file.
    """
    results: list[CheckResult | tuple[str, ParsedFile]] = []
    broken_plugins: dict[str, CheckResult] = {}
    contexts: dict[tuple[str, Path], Hashable] = {}
    for target in dict.fromkeys(request.files):
        try:
            parsed = workspace.parse(target)
        except NotParsed as problem:
            if problem.reason == "missing":
                continue
            if problem.reason == "no_grammar" and problem.plugin:
                broken_plugins.setdefault(
                    problem.plugin,
                    CheckResult(
                        type="plugin_error",
                        target=problem.plugin,
                        passed=False,
                        unjudged=True,
                        message=str(problem),
                        plugin=problem.plugin,
                    ),
                )
                continue
            results.append(_not_parsed(target, workspace, problem))
            continue
        if parsed is not None:
            results.append((target, parsed))
    _prepare([r for r in results if isinstance(r, tuple)], workspace, contexts)
    checked = [
        r if not isinstance(r, tuple) else _kept_check(*r, workspace, contexts) for r in results
    ]
    return checked + list(broken_plugins.values())


def _prepare(
    files: list[tuple[str, ParsedFile]],
    workspace: Workspace,
    contexts: dict[tuple[str, Path], Hashable],
) -> None:
    """Hand each authority that takes files in one go those it will be asked about."""
    batches: dict[str, tuple[SyntaxAuthority, list[tuple[Path, bytes]]]] = {}
    for target, parsed in files:
        authority = workspace.languages.authority(parsed.language.name)
        if authority is None or authority.prepare is None:
            continue
        key = _kept_key(target, parsed, authority, contexts)
        if key is None or not parsed.has_derived(key):
            batch = batches.setdefault(authority.name, (authority, []))[1]
            batch.append((parsed.path, parsed.source))
    for authority, batch in batches.values():
        assert authority.prepare is not None
        try:
            authority.prepare(batch)
        except Exception:  # a failing plugin's batch: check() still answers one by one
            continue


def _kept_key(
    target: str,
    parsed: ParsedFile,
    authority: SyntaxAuthority,
    contexts: dict[tuple[str, Path], Hashable],
) -> Hashable | None:
    """The key a verdict is kept under with the file's tree; None when it is not kept."""
    if authority.context is None:
        return None
    folder = (authority.name, parsed.path.parent)
    if folder not in contexts:
        try:
            contexts[folder] = authority.context(parsed.path.parent)
        except Exception:  # a failing plugin hook: ask its authority every time instead
            contexts[folder] = _NO_CONTEXT
    context = contexts[folder]
    if context is _NO_CONTEXT:
        return None
    return ("syntax_check", target, authority.name, context)


def _kept_check(
    target: str,
    parsed: ParsedFile,
    workspace: Workspace,
    contexts: dict[tuple[str, Path], Hashable],
) -> SyntaxResult:
    """:func:`check_syntax`, kept with the file's tree while the authority's context holds.

    The verdict depends on the source (the tree's), the path, and what the
    authority's ``context`` says about the file's folder (read once per folder
    and call); an authority without ``context`` is asked on every call.
    """
    authority = workspace.languages.authority(parsed.language.name)
    if authority is None:
        return parsed.derived(
            ("syntax_check", target), lambda: check_syntax(target, parsed, authority)
        )
    key = _kept_key(target, parsed, authority, contexts)
    if key is None:
        return check_syntax(target, parsed, authority)
    return parsed.derived(key, lambda: check_syntax(target, parsed, authority))


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``syntax_check``: shown after ``file_check``; its target is the file parsed."""
    return [
        CheckDescriptor(
            id="syntax_check",
            summary="A file parses: its language's complete parser decides, tree-sitter locates.",
            order=30,
            targets_file=True,
            judges_edits=True,
            read_only=True,
        )
    ]
