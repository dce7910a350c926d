"""The edit stage: what ``forge hook`` asks after a tool wrote files (``Engine.judge_edit``).

An edit answers to the checks declared to judge edits
(``CheckDescriptor.judges_edits``) over the edited files, the files of the
editor's plan module and every project file that imports an edited one; the
lane check too, when an edited file leaves the module's lane. Verify commands
and work-in-progress checks wait for the stop; their plugins are not even run
(nor imported). Halting checks run too: their failure stops the others, as in
a validate.

A file over ``[tool.forge] max-parse-bytes`` is not judged, and the judgement
says so (:attr:`EditJudgement.notes`): no check reads it, its importers are not
searched; its lane is still judged (the lane check reads git, not the file).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from forge.checks.lane_check import CHECK_ID as LANE_CHECK
from forge.contracts.importers import find_importers, mentioning
from forge.git import GitError, resolve_base
from forge.languages import over_parse_limit
from forge.models import ValidateRequest
from forge.paths import absolute, path_key
from forge.plan.lanes import in_lane
from forge.plan.locate import PlanModuleRef
from forge.plan.model import normalise_path
from forge.test_runs.file_kinds import may_change_spec
from forge.validate.preparation import workspace_for
from forge.validate.verdict import counted

if TYPE_CHECKING:
    from forge.git import Base
    from forge.models import CheckResult
    from forge.plan.model import Plan, PlanModule
    from forge.validate.context import StageContext

#: Seconds the checks of one edit may take (``Workspace.budget``): a check that cannot
#: answer in time, a cold type checker, skips rather than keep the agent waiting.
EDIT_BUDGET_SECONDS = 2.0
#: The module id an edit's request carries: an edit is no module's attempt.
EDIT_MODULE_ID = "hook"


class EditTarget(Protocol):
    """The plan module whose worker made the edit (``forge.hook.target.Target``)."""

    @property
    def root(self) -> Path:
        """The project root."""
        ...

    @property
    def plan_path(self) -> Path:
        """The plan the module is in."""
        ...

    @property
    def plan(self) -> Plan:
        """The plan, as read for this edit."""
        ...

    @property
    def module(self) -> PlanModule:
        """The module."""
        ...

    @property
    def working_dir(self) -> Path:
        """Where its worker works (its worktree, or the project)."""
        ...


class Edit(NamedTuple):
    """Files a tool call wrote, and what the front end knows of who wrote them.

    :param cwd: the editor's working dir; relative names are relative to it.
    :param files: the edited files that exist.
    :param importers: project files whose text names an edited file (None: search
        under ``search``, a forge project's folder, for the files within the parse limit).
    :param target: the plan module of the editor, if it is a forge worker.
    :param owners: each planned file (resolved path) and the module that owns it.
    """

    cwd: Path
    files: list[Path]
    importers: list[Path] | None = None
    search: Path | None = None
    target: EditTarget | None = None
    owners: Mapping[str, str] = {}


class EditFinding(NamedTuple):
    """A failed check about an edited file, and the other plan module its importer is in."""

    result: CheckResult
    other_module: str | None = None


class EditJudgement(NamedTuple):
    """What an edit broke (nothing: allow), what was not judged, and the files it was about."""

    findings: list[EditFinding]
    notes: list[str]
    files: list[Path]


def judge_edit(context: StageContext, edit: Edit) -> EditJudgement:
    """The edit checks of ``edit``: the findings in its files, or in their importers."""
    cwd = edit.cwd
    base, plan = _lane_of(context, edit.target, edit.files)
    files = [path for path in edit.files if context.languages.for_path(path) is not None or base]
    files, over, notes = _not_judged(files, context.config.max_parse_bytes, cwd)
    # A file too large to parse still leaves its lane: the lane check reads git, not it.
    lane_only = {path_key(path) for path in over} if base is not None else set()
    if not files and not lane_only:
        # No language forge knows: not forge's business; too large: said so.
        return EditJudgement([], notes, [*files, *over])
    importers = edit.importers
    if importers is None:
        importers = find_importers(edit.search, files)[0] if edit.search else []
    edited = {path_key(path) for path in files}
    own_module = edit.target.module.id if edit.target is not None else None
    planned = [Path(key) for key in edit.owners if key not in edited]
    listed: dict[str, Path] = {}
    for path in [
        *(absolute(cwd, name) for name in (edit.target.module.files if edit.target else [])),
        *importers,
        *mentioning(planned, files),  # the plan's importers, should the search have stopped
    ]:
        key = path_key(path)
        if key not in edited and context.languages.for_path(path) is not None:
            listed.setdefault(key, path)
    request = ValidateRequest(
        module_id=EDIT_MODULE_ID,
        cwd=str(cwd),
        files=[str(path) for path in [*files, *listed.values()]],
    )
    checks = context.plugins.checks
    judging = {
        checks.owners[check_id]
        for check_id, declared in checks.descriptors.items()
        if declared.halts_on_failure
        or (declared.judges_edits and (files or check_id == LANE_CHECK))
    }
    findings: list[EditFinding] = []
    workspace = workspace_for(context, request, base=base, plan=plan)
    workspace.budget = EDIT_BUDGET_SECONDS
    for result in context.run_checks(request, workspace, plugins=judging):
        declared = checks.get(result.type)
        if result.passed or declared is None or not declared.judges_edits:
            continue
        about = edited | lane_only if result.type == LANE_CHECK else edited
        if _concerns(result, about, cwd):
            owner = _other_module(result, edit.owners, own_module, edited, cwd)
            findings.append(EditFinding(result, owner))
    return EditJudgement(findings, notes, [*files, *over])


def _not_judged(
    files: list[Path], max_parse_bytes: int, cwd: Path
) -> tuple[list[Path], list[Path], list[str]]:
    """``files`` within the parse limit, those over it, and a line naming each of those.

    A file over the limit is not judged at all: the syntax check would pass it
    with a note, the contract check fail its importers ("cannot check"), and a
    type checker take its whole budget on it. Known from its size, nothing read.
    """
    kept: list[Path] = []
    over: list[Path] = []
    notes: list[str] = []
    for path in files:
        problem = over_parse_limit(path, max_parse_bytes)
        if problem is None:
            kept.append(path)
        else:
            over.append(path)
            notes.append(f"forge: {_shown(path, cwd)} not checked (too large to judge): {problem}")
    return kept, over, notes


def _shown(path: Path, cwd: Path) -> str:
    try:
        return path.resolve().relative_to(cwd.resolve()).as_posix()
    except ValueError:
        return str(path)


def _lane_of(
    context: StageContext, target: EditTarget | None, files: list[Path]
) -> tuple[Base | None, PlanModuleRef | None]:
    """The base and plan module the lane and spec checks need, when an edit may need them.

    An edit inside its module's lane costs nothing more; one outside it (another
    module's file, a disallowed one), or of a test or a runner's configuration,
    is judged against the base (``[tool.forge] base-ref``, else ``auto``: where
    the worktree forked), like ``validate``.
    """
    if target is None:
        return None, None

    listed = {normalise_path(name, target.root) for name in target.module.files}

    inside = []
    spec = False
    for path in files:
        try:
            relative = path.resolve().relative_to(target.working_dir.resolve()).as_posix()
        except ValueError:
            return None, None  # an edit outside the worktree is not the module's change
        inside.append(in_lane(relative, target.module, listed))
        # An edit of a test or a runner's configuration answers to the spec tests too.
        spec = spec or may_change_spec(relative)
    if all(inside) and not spec:
        return None, None

    try:
        base = resolve_base(target.working_dir, context.config.base_ref or "auto")
    except GitError:
        return None, None
    if base is None:
        return None, None
    return base, PlanModuleRef(
        plan=target.plan, module=target.module, path=target.plan_path, root=target.root
    )


def _concerns(result: CheckResult, edited: set[str], cwd: Path) -> bool:
    """Whether a result is about an edited file: its syntax, a pair it is one side of,
    or a counted place in it (a type error in the edited file)."""
    sides = [getattr(result, "exporter", None), getattr(result, "importer", None)]
    if not any(sides):
        sides = [result.target]
        sides += [place.path for place in result.locations if counted(place)]
    return any(isinstance(side, str) and path_key(absolute(cwd, side)) in edited for side in sides)


def _other_module(
    result: CheckResult, owners: Mapping[str, str], own: str | None, edited: set[str], cwd: Path
) -> str | None:
    """The plan module, other than the editor's own, that owns the importer a result is about."""
    importer = getattr(result, "importer", None)
    if not isinstance(importer, str):
        return None
    key = path_key(absolute(cwd, importer))
    owner = owners.get(key)
    return owner if key not in edited and owner != own else None
