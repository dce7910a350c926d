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

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    SerializerFunctionWrapHandler,
    computed_field,
    field_validator,
    model_serializer,
)
from pydantic.alias_generators import to_camel

from forge.errors import clip
from forge.ids import SafeId

CHECK_TYPE_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"

#: Limits on one validate request: enough for any real module, small enough
#: that one call cannot tie the server up.
MAX_FILES = 2_000
MAX_COMMANDS = 50
MAX_CONTRACT_CHECKS = 500
MAX_PATH_LENGTH = 4_096
MAX_COMMAND_LENGTH = 10_000
MAX_TIMEOUT_SECONDS = 3_600.0
#: Longest ``baseRef`` taken: a ref name or commit id, never a document.
MAX_BASE_REF_CHARS = 256


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


MODULE_ID_DESCRIPTION = "Plan module id, e.g. m1 or auth-api; keys the attempt history."
RUN_ID_DESCRIPTION = (
    "Run id, e.g. run-2026-01-15; attempts and events are kept per run. Omit only for one-off use."
)


class ValidateRequest(WireModel):
    """Everything one ``validate`` call asks for."""

    module_id: SafeId = Field(description=MODULE_ID_DESCRIPTION)
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
        description="Working dir, e.g. a worker's worktree; relative to the project root. "
        "Default: the project root.",
    )
    run_id: SafeId | None = Field(default=None, description=RUN_ID_DESCRIPTION)
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
        description='Options for check plugins by plugin name, e.g. {"stubs": {}}.',
    )
    base_ref: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_BASE_REF_CHARS,
        description="Git revision to judge against: findings the file checks also find in "
        "the file at this revision are marked preExisting and do not fail the module. 'auto' = "
        "merge-base with the default branch. Default: [tool.forge] base-ref, else none.",
    )


# --- checks ------------------------------------------------------------------


class CheckDescriptor(WireModel):
    """A check a plugin provides: returned by ``forge_checks``, declared beside the check's code.

    Everything forge shows about a check derives from this: the order results
    are listed in, SARIF rule descriptions, ``forge plugins``. Ids are unique
    across plugins; a second plugin declaring a taken id is a ``plugin_error``.
    """

    id: str = Field(pattern=CHECK_TYPE_PATTERN, description="The ``type`` of its results.")
    summary: str = Field(min_length=1, description="What a passing result means, one sentence.")
    order: int = Field(default=1_000, description="Display rank: lower is shown first.")
    halts_on_failure: bool = Field(
        default=False,
        description="A failure stops the remaining checks and records no attempt (cwd_check).",
    )
    targets_file: bool = Field(
        default=False, description="A result's ``target`` is a file path, even a missing one."
    )


class PlanRuleDescriptor(WireModel):
    """A plan rule a plugin provides: returned by ``forge_plan_rules``."""

    id: str = Field(pattern=CHECK_TYPE_PATTERN, description="The ``type`` of its findings.")
    summary: str = Field(min_length=1, description="What the rule looks for, one sentence.")
    order: int = Field(default=1_000, description="Display rank: lower is shown first.")


def _not_set(value: bool) -> bool:
    """``exclude_if`` for a flag shown only when set: the wire stays as it was without it."""
    return not value


class Location(WireModel):
    """One place a check result is about: the one channel every report format reads."""

    # A check may send more about a place (the syntax check's sourceLine): the
    # output schema must let a client accept it.
    model_config = ConfigDict(json_schema_extra={"additionalProperties": True})

    path: str | None = Field(
        default=None,
        description="The file, relative to the working dir (or absolute); null: the result's "
        "target.",
    )
    line: int = Field(ge=1, description="1-based line.")
    column: int = Field(ge=1, description="1-based column, in characters.")
    message: str = Field(description="What is wrong there, one line.")
    pre_existing: bool = Field(
        default=False,
        exclude_if=_not_set,
        description="Already there at the base revision (baseRef); present only when true.",
    )

    @model_serializer(mode="wrap")
    def _without_null_path(self, handler: SerializerFunctionWrapHandler) -> Any:
        # A place in the result's own target names no path: the wire stays as
        # the syntax check always sent it.
        data = handler(self)
        if isinstance(data, dict) and data.get("path") is None:
            data.pop("path", None)
        return data


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
    locations: list[SerializeAsAny[Location]] = Field(
        default_factory=list,
        description="Where in which files the result applies (the first few), in check order.",
    )
    pre_existing: bool = Field(
        default=False,
        exclude_if=_not_set,
        description="Every finding was already there at the base revision (baseRef): shown, "
        "but counted neither in score nor in passed. Present only when true.",
    )

    @property
    def failure_key(self) -> str:
        """Identity of this failure across attempts: ``type:target``, never the message."""
        return f"{self.type}:{self.target}"


class FileResult(CheckResult):
    """A result about one listed file (``file_check``, ``syntax_check``)."""

    # The Node reference server names the file ``file``; orchestrator prompts read it.
    @computed_field(description="The file as listed: the reference server's name for target.")
    def file(self) -> str:
        """The file this result is about (the same as ``target``)."""
        return self.target


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

    # The Node reference server names the command ``command``; orchestrator prompts read it.
    @computed_field(description="The command as given: the reference server's name for target.")
    def command(self) -> str:
        """The command this result is about (the same as ``target``)."""
        return self.target

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


class SyntaxLocation(Location):
    """One place where a file does not parse (``path`` null: the result's target)."""

    source_line: str = Field(description="The line as written (long lines are cut).")


class SyntaxResult(FileResult):
    """Outcome of one file's syntax check: its language's authority decides, tree-sitter locates."""

    language: str = Field(description="Language the file was parsed as, e.g. python.")
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


# --- plugin descriptors ------------------------------------------------------


class SyntaxVerdict(BaseModel):
    """A syntax authority's verdict on one file.

    ``line`` and ``column`` (1-based, column in characters) say where the first
    error is; ``message`` names the construct (``'return' outside function``).
    """

    model_config = ConfigDict(frozen=True)

    valid: bool
    line: int = Field(default=1, ge=1)
    column: int = Field(default=1, ge=1)
    message: str = ""


class SyntaxAuthority(BaseModel):
    """A complete parser that decides whether a file parses: see ``Language.authority``.

    ``check(path, source)`` gets the file's path (its parse goal may depend on
    it: ``.cjs``, the nearest ``package.json``, ``requires-python``) and its
    UTF-8 source, and returns a :class:`SyntaxVerdict`, or None when it has no
    verdict for this file (tree-sitter then decides alone). ``name`` says
    which parser decides, for ``forge plugins``.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    name: str
    check: Callable[[Path, bytes], SyntaxVerdict | None]


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
    authority: Callable[[], SyntaxAuthority | None] | None = Field(
        default=None,
        description=(
            "Loads the complete in-process parser that decides whether a file of this language "
            "parses (CPython's compiler, oxc for JavaScript and TypeScript); called at most once, "
            "like load_grammar. When it raises (the parser is not installed: ImportError) or "
            "returns None, tree-sitter decides alone and forge plugins says why."
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
