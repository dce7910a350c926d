"""The baseline stage: which findings the base revision already had.

request -> checks -> **baseline** -> verdict -> attempt history -> report.
With a base revision (``baseRef``, ``--base``, ``[tool.forge] base-ref``),
the file checks (descriptors with ``targets_file``) run again on each listed
file as it is at the base, read from git objects (:mod:`forge.git`) into a
private folder; a finding the base also has, by check, file, message and
enclosing symbol (never by line), is marked ``preExisting``. A result whose
every finding is pre-existing is marked too, and the verdict leaves it out of
``score`` and ``passed``.
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forge.errors import clip
from forge.git import materialize, resolve_base
from forge.languages import NotParsed
from forge.models import CheckResult, Location, ValidateRequest
from forge.workspace import Workspace

if TYPE_CHECKING:
    from tree_sitter import Node

    from forge.git import Base
    from forge.validate.context import StageContext

#: Positions inside a message: they move with edits, so they never take part in matching.
#: Compiled by ``re`` on first use: only a run with a base revision compares messages.
_POSITIONS = r"(?i)\b(?:lines?|columns?|col|row)\s+\d+(?:\s*(?:-|to)\s*\d+)?|:\d+(?::\d+)?\b"
#: Tree-sitter node types that name a scope a finding can be in.
_SCOPE_WORDS = ("function", "method", "class", "interface", "module", "namespace")


@dataclass(frozen=True)
class Finding:
    """What makes two findings the same one in two revisions: never a line number."""

    check: str
    file: str
    message: str
    symbol: str | None


def finding(check: str, file: str, message: str, symbol: str | None) -> Finding:
    """A :class:`Finding` whose message has its positions ("line 4", ":4:2") taken out."""
    normalized = " ".join(re.sub(_POSITIONS, "#", message).split())
    return Finding(check=check, file=file, message=normalized, symbol=symbol)


def pre_existing(head: Sequence[Finding], base: Iterable[Finding]) -> list[bool]:
    """For each finding of the working revision, whether the base already had it.

    Findings are matched as a multiset: one placeholder in ``f`` at the base
    covers one in ``f`` now, not a second one the change added.
    """
    left = Counter(base)
    marks = []
    for item in head:
        marks.append(left[item] > 0)
        if left[item] > 0:
            left[item] -= 1
    return marks


def enclosing_symbol(root_node: Node, line: int, column: int, source: bytes) -> str | None:
    """Dotted names of the functions and classes around a 1-based (line, column) of a tree.

    Any grammar works: a scope is a node whose type names a function, method,
    class, interface, module or namespace and that has a ``name`` field. None
    at module level.
    """
    lines = source.split(b"\n")
    row = max(line - 1, 0)
    text = lines[row] if row < len(lines) else b""
    byte_column = len(text.decode("utf-8", errors="replace")[: max(column - 1, 0)].encode("utf-8"))
    node: Node | None = root_node.descendant_for_point_range((row, byte_column), (row, byte_column))
    names: list[str] = []
    while node is not None:
        if any(word in node.type for word in _SCOPE_WORDS):
            name = node.child_by_field_name("name")
            if name is not None and name.text is not None:
                names.append(name.text.decode("utf-8", errors="replace"))
        node = node.parent
    return ".".join(reversed(names)) or None


@dataclass(frozen=True)
class Outcome:
    """The base a request is judged against, or why there is none."""

    base: Base | None = None
    notices: tuple[str, ...] = ()

    @property
    def commit(self) -> str | None:
        """The commit compared with, for the report."""
        return self.base.commit if self.base is not None else None


def resolve_request_base(context: StageContext, request: ValidateRequest, cwd: Path) -> Outcome:
    """The base of the request's ``baseRef``, else of ``[tool.forge] base-ref``.

    Resolved before any check runs, so a bad name costs nothing. Without a
    ref there is no base; outside git, or when ``auto`` finds no default
    branch, there is none either, with a notice saying so. Raises
    :class:`forge.git.GitError` for a named base that does not resolve.
    """
    ref = request.base_ref or context.config.base_ref
    if not ref:
        return Outcome()

    base = resolve_base(cwd, ref)
    if base is None:
        why = f"no base for {clip(ref, 80)!r} (not a git repository, or no default branch)"
        return Outcome(notices=(f"{why}: every finding counts",))
    return Outcome(base=base)


def apply_baseline(
    context: StageContext,
    request: ValidateRequest,
    workspace: Workspace,
    results: list[CheckResult],
    base: Base | None,
) -> list[CheckResult]:
    """``results`` with the findings ``base`` already had marked ``preExisting``.

    Only failing results of file checks (descriptors with ``targets_file``)
    are compared; with no base, ``results`` come back unchanged.
    """
    if base is None:
        return results
    file_checks = {
        type_
        for type_, descriptor in context.plugins.checks.descriptors.items()
        if descriptor.targets_file
    }
    # What forge could not judge is never the base's too: it must escalate, not pass.
    failing = [
        index
        for index, r in enumerate(results)
        if not r.passed and r.type in file_checks and not r.unjudged
    ]
    if not failing:
        return results
    targets = list(dict.fromkeys(results[index].target for index in failing))
    base_findings = _base_findings(context, request, workspace, base, targets, file_checks)
    return _mark(results, failing, workspace, base, base_findings)


def _base_findings(
    context: StageContext,
    request: ValidateRequest,
    workspace: Workspace,
    base: Base,
    targets: list[str],
    file_checks: set[str],
) -> list[Finding]:
    """The findings the file checks give on ``targets`` as they are at the base."""
    paths = {target: workspace.resolve(target) for target in targets}
    contents = base.contents(list(paths.values()))
    with tempfile.TemporaryDirectory(prefix="forge-base-") as folder:
        root = Path(folder).resolve()
        placed = materialize(base, contents, root)
        if not placed:
            return []
        inside = base.relative(workspace.cwd)
        base_cwd = root.joinpath(*inside.parts) if inside is not None else root
        base_cwd.mkdir(parents=True, exist_ok=True)
        files = [
            str(placed[paths[target]]) if Path(target).is_absolute() else target
            for target in targets
            if paths[target] in placed
        ]
        base_request = request.model_copy(
            update={
                "files": files,
                "commands": [],
                "contract_checks": [],
                "auto_contracts": False,
                "base_ref": None,
            }
        )
        base_workspace = Workspace(
            base_cwd,
            config=context.config,
            plugin_options=request.plugin_options,
            languages=context.languages,
        )
        return [
            item
            for result in context.run_checks(base_request, base_workspace)
            if not result.passed and result.type in file_checks
            for item in findings_of(result, base_workspace, root)
        ]


def findings_of(result: CheckResult, workspace: Workspace, root: Path) -> list[Finding]:
    """A failing result's findings: one per location, or the result itself without any."""
    if not result.locations:
        return [
            finding(result.type, _file_key(workspace, root, result.target), result.message, None)
        ]
    return [
        finding(
            result.type,
            _file_key(workspace, root, location.path or result.target),
            location.message,
            _symbol(workspace, location.path or result.target, location),
        )
        for location in result.locations
    ]


def _file_key(workspace: Workspace, root: Path, file: str) -> str:
    """``file`` relative to the repository (or its stand-in folder): the same in both revisions."""
    path = workspace.resolve(file)
    try:
        return (path.parent.resolve() / path.name).relative_to(root).as_posix()
    except (ValueError, OSError):
        return path.as_posix()


def _symbol(workspace: Workspace, file: str, location: Location) -> str | None:
    try:
        parsed = workspace.parse(file)
    except NotParsed:
        return None
    if parsed is None:
        return None
    return enclosing_symbol(parsed.tree.root_node, location.line, location.column, parsed.source)


def _mark(
    results: list[CheckResult],
    failing: list[int],
    workspace: Workspace,
    base: Base,
    base_findings: list[Finding],
) -> list[CheckResult]:
    """``results`` with each finding the base had marked, and results with nothing new marked."""
    head = {index: findings_of(results[index], workspace, base.root) for index in failing}
    marks = iter(pre_existing([item for items in head.values() for item in items], base_findings))
    marked = list(results)
    for index, items in head.items():
        old = [next(marks) for _ in items]
        result = results[index]
        locations = [
            location.model_copy(update={"pre_existing": True}) if was_there else location
            # A result without locations has one finding, itself: nothing to zip.
            for location, was_there in zip(result.locations, old, strict=False)
        ]
        marked[index] = result.model_copy(update={"locations": locations, "pre_existing": all(old)})
    return marked
