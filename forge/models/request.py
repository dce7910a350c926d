"""What one ``validate`` call asks for: :class:`ValidateRequest`.

Its module and run ids (:data:`ModuleId`, :data:`OptionalRunId`) are declared once here
for the ``iteration_state`` tool too.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from forge.models.wire import (
    MAX_COMMANDS,
    MAX_CONTRACT_CHECKS,
    MAX_FILES,
    MAX_TIMEOUT_SECONDS,
    BaseRefText,
    CommandText,
    PathText,
    WireModel,
)
from forge.store.ids import SafeId, SafeRunId


class ContractPair(WireModel):
    """One ``{exporter, importer}`` pair: what the importer takes from the exporter must exist."""

    exporter: PathText = Field(description="File that exports names.")
    importer: PathText = Field(description="File that imports from it.")


#: The module whose attempt history a request is about (``validate``, ``iteration_state``).
ModuleId = Annotated[
    SafeId, Field(description="Plan module id, e.g. m1 or auth-api; keys the attempt history.")
]
#: The run that history is kept in: ``None`` (the field's default) for one-off use.
OptionalRunId = Annotated[
    SafeRunId | None,
    Field(
        description="Run id, e.g. run-2026-01-15; attempts and events are kept per run. "
        "Omit only for one-off use."
    ),
]


class ValidateRequest(WireModel):
    """Everything one ``validate`` call asks for."""

    module_id: ModuleId
    commands: list[CommandText] = Field(
        default_factory=list,
        max_length=MAX_COMMANDS,
        description=(
            "Verify commands, run with sh in the working dir; each must exit 0, and a test "
            "runner in it must run at least one test."
        ),
    )
    files: list[PathText] = Field(
        default_factory=list,
        max_length=MAX_FILES,
        description="Files the module must have produced, relative to the working dir "
        "(absolute allowed). Existing files of a known language are also parsed.",
    )
    contract_checks: list[ContractPair] = Field(
        default_factory=list,
        max_length=MAX_CONTRACT_CHECKS,
        description="Exporter/importer pairs: every name the importer takes from the "
        "exporter must really be exported.",
    )
    cwd: PathText | None = Field(
        default=None,
        description="Working dir, e.g. a worker's worktree; relative to the project root "
        "(for a server started in a worker's git worktree: to that worktree). Default: the "
        "project root, or that worktree.",
    )
    run_id: OptionalRunId = None
    timeout: float | None = Field(
        default=None,
        gt=0,
        le=MAX_TIMEOUT_SECONDS,
        description="Per-command timeout in seconds (default 120).",
    )
    auto_contracts: bool = Field(
        default=True,
        description="Also check every local import of the listed files (default true).",
    )
    max_attempts: int | None = Field(
        default=None,
        ge=1,
        le=1_000,
        description="Attempts before ESCALATE (default 3, or [tool.forge] max-attempts).",
    )
    plugin_options: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description='Options for check plugins by plugin name, e.g. {"stubs": {}}; each key '
        "must name a loaded plugin.",
    )
    base_ref: BaseRefText | None = Field(
        default=None,
        description="Git revision to judge against: findings the file checks also find in "
        "the file at this revision are marked preExisting and do not fail the module. 'auto' = "
        "merge-base with the default branch. Default: [tool.forge] base-ref, else none.",
    )
