"""``lane_check``: a plan module changes only the files of its lane.

With a base revision (``baseRef``, ``--base``, ``[tool.forge] base-ref``), a
plan module behind the validate call, and a working dir that is the module's
own checkout (a worktree or clone, not the project's checkout, where every
module's work meets), every file the working dir changed
since it forked from the base, committed or not, must be in the module's lane:
its ``files`` and ``mayChange`` globs, minus its ``disallowed_changes``
(:mod:`forge.plan.lanes`). A file outside is a failure naming it and, when
another module lists it, that module; one passing result says the lane held.
A plan file (under ``.forge/plans/``, or the one the call reads) the working
dir changed fails too, naming the plan fields changed
(:mod:`forge.plan.plan_edits`), unless the module's files or a literal
mayChange entry name it: the plan is the orchestrator's.
Without a base or a plan module there is nothing to compare, and no result.
``forge hook`` blocks a worker's edit of a file outside its lane at once.
"""

from __future__ import annotations

from pathlib import Path

from forge import hookimpl
from forge.models import CheckDescriptor, CheckResult, FileResult, ValidateRequest
from forge.workspace import Workspace

#: The check's id.
CHECK_ID = "lane_check"
#: The target of the one passing result: the lane as a whole.
LANE_TARGET = "(lane)"


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """A failure per changed file outside the module's lane, else one pass."""
    base = workspace.base
    if base is None or not workspace.cwd.is_dir():
        return []
    ref = workspace.plan_module
    if ref is None:
        return []
    from forge.git import GitError
    from forge.git.changes import working_changes
    from forge.plan.lanes import lane_violations, project_prefix
    from forge.plan.plan_edits import plan_edits

    module = ref.module
    try:
        changes = working_changes(workspace.cwd, base.commit)
    except GitError as exc:
        return [
            CheckResult(
                type=CHECK_ID,
                target=LANE_TARGET,
                passed=False,
                message=f"cannot list module {module.id}'s changes against {base.ref}: {exc}",
            )
        ]
    if changes is None or changes.top.resolve() == _checkout_of(ref.root):
        # The project's own checkout is where every module's work meets (a plan
        # run with --all, a CI job): lanes are about a worker's own worktree.
        return []
    prefix = project_prefix(ref.root)
    violations = lane_violations(
        changes,
        module,
        ref.plan,
        prefix=prefix,
        root=ref.root,
        generated=workspace.config.generated,
    )
    edits = plan_edits(changes, module, prefix=prefix, root=ref.root, plan_path=ref.path)
    if not violations and not edits:
        count = len(changes.files)
        return [
            CheckResult(
                type=CHECK_ID,
                target=LANE_TARGET,
                passed=True,
                message=f"{count} changed file{'' if count == 1 else 's'} since "
                f"{changes.fork_point[:12]} ({base.ref}), all in module {module.id}'s lane",
            )
        ]
    results: list[CheckResult] = [
        FileResult(
            type=CHECK_ID,
            target=violation.path,
            passed=False,
            message=violation.message(module.id),
        )
        for violation in violations
    ]
    results.extend(
        FileResult(type=CHECK_ID, target=edit.path, passed=False, message=edit.message(module.id))
        for edit in edits
    )
    return results


def _checkout_of(root: Path) -> Path | None:
    """The top-level folder of the project root's own checkout."""
    from forge.git.runner import git_text

    top = git_text(root, "rev-parse", "--show-toplevel")
    return Path(top).resolve() if top else None


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``lane_check``: after the file checks, before the commands."""
    return [
        CheckDescriptor(
            id=CHECK_ID,
            summary="A plan module changed only the files of its lane (files, mayChange, "
            "minus disallowed_changes) since the base revision.",
            order=42,
            targets_file=True,
            # forge hook blocks an edit that leaves the lane at once (it asks only
            # when the edited file is outside the lane: an edit inside costs nothing).
            judges_edits=True,
            read_only=True,
        )
    ]
