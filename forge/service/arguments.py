"""Each tool's arguments, declared once: one request model per tool.

The MCP adapter derives every tool's signature (and so its input schema) from
these models (:func:`tool_parameters`), and the CLI builds the same models from
its flags, so a limit or a description is written in one place. Field names
are snake_case in Python and camelCase on the wire, as the tools' arguments.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any, Literal

from pydantic import Field
from pydantic.fields import FieldInfo

from forge.memory import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RECALL_LIMIT,
    MAX_QUERY_LENGTH,
    MAX_RECALL_LIMIT,
    MAX_TAGS,
    Category,
    RecallScope,
    Scope,
)
from forge.models import (
    MAX_BASE_REF_CHARS,
    BaseRefText,
    ModuleId,
    OptionalRunId,
    PathText,
    ValidateRequest,
    WireModel,
)
from forge.state.event_log import DEFAULT_LIMIT, MAX_LIMIT, EventSeverity, Phase
from forge.store.ids import SafeId, SafeRunId
from forge.validate.iteration import IterationUpdate

IterationAction = Literal["get", "update", "reset"]
SessionAction = Literal["save", "load", "list"]


class ValidatePlanRequest(WireModel):
    """``validate_plan``: a plan file or an inline plan."""

    plan_path: PathText | None = Field(
        default=None,
        description="Plan JSON file, relative to the project root. Default: the most "
        "recently modified .forge/plans/*.json.",
    )
    plan: dict[str, Any] | None = Field(
        default=None, description="An inline plan object to check instead of a file."
    )


class MemorySaveRequest(WireModel):
    """``memory_save``: one learning to remember."""

    pattern: str = Field(
        min_length=1,
        max_length=1024,
        description="The learning, one or two sentences, at most 1 KB.",
    )
    category: Category = Field(description="Kind of learning.")
    confidence: float = Field(
        default=DEFAULT_CONFIDENCE, ge=0, le=1, description="How sure you are, 0..1 (default 0.7)."
    )
    scope: Scope = Field(
        default="project",
        description="project (this project only, default) or global (every project).",
    )
    tags: list[str] = Field(
        default_factory=list,
        max_length=MAX_TAGS,
        description="Extra words to find it by, e.g. ['pytest'].",
    )


class MemoryRecallRequest(WireModel):
    """``memory_recall``: what to look for, where, how many."""

    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY_LENGTH,
        description="Words to look for, e.g. 'test command vitest'.",
    )
    scope: RecallScope = Field(default="all", description="project, global or all (default).")
    limit: int = Field(
        default=DEFAULT_RECALL_LIMIT,
        ge=1,
        le=MAX_RECALL_LIMIT,
        description="Most entries to return (default 10).",
    )
    category: Category | None = Field(default=None, description="Only entries of this category.")


class IterationStateRequest(WireModel):
    """``iteration_state``: read, append to or clear one module's attempt history."""

    module_id: ModuleId
    action: IterationAction = Field(
        description="get (read), update (append an attempt) or reset (clear)."
    )
    run_id: OptionalRunId = None
    update: IterationUpdate | None = Field(
        default=None, description="For update: {status, issues, score, rootCause}."
    )


class ForgeLogsRequest(WireModel):
    """``forge_logs``: which run's events, filtered how, how many."""

    run_id: SafeRunId | None = Field(
        default=None,
        description="Run whose log to read. Default: the agents' most recently written run.",
    )
    module_id: str | None = Field(
        default=None, max_length=128, description="Only events of this module."
    )
    phase: Phase | None = Field(default=None, description="Only events of this phase.")
    severity: EventSeverity | None = Field(
        default=None, description="Only events of this severity."
    )
    limit: int = Field(
        default=DEFAULT_LIMIT,
        ge=1,
        le=MAX_LIMIT,
        description="Most entries to return, the latest (default 50).",
    )


class SessionStateRequest(WireModel):
    """``session_state``: save, load or list orchestrator snapshots."""

    action: SessionAction = Field(
        description="save (write a snapshot), load (read one) or list (all of them)."
    )
    run_id: SafeRunId | None = Field(
        default=None, description="Run id; required for save and load."
    )
    state: dict[str, Any] | None = Field(
        default=None,
        description="For save: the orchestrator's state, a JSON object of at most 1 MB "
        "(runId, planPath, currentPhase, moduleStatuses, retryCounts, completedModules, "
        "startedAt).",
    )


#: A revision or a folder as a caller may name one: bounded, no NUL byte.
RevisionText = Annotated[
    str, Field(min_length=1, max_length=MAX_BASE_REF_CHARS * 16, pattern=r"^[^\x00]*$")
]
#: Most modules one merge preview takes: more than any plan runs at once.
MAX_MERGE_MODULES = 500


class MergeCheckRequest(WireModel):
    """``merge_check`` (forge's own tool): which modules to merge back, where their work is, into what."""

    plan_path: PathText | None = Field(
        default=None,
        description="Plan JSON file, relative to the project root. Default: the run's plan "
        "(its session's planPath), else the most recently modified .forge/plans/*.json.",
    )
    modules: list[SafeId] = Field(
        default_factory=list,
        max_length=MAX_MERGE_MODULES,
        description="Module ids to merge back, merged in dependency order whatever the order "
        "given. Default: the layer's, else every module of the plan whose work is found "
        "(without a plan: those of branches).",
    )
    layer: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="Merge back the modules of this execution layer (1 = the first wave).",
    )
    branches: dict[SafeId, RevisionText] = Field(
        default_factory=dict,
        max_length=MAX_MERGE_MODULES,
        description="Where a module's work is, by module id: a branch, tag or commit, or its "
        'worktree folder, e.g. {"api": "forge/api"}. Default: the plan\'s branch field, the '
        "run's session worktrees, a worktree or branch named after the module.",
    )
    base_ref: BaseRefText | None = Field(
        default=None,
        description="What the modules merge into, e.g. main. Default: [tool.forge] base-ref "
        "when it names a revision, else the default branch (origin/HEAD, main, master).",
    )
    run_id: SafeId | None = Field(
        default=None,
        description="The run whose session snapshot maps modules to worktrees and names the plan.",
    )
    checks: bool = Field(
        default=True,
        description="Run the file checks on the merged tree to find integration breaks "
        "(default true); false: conflicts and stale work only.",
    )


#: The request model of every tool, in the order the tools are listed.
TOOL_REQUESTS: dict[str, type[WireModel]] = {
    "validate": ValidateRequest,
    "validate_plan": ValidatePlanRequest,
    "memory_save": MemorySaveRequest,
    "memory_recall": MemoryRecallRequest,
    "iteration_state": IterationStateRequest,
    "forge_logs": ForgeLogsRequest,
    "session_state": SessionStateRequest,
    # forge's own, beside the reference server's seven.
    "merge_check": MergeCheckRequest,
}
#: The tools that are forge's own, not the reference server's (listed after its seven).
OWN_TOOLS = ("merge_check",)


def tool_parameters(model: type[WireModel]) -> list[inspect.Parameter]:
    """``model``'s fields as keyword parameters named by their camelCase aliases.

    Each parameter carries the field's type, constraints and description, and
    its default (a fresh one from a default factory): what an MCP SDK turns
    into a tool's input schema. Aliases cannot be used for tool arguments, so
    the camelCase names are the parameters' own names.
    """
    parameters = []
    for name, info in model.model_fields.items():
        described = FieldInfo(
            description=info.description, json_schema_extra=info.json_schema_extra
        )
        annotation = Annotated[info.rebuild_annotation(), described]  # type: ignore[valid-type]
        default = (
            info.get_default(call_default_factory=True)
            if not info.is_required()
            else inspect.Parameter.empty
        )
        parameters.append(
            inspect.Parameter(
                info.alias or name,
                inspect.Parameter.KEYWORD_ONLY,
                default=default,
                annotation=annotation,
            )
        )
    return parameters
