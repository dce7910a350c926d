"""Where each module's work is: a commit to merge, found the first way that applies.

1. ``branches`` given by the caller (``--branch api=forge/api``): a branch,
   tag or commit, or a worktree folder (its ``HEAD``).
2. The plan module's ``branch`` field.
3. The run's session snapshot (``.forge/state/<runId>.json``): its
   ``worktrees`` object maps a module id to its worker's folder, as the
   ``/forge`` skill records it.
4. ``git worktree list``: the one worktree whose branch is the id or ends in
   ``/<id>`` (``forge/api``), or whose folder is named ``<id>`` or ends in
   ``-<id>`` (``wt-api``), the project's own checkout aside.
5. The one local branch named ``<id>`` or ending in ``/<id>``.

A module found in no way, or in two ways at one step (two worktrees), is a
usage error naming it and how to say where it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from forge.errors import UsageError, clip
from forge.git.runner import commit_of, git_text
from forge.git.worktrees import Worktree, local_branches, worktrees
from forge.plan.model import PlanModule

Source = Literal["argument", "plan", "session", "worktree", "branch"]


@dataclass(frozen=True)
class ModuleWork:
    """A module's work to merge: the commit, what named it and how it was found."""

    module_id: str
    #: What points at the work, for people: a branch name, a commit, a worktree folder.
    ref: str
    commit: str
    source: Source
    #: The worker's checkout, when the work was found through one.
    worktree: Path | None = None


def locate(
    top: Path,
    root: Path,
    modules: Sequence[PlanModule | str],
    *,
    given: Mapping[str, str],
    session: Mapping[str, str],
    missing: list[str] | None = None,
) -> list[ModuleWork]:
    """The work of each module, in the order given; :class:`UsageError` naming any not found.

    :param top: the repository's top-level folder.
    :param root: the project root (relative folders are relative to it).
    :param given: module id -> revision or worktree folder (step 1).
    :param session: module id -> worktree folder, from the run's session (step 3).
    :param missing: when given, modules whose work is found nowhere are added to
        it instead of raising (the error is then only for finding none at all).
    """
    trees = [tree for tree in worktrees(top) if tree.head]
    branches: list[str] | None = None
    found: list[ModuleWork] = []
    absent: list[str] = []
    for module in modules:
        module_id = module if isinstance(module, str) else module.id
        planned = None if isinstance(module, str) else module.branch
        work = None
        if module_id in given:
            work = _named(
                top, root, module_id, given[module_id], "argument", f"branches.{module_id}"
            )
        elif planned:
            work = _named(top, root, module_id, planned, "plan", f"the plan's {module_id}.branch")
        elif module_id in session:
            folder = session[module_id]
            work = _named(top, root, module_id, folder, "session", f"worktrees.{module_id}")
        else:
            work = _from_worktrees(module_id, trees, top)
            if work is None:
                if branches is None:
                    branches = local_branches(top)
                work = _from_branches(top, module_id, branches)
        if work is None:
            absent.append(module_id)
        else:
            found.append(work)
    if absent and (missing is None or not found):
        names, first = ", ".join(absent), absent[0]
        raise UsageError(
            f"no branch or worktree found for {clip(names, 200)}: give branches "
            f'(e.g. {{"{first}": "forge/{first}"}}), a "branch" in the plan module, '
            f"or a worktree on a branch named {first} or forge/{first}"
        )
    if missing is not None:
        missing.extend(absent)
    return found


def _named(
    top: Path, root: Path, module_id: str, value: str, source: Source, where: str
) -> ModuleWork:
    """A revision, or a worktree folder (relative to the project root), named for a module.

    A folder of the project's own checkout (``docs`` beside a branch ``docs``)
    is where the work merges into, never a worker's: the value is a revision.
    """
    folder = (root / Path(value).expanduser()) if value else None
    is_folder = folder is not None and folder.is_dir()
    own = is_folder and folder is not None and _in_checkout(folder, top)
    if is_folder and folder is not None and not own:
        commit = git_text(folder, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        same_repository = git_text(folder, "rev-parse", "--git-common-dir")
        if commit is None or same_repository is None:
            raise UsageError(f"{where}: {clip(value, 120)} is a folder with no commit checked out")
        if _common_dir(folder, same_repository) != _common_dir(top, None):
            raise UsageError(f"{where}: {clip(value, 120)} is a checkout of another repository")
        return ModuleWork(module_id, value, commit, source, folder.resolve())
    if value.startswith("-"):
        raise UsageError(f"{where}: {clip(value, 80)!r} is not a revision: it starts with '-'")
    commit = commit_of(top, value)
    if commit is None and own:
        raise UsageError(
            f"{where}: {clip(value, 120)} is in the project's own checkout, what the work "
            "merges into, and names no commit: give the module's branch or its worktree"
        )
    if commit is None:
        raise UsageError(
            f"{where}: {clip(value, 120)!r} is neither a commit of {top} nor a worktree folder"
        )
    return ModuleWork(module_id, value, commit, source)


def _in_checkout(folder: Path, top: Path) -> bool:
    """Whether ``folder`` is in the checkout whose top-level folder is ``top``."""
    found = git_text(folder, "rev-parse", "--show-toplevel")
    return found is not None and Path(found).resolve() == top.resolve()


def _common_dir(folder: Path, text: str | None) -> Path | None:
    text = text or git_text(folder, "rev-parse", "--git-common-dir")
    if text is None:
        return None
    return (folder / text).resolve()


def _from_worktrees(module_id: str, trees: list[Worktree], top: Path) -> ModuleWork | None:
    """The worktree on a branch named after the module, else in a folder named after it.

    The project's own checkout (``top``) is where the work merges into: whatever
    its folder is called (``shop-api``), it is no module's folder.
    """
    own = top.resolve()
    by_branch = [
        tree
        for tree in trees
        if tree.branch_name is not None
        and (tree.branch_name == module_id or tree.branch_name.endswith(f"/{module_id}"))
    ]
    by_folder = [
        tree
        for tree in trees
        if (
            tree.path.name == module_id
            or tree.path.name.endswith((f"-{module_id}", f"_{module_id}"))
        )
        and tree.path.resolve() != own
    ]
    candidates = by_branch or by_folder
    if not candidates:
        return None
    if len(candidates) > 1:
        shown = ", ".join(str(tree.path) for tree in candidates)
        raise UsageError(
            f"module {module_id}: several worktrees could be its work ({clip(shown, 200)}): "
            "say which with branches"
        )
    tree = candidates[0]
    assert tree.head is not None  # worktrees without a HEAD were left out
    return ModuleWork(
        module_id, tree.branch_name or str(tree.path), tree.head, "worktree", tree.path
    )


def _from_branches(top: Path, module_id: str, branches: list[str]) -> ModuleWork | None:
    candidates = [name for name in branches if name == module_id or name.endswith(f"/{module_id}")]
    if not candidates:
        return None
    if len(candidates) > 1:
        raise UsageError(
            f"module {module_id}: several branches could be its work "
            f"({clip(', '.join(candidates), 200)}): say which with branches"
        )
    commit = git_text(top, "rev-parse", "--verify", "--quiet", f"refs/heads/{candidates[0]}")
    if commit is None:
        return None
    return ModuleWork(module_id, candidates[0], commit, "branch")
