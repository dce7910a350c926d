"""The merge preview: modules' work merged into the base in dependency order, in git's object store.

Each module's commit (found by :mod:`forge.parallel.sources`) is merged onto
the result so far with ``git merge-tree --write-tree``; a clean merge is
recorded as a commit object no ref points at, and the next module merges onto
it. A module that conflicts is reported with the files and the modules whose
changes meet there (the earlier modules that changed those files, else the
base, which moved on), and left out; the others still merge. Then the file
checks run on the merged tree (:mod:`forge.parallel.integration`). Nothing is
checked out: no working tree, index or ref changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forge.errors import UsageError, clip
from forge.git import AUTO, GitError, resolve_base
from forge.git.changes import committed_changes, fork_point, working_changes
from forge.git.merge_tree import commit_tree, merge_tree
from forge.git.revisions import default_branch
from forge.git.runner import git_text
from forge.parallel.integration import find_breaks
from forge.parallel.models import (
    MergeCheckReport,
    MergeConflict,
    MergedModule,
    OutOfLane,
    StaleModule,
)
from forge.parallel.sources import locate
from forge.parallel.standing import conflict_advice, latest_verdict, out_of_lane, own_changes
from forge.plan.lanes import project_prefix
from forge.plan.locate import read_plan
from forge.store.forge_dir import ForgeDir

if TYPE_CHECKING:
    from forge.git.merge_tree import MergeOutcome
    from forge.parallel.sources import ModuleWork
    from forge.plan.model import Plan, PlanModule
    from forge.validate.context import StageContext

#: Changed files listed per module in the report; the checks use them all.
SHOWN_FILES = 200
#: Conflicts listed (one per file); a merge that conflicts in more says how many.
SHOWN_CONFLICTS = 200


@dataclass(frozen=True)
class MergeAsk:
    """What to preview: which modules (by plan, layer or list), their work, the base."""

    plan_path: str | None = None
    modules: Sequence[str] = ()
    #: 1-based: the plan's first layer is 1.
    layer: int | None = None
    branches: Mapping[str, str] = field(default_factory=dict)
    base_ref: str | None = None
    run_id: str | None = None
    checks: bool = True


@dataclass
class _Module:
    work: ModuleWork
    changed: tuple[str, ...]
    fork_point: str
    #: What its commits changed, as repository paths.
    committed: tuple[str, ...]
    merged: bool = False


def _strays(
    context: StageContext, plan: Plan | None, modules: list[_Module], top: Path, prefix: str
) -> list[OutOfLane]:
    """Every file a plan module's branch changed outside its lane."""
    if plan is None:
        return []
    by_id = {module.id: module for module in reversed(plan.modules)}  # the first of an id
    found: list[OutOfLane] = []
    for module in modules:
        planned = by_id.get(module.work.module_id)
        if planned is None:
            continue
        # A branch built on another previewed module's branch (a dependent started
        # before its dependency merged) carries that work too: it is not its own.
        others = {other.work.commit for other in modules} - {module.work.commit}
        own = own_changes(top, module.fork_point, module.work.commit, others)
        found.extend(
            out_of_lane(
                plan,
                planned,
                top=top,
                root=context.root,
                prefix=prefix,
                fork_point=module.fork_point,
                # What its branch changes in the end, and its own commits touched.
                committed=module.committed
                if own is None
                else tuple(path for path in module.committed if path in own),
                config=context.config,
            )
        )
    return found


def merge_check(context: StageContext, ask: MergeAsk) -> MergeCheckReport:
    """Preview merging the modules ``ask`` names into its base; :class:`UsageError` on bad input."""
    root = context.root
    plan = _plan(root, ask)
    chosen = _chosen(plan, ask)
    top_text = git_text(root, "rev-parse", "--show-toplevel")
    if top_text is None:
        raise UsageError(f"{root} is not in a git repository: a merge preview needs one")
    top = Path(top_text)
    prefix = project_prefix(root)
    base_name, base = _base(top, context, ask.base_ref)
    # Modules named (a list, a layer) must all be found; by default, every plan
    # module that has work so far is previewed (later layers may not have started).
    unfound: list[str] | None = None if ask.modules or ask.layer is not None else []
    works = locate(
        top, root, chosen, given=ask.branches, session=_session(root, ask.run_id), missing=unfound
    )
    notices: list[str] = []
    if unfound:
        notices.append(
            f"not previewed, no branch or worktree found: {clip(', '.join(unfound), 300)}"
        )
    modules: list[_Module] = []
    stale: list[StaleModule] = []
    for work in works:
        start = fork_point(top, base, work.commit)
        committed = committed_changes(top, start, work.commit)
        modules.append(_Module(work, _project_paths(committed, prefix), start, committed))
        if start != base:
            behind = int(git_text(top, "rev-list", "--count", f"{start}..{base}") or 0)
            stale.append(
                StaleModule(
                    module_id=work.module_id,
                    fork_point=start,
                    behind=behind,
                    message=f"module {work.module_id} ({work.ref}) forked from {start[:12]}, "
                    f"{behind} commit{'' if behind == 1 else 's'} behind {base_name}: rebase "
                    "it on the base before merging back",
                )
            )
    strays = _strays(context, plan, modules, top, prefix)
    uncommitted: dict[str, list[str]] = {}
    for module in modules:
        if module.work.worktree is not None:
            changes = working_changes(module.work.worktree, base)
            if changes is not None and changes.uncommitted:
                shown = _project_paths(changes.uncommitted[:SHOWN_FILES], prefix)
                uncommitted[module.work.module_id] = list(shown)
                notices.append(
                    f"module {module.work.module_id} has {len(changes.uncommitted)} uncommitted "
                    f"change(s) in {module.work.worktree}: not part of the preview; commit them"
                )
    current = base
    conflicts: list[MergeConflict] = []
    for module in modules:
        outcome = merge_tree(top, current, module.work.commit)
        if not outcome.clean:
            conflicts.extend(_conflicts(outcome, module, modules, base_name, prefix, strays))
            continue
        current = commit_tree(
            top,
            outcome.tree,
            [current, module.work.commit],
            f"forge merge preview: {module.work.module_id}",
        )
        module.merged = True
    if len(conflicts) > SHOWN_CONFLICTS:
        notices.append(f"{len(conflicts)} conflicting files; the first {SHOWN_CONFLICTS} listed")
        conflicts = conflicts[:SHOWN_CONFLICTS]
    merged = [module for module in modules if module.merged]
    breaks = []
    checked = 0
    if ask.checks and merged and current != base:
        found = find_breaks(
            context,
            top,
            prefix,
            merged_commit=current,
            base_commit=base,
            changed={module.work.module_id: module.changed for module in merged},
            commits={module.work.module_id: module.work.commit for module in merged},
        )
        breaks, checked = found.breaks, found.checked
        notices.extend(found.notices)
    verdicts = {
        module.work.module_id: latest_verdict(
            context.forge_dir, module.work.module_id, ask.run_id, context.config.max_attempts
        )
        for module in modules
    }
    failed = [module_id for module_id, found in verdicts.items() if found and not found.passed]
    unvalidated = [module_id for module_id, found in verdicts.items() if found is None]
    if unvalidated:
        notices.append(f"not validated yet: {clip(', '.join(unvalidated), 300)}")
    return MergeCheckReport(
        passed=not conflicts and not breaks and not strays and not failed,
        base_ref=base_name,
        base_commit=base,
        order=[module.work.module_id for module in modules],
        modules=[
            MergedModule(
                module_id=module.work.module_id,
                ref=module.work.ref,
                commit=module.work.commit,
                source=module.work.source,
                worktree=str(module.work.worktree) if module.work.worktree else None,
                changed_files=list(module.changed[:SHOWN_FILES]),
                merged=module.merged,
                uncommitted=uncommitted.get(module.work.module_id, []),
                verdict=verdicts[module.work.module_id],
            )
            for module in modules
        ],
        conflicts=conflicts,
        integration_breaks=breaks,
        lane_violations=strays,
        failed_verdicts=failed,
        stale=stale,
        merged_commit=current if current != base else None,
        checked_files=checked,
        notices=notices,
    )


def _plan(root: Path, ask: MergeAsk) -> Plan | None:
    """The plan named, else the run's (session planPath, FORGE_PLAN, newest), else none."""
    if ask.plan_path is not None:
        path, named = root / Path(ask.plan_path).expanduser(), ask.plan_path
    else:
        found = ForgeDir(root).run_plan(ask.run_id)
        if found is None:
            if ask.branches:
                return None
            raise UsageError(
                "no plan to take the modules from: give planPath, or branches for each module"
            )
        path, named = found, str(found)
    # The run's plan too: one that cannot be read is no reason to merge in any order.
    plan = read_plan(path)
    if plan is None:
        raise UsageError(f"cannot read the plan {clip(named, 200)}: check it with forge plan check")
    return plan


def _chosen(plan: Plan | None, ask: MergeAsk) -> list[PlanModule | str]:
    """The modules to merge, in dependency order (plan layers, then plan order)."""
    if ask.modules and ask.layer is not None:
        raise UsageError("give modules or a layer, not both")
    if plan is None:
        if ask.layer is not None:
            raise UsageError("a layer needs a plan: give planPath")
        return list(ask.modules or ask.branches)
    by_id: dict[str, PlanModule] = {}
    for module in plan.modules:  # the first of a duplicated id stands for it, as in the graph
        by_id.setdefault(module.id, module)
    layers = plan.graph.layers()
    order = [module_id for layer in layers for module_id in layer]
    order += [module.id for module in plan.modules if module.id not in set(order)]
    if ask.layer is not None:
        if not 1 <= ask.layer <= len(layers):
            raise UsageError(f"layer {ask.layer}: the plan has layers 1 to {len(layers)}")
        wanted = list(layers[ask.layer - 1])
    else:
        wanted = list(ask.modules or order)
    unknown = [module_id for module_id in [*wanted, *ask.branches] if module_id not in by_id]
    if unknown:
        raise UsageError(
            f"no module {clip(', '.join(unknown), 200)} in the plan: its modules are "
            f"{clip(', '.join(by_id), 300)}"
        )
    rank = {module_id: index for index, module_id in enumerate(order)}
    return [by_id[module_id] for module_id in sorted(dict.fromkeys(wanted), key=rank.__getitem__)]


def _base(top: Path, context: StageContext, ref: str | None) -> tuple[str, str]:
    """(name, commit) of what the modules merge into: the ref given, the configured one, the default."""
    named = ref or context.config.base_ref
    if named is None or named == AUTO:
        branch = default_branch(top)
        if branch is None:
            raise UsageError(
                "no base to merge into: give baseRef (--base), or create main or master"
            )
        named = branch.removeprefix("refs/heads/").removeprefix("refs/remotes/")
    base = resolve_base(top, named)
    if base is None:  # pragma: no cover - top is a git work tree
        raise GitError(f"no base {named!r}")
    return named, base.commit


def _session(root: Path, run_id: str | None) -> dict[str, str]:
    """The run's ``worktrees`` (module id -> folder) from its session snapshot."""
    trees = ForgeDir(root).session_state(run_id).get("worktrees")
    if not isinstance(trees, dict):
        return {}
    return {
        key: value
        for key, value in trees.items()
        if isinstance(key, str) and isinstance(value, str) and value
    }


def _project_paths(paths: Sequence[str], prefix: str) -> tuple[str, ...]:
    """Repository paths as the plan writes them: relative to the project root."""
    return tuple(path[len(prefix) :] if path.startswith(prefix) else path for path in paths)


def _conflicts(
    outcome: MergeOutcome,
    module: _Module,
    modules: list[_Module],
    base_name: str,
    prefix: str,
    strays: list[OutOfLane],
) -> list[MergeConflict]:
    """One conflict per file: the earlier modules that changed it, else the base; a module
    that changed the file outside its lane is named as the cause."""
    files = list(outcome.conflicted) or sorted(
        {path for message in outcome.messages if message.conflict for path in message.paths}
    )
    found = []
    for repo_path in files or ["(unknown)"]:
        path = _project_paths([repo_path], prefix)[0]
        others = [
            other.work.module_id
            for other in modules
            if other.merged and other is not module and path in other.changed
        ]
        kinds = outcome.kinds(repo_path)
        mine = module.work.module_id
        advice = conflict_advice(path, mine, others, strays)
        if advice is not None:
            message = f"{advice} ({', '.join(kinds)})"
        elif others:
            message = (
                f"{path}: {', '.join(others)} and {mine} both change it and git cannot merge "
                f"them ({', '.join(kinds)}): merge {mine} after resolving it, or give one "
                "module a dependsOn on the other"
            )
        else:
            message = (
                f"{path}: {mine} conflicts with {base_name}, which changed it since {mine} "
                f"forked ({', '.join(kinds)}): rebase {mine} on {base_name}"
            )
        found.append(
            MergeConflict(
                files=[path],
                modules=[*others, mine],
                with_base=not others,
                kinds=kinds,
                message=message,
            )
        )
    return found
