"""The data forge passes around: requests, check results, reports, plugin descriptors.

These pydantic models are the single source of every schema forge shows: the
MCP tools' input and output schemas, the JSON the CLI prints, and what hook
implementations receive and return. On the wire every field is camelCase
(``moduleId``, ``exitCode``); in Python it is snake_case.

Plugins import from here: subclass :class:`CheckResult` to add fields of
your own check, return :class:`Language` from ``forge_languages`` and
:class:`PlanFinding` from ``forge_check_plan``.

The models live in submodules by job: :mod:`~forge.models.wire` (the base and
limits), :mod:`~forge.models.request`, :mod:`~forge.models.results`,
:mod:`~forge.models.descriptors` and :mod:`~forge.models.plugin_options` (a
plugin's own options). Import them from ``forge.models``: importing the package builds every model,
which is what a plugin's first import wants.
"""

from forge.models.descriptors import (
    MAX_FINDING_MESSAGE,
    MAX_FINDING_NAME,
    CheckDescriptor,
    ExternalTool,
    Language,
    PlanFinding,
    PlanRuleDescriptor,
    Severity,
    SyntaxAuthority,
    SyntaxVerdict,
)
from forge.models.plugin_options import PluginOptions, PluginOptionsError, parse_plugin_options
from forge.models.request import ContractPair, ModuleId, OptionalRunId, ValidateRequest
from forge.models.results import (
    AcceptanceResult,
    CheckResult,
    CommandResult,
    ContractResult,
    FileResult,
    Location,
    MissingImport,
    SyntaxLocation,
    SyntaxResult,
    TestCounts,
)
from forge.models.wire import (
    CHECK_TYPE_PATTERN,
    MAX_BASE_REF_CHARS,
    MAX_COMMAND_LENGTH,
    MAX_COMMANDS,
    MAX_CONTRACT_CHECKS,
    MAX_FILES,
    MAX_PATH_LENGTH,
    MAX_TIMEOUT_SECONDS,
    BaseRefText,
    CommandText,
    PathText,
    StoredRecord,
    WireModel,
)

__all__ = [
    "CHECK_TYPE_PATTERN",
    "MAX_BASE_REF_CHARS",
    "MAX_COMMANDS",
    "MAX_COMMAND_LENGTH",
    "MAX_CONTRACT_CHECKS",
    "MAX_FILES",
    "MAX_FINDING_MESSAGE",
    "MAX_FINDING_NAME",
    "MAX_PATH_LENGTH",
    "MAX_TIMEOUT_SECONDS",
    "AcceptanceResult",
    "BaseRefText",
    "CheckDescriptor",
    "CheckResult",
    "CommandResult",
    "CommandText",
    "ContractPair",
    "ContractResult",
    "ExternalTool",
    "FileResult",
    "Language",
    "Location",
    "MissingImport",
    "ModuleId",
    "OptionalRunId",
    "PathText",
    "PlanFinding",
    "PlanRuleDescriptor",
    "PluginOptions",
    "PluginOptionsError",
    "Severity",
    "StoredRecord",
    "SyntaxAuthority",
    "SyntaxLocation",
    "SyntaxResult",
    "SyntaxVerdict",
    "TestCounts",
    "ValidateRequest",
    "WireModel",
    "parse_plugin_options",
]
