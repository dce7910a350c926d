"""What a merge preview returns (``forge merge check``, the ``merge_check`` tool)."""

from __future__ import annotations

from pydantic import Field, SerializeAsAny

from forge.models import Location, WireModel


class RecordedVerdict(WireModel):
    """A module's latest recorded validation: what forge said of it last."""

    recommendation: str = Field(description="PROCEED, RETRY or ESCALATE.")
    passed: bool = Field(description="Whether every check passed.")
    attempt: int = Field(description="Its attempt number.")
    score: float | None = Field(default=None, description="Its score, when it has one.")
    run_id: str | None = Field(default=None, description="The run it was recorded in.")
    timestamp: str = Field(description="When it was recorded.")


class OutOfLane(WireModel):
    """A file a module's branch changed that its lane does not allow."""

    module_id: str = Field(description="The module whose branch changed it.")
    file: str = Field(description="The file, relative to the project root.")
    owners: list[str] = Field(description="Other modules that list the file in their files.")
    message: str = Field(description="One line for people and agents.")


class MergedModule(WireModel):
    """One module of the preview: where its work was found and what became of it."""

    module_id: str = Field(description="The plan module.")
    ref: str = Field(description="What named its work: a branch, a commit or a worktree folder.")
    commit: str = Field(description="The commit merged.")
    source: str = Field(
        description="How it was found: argument, plan (its branch field), session (the run's "
        "worktrees), worktree (git worktree list) or branch (a branch named after it)."
    )
    worktree: str | None = Field(default=None, description="The worker's checkout, if known.")
    changed_files: list[str] = Field(
        description="Files its commits changed since it forked from the base (first 200)."
    )
    merged: bool = Field(description="False when it conflicted: it is not in the merged tree.")
    uncommitted: list[str] = Field(
        default_factory=list,
        description="Files changed in its worktree but not committed: not part of the preview.",
    )
    verdict: RecordedVerdict | None = Field(
        default=None,
        description="Its latest recorded validation (in the run, when one is named); null "
        "when it was never validated.",
    )


class MergeConflict(WireModel):
    """Files that would conflict when the module is merged after the ones before it."""

    files: list[str] = Field(description="The conflicting files.")
    modules: list[str] = Field(
        description="The modules whose changes meet there: the earlier ones, then the one "
        "being merged."
    )
    with_base: bool = Field(
        description="True when the other side is the base (it moved on since the module forked)."
    )
    kinds: list[str] = Field(description="git's conflict types, e.g. CONFLICT (contents).")
    message: str = Field(description="One line for people and agents.")


class IntegrationBreak(WireModel):
    """A finding of the merged tree that no single branch (nor the base) has."""

    type: str = Field(description="The check that found it, e.g. contract_check.")
    target: str = Field(description="What the check was about: a file or a pair.")
    message: str = Field(description="The check's message.")
    modules: list[str] = Field(description="The modules whose changes meet there.")
    files: list[str] = Field(description="The files involved.")
    locations: list[SerializeAsAny[Location]] = Field(
        default_factory=list, description="Where, in the merged tree (project-relative paths)."
    )


class StaleModule(WireModel):
    """A module whose work forked from an older commit than the base it merges into."""

    module_id: str
    fork_point: str = Field(description="Where its work forked from the base's history.")
    behind: int = Field(description="Commits the base gained since then.")
    message: str


class MergeCheckReport(WireModel):
    """The merge preview: conflicts, integration breaks and stale work, before any merge."""

    passed: bool = Field(
        description="No conflict, no integration break, no change outside a lane, and no "
        "module whose latest validation failed."
    )
    base_ref: str = Field(description="What the modules merge into, as named.")
    base_commit: str = Field(description="Its commit.")
    order: list[str] = Field(description="The modules in the order they were merged.")
    modules: list[MergedModule] = Field(description="Each module: its work and whether it merged.")
    conflicts: list[MergeConflict] = Field(description="Files git cannot merge, one per file.")
    integration_breaks: list[IntegrationBreak] = Field(
        description="Findings of the merged tree that no single branch, nor the base, has."
    )
    lane_violations: list[OutOfLane] = Field(
        default_factory=list,
        description="Files a module's branch changed outside its lane (its files and "
        "mayChange, minus disallowed_changes), each naming the module that owns it.",
    )
    failed_verdicts: list[str] = Field(
        default_factory=list,
        description="Modules whose latest recorded validation did not pass.",
    )
    stale: list[StaleModule] = Field(description="Warnings: work forked from an older base.")
    merged_commit: str | None = Field(
        default=None,
        description="The preview's merge commit (no ref points at it): "
        "git diff BASE <mergedCommit> shows the result.",
    )
    checked_files: int = Field(
        default=0, description="Files the checks read in the merged tree (changed, and importers)."
    )
    notices: list[str] = Field(default_factory=list, description="What else to know.")
