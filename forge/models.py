"""The data forge passes around: requests, check results, reports, plugin descriptors.

These pydantic models are the single source of every schema forge shows: the
MCP tools' input and output schemas, the JSON the CLI prints, and what hook
implementations receive and return. On the wire every field is camelCase
(``moduleId``, ``exitCode``); in Python it is snake_case.

Plugins import from here: subclass :class:`CheckResult` to add fields of
your own check, return :class:`Language` from ``forge_languages`` and
:class:`PlanFinding` from ``forge_check_plan``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializeAsAny,
    ValidationInfo,
    field_validator,
)
from pydantic.alias_generators import to_camel
from typing_extensions import Self

from forge.errors import clip

#: runId and moduleId become file names, so they are held to this pattern.
ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
CHECK_TYPE_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"

#: Limits on one validate request: enough for any real module, small enough
#: that one call cannot tie the server up.
MAX_FILES = 2_000
MAX_COMMANDS = 50
MAX_CONTRACT_CHECKS = 500
MAX_PATH_LENGTH = 4_096
MAX_COMMAND_LENGTH = 10_000
MAX_TIMEOUT_SECONDS = 3_600.0


#: A file or directory path as a caller may send it: bounded, and without the
#: NUL byte no real path can hold.
PathText = Annotated[str, Field(min_length=1, max_length=MAX_PATH_LENGTH, pattern=r"^[^\x00]*$")]


def _runnable(command: str) -> str:
    """``command`` if a shell could run it; ``ValueError`` for a NUL byte."""
    if "\x00" in command:
        raise ValueError("a command cannot hold a NUL byte (no shell can run it)")
    return command


#: A verify command as a caller may send it: bounded, and without a NUL byte, so
#: a command no shell can run is refused with the request, before anything runs.
#: (A validator rather than a pattern, for a message that says why.)
CommandText = Annotated[
    str, Field(min_length=1, max_length=MAX_COMMAND_LENGTH), AfterValidator(_runnable)
]


def check_id(value: str, what: str = "id") -> str:
    """Return ``value`` if it is safe to use as a file name, else raise ``ValueError``.

    ``what`` names the argument in the message (``runId``, ``moduleId``).
    """
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value) or value in {".", ".."}:
        shown = repr(value) if len(str(value)) <= 60 else repr(str(value)[:57] + "...")
        raise ValueError(
            f"{what} {shown} is not a valid id: use 1-128 characters from A-Z a-z 0-9 _ . - "
            "(and not '.' or '..')"
        )
    return value


def is_valid_id(value: object) -> bool:
    """Whether ``value`` is a string that :func:`check_id` accepts."""
    return isinstance(value, str) and bool(ID_PATTERN.fullmatch(value)) and value not in {".", ".."}


def _as_id(value: str, info: ValidationInfo) -> str:
    return check_id(value, to_camel(info.field_name) if info.field_name else "id")


#: A runId or moduleId: validated before it can touch a path. The JSON Schema
#: shows the pattern; the validator also rejects "." and ".." and names the
#: argument and the bad value in its message.
SafeId = Annotated[
    str,
    AfterValidator(_as_id),
    Field(json_schema_extra={"pattern": ID_PATTERN.pattern, "maxLength": 128}),
]


class WireModel(BaseModel):
    """Base of every model that crosses a boundary: immutable, camelCase on the wire."""

    # defer_build: a model's validator is built the first time it is used, so a
    # command pays only for the models it touches (``forge plan check`` is
    # started once per commit and never builds the validate request models).
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=True,
        extra="forbid",
        defer_build=True,
    )

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict with camelCase keys, as tools and ``--json`` output show it."""
        return self.model_dump(mode="json", by_alias=True)


# --- request -----------------------------------------------------------------


class ContractPair(WireModel):
    """One ``{exporter, importer}`` pair: what the importer takes from the exporter must exist."""

    exporter: PathText = Field(description="File that exports names.")
    importer: PathText = Field(description="File that imports from it.")


class ValidateRequest(WireModel):
    """Everything one ``validate`` call asks for."""

    module_id: SafeId = Field(description="Plan module being validated; keys the attempt history.")
    commands: list[CommandText] = Field(
        default_factory=list,
        max_length=MAX_COMMANDS,
        description="Shell commands run in the working dir; each must exit 0.",
    )
    files: list[PathText] = Field(
        default_factory=list,
        max_length=MAX_FILES,
        description="Files that must exist, relative to the working dir (absolute allowed).",
    )
    contract_checks: list[ContractPair] = Field(
        default_factory=list,
        max_length=MAX_CONTRACT_CHECKS,
        description="Exporter/importer pairs whose imports must match exports.",
    )
    cwd: PathText | None = Field(
        default=None,
        description="Working dir; default FORGE_CWD, else the server's working dir.",
    )
    run_id: SafeId | None = Field(
        default=None, description="Run this attempt belongs to; attempts are counted per run."
    )
    timeout: float | None = Field(
        default=None,
        gt=0,
        le=MAX_TIMEOUT_SECONDS,
        description="Per-command timeout in seconds (default 120, or [tool.forge] command-timeout).",
    )
    auto_contracts: bool = Field(
        default=True,
        description="Also check every local import of the listed files (false turns this off).",
    )
    max_attempts: int | None = Field(
        default=None,
        ge=1,
        le=1_000,
        description="Attempts before ESCALATE (default 3, or [tool.forge] max-attempts).",
    )
    plugin_options: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description='Options for plugins, by plugin name, e.g. {"stubs": {"markers": ["TODO"]}}.',
    )


# --- checks ------------------------------------------------------------------


class CheckResult(WireModel):
    """One check's verdict about one target.

    Plugins subclass this to carry their own fields; every result has at least
    ``type`` (the check id), ``target`` (the file, command or pair it is about)
    and ``passed``. The failure identity used by the attempt history is
    ``type:target``, so keep ``target`` stable between runs and put text that
    changes from run to run in ``message``.
    """

    model_config = ConfigDict(extra="allow")

    type: str = Field(pattern=CHECK_TYPE_PATTERN, description="Check id, e.g. file_check.")
    target: str = Field(description="What the check is about: a path, a command, a pair.")
    passed: bool
    message: str = Field(default="", description="One line for people and agents.")
    plugin: str | None = Field(default=None, description="Plugin that produced the result.")
    _halt: bool = PrivateAttr(default=False)

    def halting(self) -> Self:
        """A copy that stops the remaining checks: nothing else can be judged (no working dir)."""
        copy = self.model_copy()
        copy._halt = True
        return copy

    @property
    def halt(self) -> bool:
        """True for a failure after which no other check runs and no attempt is recorded."""
        return self._halt

    @property
    def failure_key(self) -> str:
        """Identity of this failure across attempts: ``type:target``, never the message."""
        return f"{self.type}:{self.target}"


class TestCounts(WireModel):
    """What a test runner reported running, read from its summary in a command's output."""

    __test__: ClassVar[bool] = False  # pytest: a model, not a test class to collect

    runner: str = Field(
        description=(
            "pytest, unittest, node:test, jest, vitest, mocha, go test, cargo test, or tests "
            "(a plain 'N passed, N failed' line); several joined by ' + '."
        )
    )
    passed: int = Field(ge=0, description="Tests that passed (pytest's xpassed included).")
    failed: int = Field(ge=0, description="Tests that failed.")
    skipped: int = Field(ge=0, description="Tests skipped, todo, or expected to fail.")
    errors: int = Field(
        ge=0, description="Tests that raised an error rather than failed, and collection errors."
    )


class CommandResult(CheckResult):
    """Outcome of one verify command."""

    exit_code: int | None = Field(
        description="Exit status; negative for a signal; null if not started."
    )
    timed_out: bool = False
    duration_ms: int = 0
    stdout: str = Field(default="", description="The tail of standard output, capped in size.")
    stderr: str = Field(default="", description="The tail of standard error, capped in size.")
    stdout_bytes: int = Field(default=0, description="Bytes the command wrote to stdout in all.")
    stderr_bytes: int = Field(default=0, description="Bytes the command wrote to stderr in all.")
    tests: TestCounts | None = Field(
        default=None,
        description="The test runner's counts, when the output holds a summary forge recognises.",
    )


class SyntaxLocation(WireModel):
    """One place where a file does not parse."""

    line: int = Field(ge=1, description="1-based line.")
    column: int = Field(ge=1, description="1-based column, in characters.")
    message: str = Field(description="What is wrong, e.g. 'unexpected `)`', 'missing `}`'.")
    source_line: str = Field(description="The line as written (long lines are cut).")


class SyntaxResult(CheckResult):
    """Outcome of parsing one file with its language's tree-sitter grammar."""

    language: str = Field(description="Language the file was parsed as, e.g. python.")
    locations: list[SyntaxLocation] = Field(
        default_factory=list, description="Where the file does not parse (the first few)."
    )
    error_count: int = Field(
        default=0, ge=0, description="Syntax errors found in all; locations lists the first few."
    )


class MissingImport(WireModel):
    """A name the importer takes that the exporter does not export, and where."""

    name: str = Field(description="The missing name; 'default' for a default import.")
    line: int = Field(ge=1, description="1-based line in the importer.")
    column: int = Field(ge=1, description="1-based column in the importer, in characters.")
    suggestion: str | None = Field(
        default=None,
        description="An exported name that was probably meant ('default': the default export).",
    )


class ContractResult(CheckResult):
    """Outcome of one exporter/importer pair: ``target`` is ``exporter -> importer``."""

    exporter: str = Field(description="The file that exports names.")
    importer: str = Field(description="The file that imports from it.")
    exported_names: list[str] = Field(
        default_factory=list, description="What the exporter exports (star re-exports followed)."
    )
    imported_names: list[str] = Field(
        default_factory=list, description="What the importer takes from the exporter."
    )
    missing: list[str] = Field(
        default_factory=list, description="Imported names the exporter does not export."
    )
    missing_details: list[MissingImport] = Field(
        default_factory=list, description="Each missing name with its place and a suggestion."
    )
    exports_known: bool = Field(
        default=True,
        description="False when the exports cannot be known (then nothing is reported missing).",
    )
    automatic: bool = Field(
        default=False,
        description="True for a pair found from a listed file's imports, not asked for.",
    )


# --- report ------------------------------------------------------------------

Recommendation = Literal["PROCEED", "RETRY", "ESCALATE"]


class ValidateReport(WireModel):
    """What ``validate`` returns: the checks, the score, and what to do next."""

    passed: bool = Field(description="True when every check passed.")
    score: float = Field(ge=0, le=1, description="Passed checks / all checks.")
    results: list[SerializeAsAny[CheckResult]]
    attempt: int = Field(description="Attempt number for (runId, moduleId); 0 if not recorded.")
    stagnant: bool
    same_as_prev: bool
    oscillating: bool
    velocity: float | None
    recommendation: Recommendation
    module_id: str
    run_id: str | None = None
    max_attempts: int
    notices: list[str] = Field(
        default_factory=list, description="Things worth knowing that are not check failures."
    )


# --- plugin descriptors ------------------------------------------------------


class Language(BaseModel):
    """A language forge can parse: returned by ``forge_languages``.

    ``load_grammar`` is called at most once, the first time a file of this
    language is parsed, so registering a language costs nothing until it is
    used. It returns a ``tree_sitter.Language``, or the capsule a grammar
    wheel's ``language()`` function returns. Import the grammar package inside
    it, never at module level: commands that parse nothing (``forge plan
    check``) must not pay for grammars.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_+-]{0,63}$")
    extensions: tuple[str, ...] = Field(
        min_length=1, description="With the dot: '.py'. Matched case-insensitively."
    )
    load_grammar: Callable[[], Any]
    extractor: Any = Field(
        default=None, description="Optional export/import extractor for contract checks."
    )
    detect_encoding: Callable[[bytes], str | None] | None = Field(
        default=None,
        description=(
            "For languages whose files may declare a non-UTF-8 encoding (Python's PEP 263): "
            "given the raw bytes, the declared encoding, or None. Files are transcoded to "
            "UTF-8 before parsing."
        ),
    )
    accepts: Callable[[bytes], bool] | None = Field(
        default=None,
        description=(
            "An authoritative in-process parser (Python's own compiler), asked only about a "
            "file the grammar flagged: True means the source is valid and the grammar's "
            "errors are false positives."
        ),
    )
    check_tree: Callable[[Any], list[tuple[int, int, str]]] | None = Field(
        default=None,
        description=(
            "Syntax rules the grammar does not enforce: given the tree_sitter.Tree, each "
            "violation as (0-based row, byte column, message). Python: a block with no "
            "statement, which tree-sitter-python accepts and CPython does not."
        ),
    )
    fallback: bool = Field(
        default=False,
        description=(
            "A fallback language gives way, without an error, to any other language claiming "
            "its name or one of its extensions (the language-pack plugin's are fallbacks)."
        ),
    )

    @field_validator("extensions")
    @classmethod
    def _dotted_lower_case(cls, extensions: tuple[str, ...]) -> tuple[str, ...]:
        for extension in extensions:
            if not extension.startswith(".") or len(extension) < 2 or "/" in extension:
                raise ValueError(f"extension {extension!r} must look like '.py'")
        return tuple(extension.lower() for extension in extensions)


Severity = Literal["error", "warning"]

#: Longest message of a plan finding, and longest module id or file it names. A
#: plan is the caller's input: a 10 MB module id quoted by five findings must not
#: come back as 100 MB (valid ids have at most 128 characters, paths 4,096).
MAX_FINDING_MESSAGE = 1_000
MAX_FINDING_NAME = MAX_PATH_LENGTH


class PlanFinding(WireModel):
    """One problem a plan rule found: returned by ``forge_check_plan``."""

    # Overlong text is cut (message to MAX_FINDING_MESSAGE, each module id and
    # file to MAX_FINDING_NAME characters); the docstring above is the schema's.

    type: str = Field(pattern=CHECK_TYPE_PATTERN, description="Rule id, e.g. cycle.")
    message: str
    severity: Severity = "error"
    modules: list[str] = Field(default_factory=list, description="Module ids involved.")
    files: list[str] = Field(default_factory=list, description="Files involved.")
    field: str | None = Field(default=None, description="Plan field involved, e.g. verify.")

    @field_validator("message")
    @classmethod
    def _short_message(cls, message: str) -> str:
        return clip(message, MAX_FINDING_MESSAGE)

    @field_validator("modules", "files")
    @classmethod
    def _short_names(cls, names: list[str]) -> list[str]:
        return [clip(name, MAX_FINDING_NAME) for name in names]


class PluginInfo(WireModel):
    """What ``forge plugins`` shows for one entry point of group ``forge``."""

    name: str
    distribution: str
    version: str
    module: str
    hooks: list[str] = Field(default_factory=list)
    status: Literal["loaded", "disabled", "failed"]
    error: str | None = None
