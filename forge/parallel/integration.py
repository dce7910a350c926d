"""Integration breaks: findings of the merged tree that no single branch, nor the base, has.

The merged tree is written from git objects into a private folder, and the
file checks (every check plugin, with no commands: syntax, contracts, stubs,
types where installed) run there on the files the modules changed and the
files that import them (found with ``git grep`` on the tree for the changed
files' names, then read by the contract check's resolver). A failing result
there is compared, finding by finding (check, file, message, enclosing
symbol: :func:`forge.validate.baseline.findings_of`), with the same checks
on each module's own tree and on the base's, run only on the files that
failed. A finding none of them has is where two changes meet: an integration
break, naming the modules whose changes touch its files.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from forge.git.merge_tree import grep_tree, tree_files, tree_of, write_tree_files
from forge.languages import ParseCache
from forge.models import MAX_FILES, CheckResult, ValidateRequest
from forge.parallel.models import IntegrationBreak
from forge.validate.baseline import Finding, finding, findings_of
from forge.workspace import Workspace

if TYPE_CHECKING:
    from forge.validate.context import StageContext

#: The module id the preview's checks run under (no attempt is recorded).
PREVIEW_MODULE = "merge-preview"
#: Names too short to search for: they would match nearly every file.
MIN_STEM = 3
#: Index files named after their folder: ``pkg/__init__.py`` is imported as ``pkg``.
_PACKAGE_FILES = {"__init__", "index", "mod", "main"}


@dataclass
class Found:
    """What the checks made of the merged tree."""

    breaks: list[IntegrationBreak] = field(default_factory=list)
    checked: int = 0
    notices: list[str] = field(default_factory=list)


def find_breaks(
    context: StageContext,
    top: Path,
    prefix: str,
    *,
    merged_commit: str,
    base_commit: str,
    changed: Mapping[str, Sequence[str]],
    commits: Mapping[str, str],
) -> Found:
    """The integration breaks of ``merged_commit``.

    :param prefix: the project root's place in the repository (``""`` or ``sub/``).
    :param changed: each merged module's changed files (project-relative), in merge order.
    :param commits: each merged module's commit.
    """
    found = Found()
    merged_tree = tree_of(top, merged_commit)
    files = tree_files(top, merged_tree)
    inside = {path[len(prefix) :]: path for path in files if path.startswith(prefix)}
    checkable = {path for path in inside if context.languages.for_path(Path(path)) is not None}
    touched = {path for paths in changed.values() for path in paths}
    subjects = sorted(touched & checkable)
    importers = _importers(top, merged_tree, prefix, subjects) & checkable
    listed = sorted(set(subjects) | importers)
    if len(listed) > MAX_FILES:
        found.notices.append(
            f"{len(listed)} files changed or import changed files; the first {MAX_FILES} "
            "were checked"
        )
        listed = (
            subjects[:MAX_FILES] + sorted(importers - set(subjects))[: MAX_FILES - len(subjects)]
        )
    found.checked = len(listed)
    if not listed:
        return found
    with tempfile.TemporaryDirectory(prefix="forge-merge-") as scratch:
        folder = Path(scratch)
        merged_root, workspace, merged = _check_tree(
            context, top, files, folder / "merged", prefix, listed
        )
        failing = [r for r in merged if not r.passed and r.type != "plugin_error"]
        found.notices.extend(
            f"{r.target}: {r.message}" for r in merged if r.type == "plugin_error" and not r.passed
        )
        if not failing:
            return found
        wanted = sorted({path for r in failing for path in _files_of(r, merged_root)} & set(listed))
        known: set[Finding] = set()
        singles = [("base", base_commit), *commits.items()]
        for index, (_, commit) in enumerate(singles):
            tree = tree_files(top, tree_of(top, commit))
            here = [path for path in wanted if prefix + path in tree]
            if not here:
                continue
            root, single, results = _check_tree(
                context, top, tree, folder / f"single-{index}", prefix, here
            )
            known.update(
                _clean(item, root)
                for result in results
                if not result.passed
                for item in findings_of(result, single, root)
            )
        for result in failing:
            items = [
                _clean(item, merged_root) for item in findings_of(result, workspace, merged_root)
            ]
            new = [index for index, item in enumerate(items) if item not in known]
            if new:
                found.breaks.append(_break(result, new, merged_root, changed))
    return found


def _importers(top: Path, tree: str, prefix: str, subjects: Sequence[str]) -> set[str]:
    """Files of ``tree`` (project-relative) that may import one of ``subjects``: they name it."""
    stems = set()
    for path in subjects:
        pure = PurePosixPath(path)
        stem = pure.parent.name if pure.stem in _PACKAGE_FILES else pure.stem
        if len(stem) >= MIN_STEM:
            stems.add(stem)
    found = grep_tree(top, tree, sorted(stems))
    return {path[len(prefix) :] for path in found if path.startswith(prefix)}


def _check_tree(
    context: StageContext,
    top: Path,
    files: dict[str, tuple[str, str]],
    into: Path,
    prefix: str,
    listed: Sequence[str],
) -> tuple[Path, Workspace, list[CheckResult]]:
    """Write ``files`` under ``into``, run the file checks on ``listed``.

    Returns the project folder in the tree, the workspace (its parse cache
    serves the findings read back) and the results.
    """
    into.mkdir(parents=True)
    write_tree_files(top, files, into)
    root = into.joinpath(*PurePosixPath(prefix).parts) if prefix else into
    root.mkdir(parents=True, exist_ok=True)
    # A parse cache of its own: the project's outlives the call, these folders do not.
    workspace = Workspace(
        root, config=context.config, languages=context.languages, parse_cache=ParseCache()
    )
    request = ValidateRequest(module_id=PREVIEW_MODULE, files=list(listed))
    return root, workspace, context.run_checks(request, workspace)


def _clean(item: Finding, root: Path) -> Finding:
    """``item`` without the tree's private folder in its text (it differs from tree to tree)."""
    return finding(item.check, item.file, item.message.replace(f"{root}/", ""), item.symbol)


def _files_of(result: CheckResult, root: Path) -> set[str]:
    """The project-relative files a result is about: its target or pair, and its locations."""
    names: list[str] = []
    sides = [getattr(result, "exporter", None), getattr(result, "importer", None)]
    names += [side for side in sides if isinstance(side, str)]
    if not names:
        names += [part.strip() for part in result.target.split(" -> ")]
    names += [location.path for location in result.locations if location.path]
    out = set()
    for name in names:
        path = Path(name)
        if path.is_absolute():
            try:
                name = path.relative_to(root).as_posix()
            except ValueError:
                continue
        out.add(name)
    return out


def _break(
    result: CheckResult, new: Iterable[int], root: Path, changed: Mapping[str, Sequence[str]]
) -> IntegrationBreak:
    files = sorted(_files_of(result, root))
    modules = [module for module, paths in changed.items() if set(paths) & set(files)]
    places = [
        location.model_copy(update={"path": location.path or result.target, "pre_existing": False})
        for location in result.locations
    ]
    return IntegrationBreak(
        type=result.type,
        target=result.target.replace(f"{root}/", ""),
        message=result.message.replace(f"{root}/", ""),
        modules=modules,
        files=files,
        locations=[places[index] for index in new if index < len(places)],
    )
