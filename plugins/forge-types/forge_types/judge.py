"""New versus old: a checker's diagnostics turned into one result, told apart from the base's.

With a base, a diagnostic counts when the base does not have it: same file,
rule, message (positions taken out) and enclosing symbol, as a multiset, as
forge's baseline matches findings (:mod:`forge.validate.baseline`). Without a
base, only the checker's "cannot run as written" rules count; the rest is
shown, marked ``informational``. In a file outside the scope the checker's
configuration declares (:mod:`forge_types.declared`), only those rules count,
with a base or without.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from forge.languages import NotParsed
from forge.models import Location
from forge.validate.baseline import Finding, enclosing_symbol, finding, pre_existing
from forge.workspace import Workspace
from forge_types.checkers import Checker
from forge_types.counted import cannot_run, gated, never_counted
from forge_types.declared import Declared, declared_scope
from forge_types.diagnostics import Diagnostic, Raw
from forge_types.models import CHECK_TYPE, TypeCheckResult
from forge_types.moved import code_key
from forge_types.scope import Scope

#: Locations a result carries at most (new ones first); the counts say the rest.
MAX_LOCATIONS = 100


def diagnostics(
    raw: Sequence[Raw],
    root: Path,
    wanted: set[Path],
    workspace: Workspace,
    also: Path | None = None,
    *,
    symbols: bool = True,
) -> list[Diagnostic]:
    """The diagnostics in ``wanted`` files, paths relative to ``root``, with their symbols.

    A wanted file outside ``root`` (listed by absolute path) keeps its absolute path: the
    base, read for the working dir only, never has it, so all of its diagnostics are new.

    ``also``: the working tree, when ``root`` stands in for it at the base (messages
    name its interpreter's folders there too). ``symbols``: find each one's enclosing
    symbol, which only matching against a base reads; finding it parses the file.
    """
    found = []
    # Messages may name files by absolute path (tsc's import("/abs/dir/x").default, the
    # folders pyrefly looked in for a module): the project's own folder is written
    # relative, so the base's stand-in folder matches it.
    named = {root, root.resolve()} | ({also, also.resolve()} if also is not None else set())
    folders = sorted({str(f) for f in named if len(str(f)) > 1}, key=len, reverse=True)
    prefixes = [(f"{folder}/", "") for folder in folders] + [(folder, ".") for folder in folders]
    for path, line, column, rule, message in raw:
        if path not in wanted:
            continue
        try:
            rel = path.relative_to(root).as_posix()
        except ValueError:  # a listed file outside the working dir: named by its full path
            rel = path.as_posix()
        symbol, code = _symbol(workspace, path, line, column) if symbols else (None, None)
        for prefix, stand_for in prefixes:
            message = message.replace(prefix, stand_for)
        found.append(Diagnostic(rel, line, column, rule, " ".join(message.split()), symbol, code))
    return found


def _symbol(workspace: Workspace, path: Path, line: int, column: int) -> tuple[str | None, ...]:
    """The enclosing symbol and the key of the code around a place (:mod:`forge_types.moved`)."""
    try:
        parsed = workspace.parse(path)
    except NotParsed:
        return None, None
    if parsed is None:
        return None, None
    root_node = parsed.tree.root_node
    return (
        enclosing_symbol(root_node, line, column, parsed.source),
        code_key(root_node, line, column, parsed.source),
    )


def judge(
    checker: Checker,
    scope: Scope,
    head: list[Diagnostic],
    base: dict[str, list[Diagnostic]] | None,
    *,
    base_commit: str | None,
    workspace: Workspace,
    root: Path,
    warm: bool = False,
) -> TypeCheckResult:
    """The result of one language's check: what counts, what was there, what is only shown.

    ``warm``: the warm checker answered for the working tree (not the command line).
    """
    head = sorted(head, key=lambda d: (d.path, d.line, d.column, d.rule))
    declared = declared_scope(checker.kind.name, root) if head else None  # nothing to judge
    outside = [declared is not None and not declared.contains(d.path) for d in head]
    if base is not None:
        old_items = [item for items in base.values() for item in items]
        old = pre_existing([_key(checker, d) for d in head], [_key(checker, d) for d in old_items])
        old = _moved_with_its_code(head, old, old_items)
        # Outside the declared scope, a new diagnostic counts only if the code cannot run.
        counted = [
            not was and (not out or _cannot_run_here(checker, item, workspace, root))
            for item, was, out in zip(head, old, outside, strict=True)
        ]
        informational = [not was and not c for was, c in zip(old, counted, strict=True)]
    else:
        old = [False] * len(head)
        counted = _counted_without_base(checker, scope, head, workspace, root)
        informational = [not c for c in counted]
    n_outside = sum(i and out for i, out in zip(informational, outside, strict=True))
    new = [d for d, c in zip(head, counted, strict=True) if c]
    order = sorted(range(len(head)), key=lambda i: (not counted[i], not old[i]))
    locations = [
        Location(
            path=_display(workspace, root, head[i].path),
            line=head[i].line,
            column=head[i].column,
            message=head[i].message,
            rule=head[i].rule,
            pre_existing=old[i],
            informational=informational[i],
        )
        for i in order[:MAX_LOCATIONS]
    ]
    n_old, n_info = sum(old), sum(informational)
    return TypeCheckResult(
        type=CHECK_TYPE,
        target=checker.kind.language,
        # With a base, nothing new and something old is OLD (counts neither way); what the
        # declared scope left out is shown only, and passes.
        passed=not new and (base is None or not n_old),
        pre_existing=not new and base is not None and n_old > 0,
        message=_message(
            checker, scope, new, n_old, n_info, base is not None, workspace, root, n_outside
        )
        + _outside(declared, n_outside),
        locations=locations,
        language=checker.kind.language,
        checker=checker.label,
        checker_source=checker.source,
        base_commit=base_commit,
        new_count=len(new),
        old_count=n_old,
        informational_count=n_info,
        files_checked=len(scope.files),
        importers=len(scope.importers),
        importers_capped_from=scope.capped_from or None,
        warm=warm,
    )


def _counted_without_base(
    checker: Checker, scope: Scope, head: list[Diagnostic], workspace: Workspace, root: Path
) -> list[bool]:
    """Without a base, what counts (:mod:`forge_types.counted`): a diagnostic meaning the code
    cannot run, in a listed file, and none of the kinds that never count."""
    listed = {_relative(path, root) for path in scope.listed}
    return [
        item.path in listed and _cannot_run_here(checker, item, workspace, root) for item in head
    ]


def _cannot_run_here(checker: Checker, item: Diagnostic, workspace: Workspace, root: Path) -> bool:
    """Whether ``item`` means the code cannot run (:mod:`forge_types.counted`): one of the
    checker's rules for it, and none of the kinds that never count."""
    if not cannot_run(checker.kind.name, item.rule, item.message):
        return False
    if checker.kind.language != "python":
        return True
    line_text, is_gated = _where(workspace, root / item.path, item.line, item.column)
    return never_counted(item.path, item.rule, item.message, line_text, is_gated) is None


def _outside(declared: Declared | None, n_outside: int) -> str:
    """What the message says of the diagnostics the declared scope left to the cannot-run
    rules (an empty string: none)."""
    if declared is None or not n_outside:
        return ""
    return (
        f"; {n_outside} diagnostic{'s' * (n_outside != 1)} in files outside "
        f"{declared.checker}'s scope ({declared.said}) shown, not counted: "
        "only what stops the code running counts there"
    )


def _where(workspace: Workspace, path: Path, line: int, column: int) -> tuple[str, bool]:
    """The diagnostic's source line, and whether it sits under a platform or version check."""
    try:
        parsed = workspace.parse(path)
    except NotParsed:
        return "", False
    if parsed is None:
        return "", False
    lines = parsed.source.split(b"\n")
    text = lines[line - 1].decode("utf-8", errors="replace") if 0 < line <= len(lines) else ""
    byte_column = len(text[: max(column - 1, 0)].encode("utf-8")) + 1
    return text, gated(parsed.tree.root_node, line, byte_column)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _moved_with_its_code(
    head: list[Diagnostic], old: list[bool], base: list[Diagnostic]
) -> list[bool]:
    """``old``, with each diagnostic the symbol match called new but whose code moved unchanged
    (same rule, message and code key as one at the base, renamed or moved) marked old too."""
    left = Counter(_moved_key(item) for item in base if item.code is not None)
    left.subtract(_moved_key(item) for item, was in zip(head, old, strict=True) if was)
    marks = []
    for item, was in zip(head, old, strict=True):
        key = _moved_key(item)
        moved = not was and item.code is not None and left[key] > 0
        if moved:
            left[key] -= 1
        marks.append(was or moved)
    return marks


def _moved_key(item: Diagnostic) -> tuple[str, str, str | None]:
    return item.rule, finding("", "", item.message, None).message, item.code


def _key(checker: Checker, item: Diagnostic) -> Finding:
    return finding(checker.kind.name, item.path, f"{item.rule} {item.message}", item.symbol)


def _message(
    checker: Checker,
    scope: Scope,
    new: list[Diagnostic],
    n_old: int,
    n_info: int,
    with_base: bool,
    workspace: Workspace,
    root: Path,
    n_outside: int,
) -> str:
    files = f"{len(scope.listed)} file{'s' * (len(scope.listed) != 1)}"
    files += f" and {len(scope.importers)} importer{'s' * (len(scope.importers) != 1)}"
    if scope.capped_from:
        files += f" (capped: {scope.capped_from} import them, max-importers)"
    said = f"{checker.label} over {files}"
    if new:
        first = new[0]
        one = len(new) == 1
        if with_base:
            what = "new type error" if one else "new type errors"
        else:
            what = "type error that stops" if one else "type errors that stop"
            what += " the code running"
        head = f"{len(new)} {what} ({said}); first at {_display(workspace, root, first.path)}:{first.line}: {first.message} [{first.rule}]"
    elif n_old:
        head = f"no new type error ({said})"
    else:
        head = (
            f"no type error that stops the code running ({said})"
            if n_info
            else f"no type error ({said})"
        )
    if n_old:
        head += f"; {n_old} already at the base"
    n_other = n_info - n_outside
    if n_other:
        head += f"; {n_other} other diagnostic{'s' * (n_other != 1)} shown, not counted (no base revision: --base judges them)"
    return head


def _display(workspace: Workspace, root: Path, rel: str) -> str:
    return workspace.display(root / rel)
