"""What checks return: :class:`CheckResult`, its :class:`Location` and its built-in kinds."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import (
    ConfigDict,
    Field,
    SerializeAsAny,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
)

from forge.models.wire import CHECK_TYPE_PATTERN, WireModel


def _not_set(value: bool) -> bool:
    """``exclude_if`` for a flag shown only when set: the wire stays as it was without it."""
    return not value


def _none(value: object) -> bool:
    """``exclude_if`` for a field shown only when known."""
    return value is None


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
    rule: str | None = Field(
        default=None,
        exclude_if=_none,
        description="The rule or error code of the tool that found it (a type checker's "
        "'missing-attribute', 'TS2339'); present only when known.",
    )
    informational: bool = Field(
        default=False,
        exclude_if=_not_set,
        description="Shown for information, counted nowhere: judged neither new nor old "
        "(a type checker's diagnostic outside the rules that fail without a base). Present "
        "only when true.",
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
    advisory: bool = Field(
        default=False,
        exclude_if=_not_set,
        description="Reported, but counted neither in score nor in passed (a non-blocking "
        "acceptance criterion). Present only when true.",
    )

    skipped: bool = Field(
        default=False,
        exclude_if=_not_set,
        description="The check could not run here (a tool it needs is not installed; the "
        "message says what to install): counted neither in score nor in passed. Present only "
        "when true.",
    )

    unjudged: bool = Field(
        default=False,
        exclude_if=_not_set,
        description="forge could not judge the target: its tool stopped before checking, crashed "
        "or timed out, a plugin failed to load or raised, or a file is over [tool.forge] "
        "max-parse-bytes or unreadable (the message says why and what to change). Never a pass, "
        "counted as a failure: the module's verdict is ESCALATE ('fix the environment'), and the "
        "attempt counts toward neither stagnation nor the attempt limit. Present only when true.",
    )

    @property
    def judged(self) -> bool:
        """Whether the result counts toward ``score`` and ``passed``: not pre-existing, not
        advisory, not skipped (an unjudged result counts, as a failure)."""
        return not self.pre_existing and not self.advisory and not self.skipped

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
    decided_by: str = Field(
        default="tree-sitter",
        description="The parser whose verdict decided: the language's syntax authority "
        "(e.g. CPython 3.11.7 compile()), else tree-sitter.",
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


class PluginErrorResult(CheckResult):
    """A ``plugin_error``: a plugin that failed to load, raised, or returned what it must
    not. Always marked ``unjudged``: forge's installation, not the worker's code."""

    raised_at: str | None = Field(
        default=None,
        exclude_if=_none,
        description="The plugin's file:line that raised (on import or in a hook); present "
        "only when it raised.",
    )
    traceback: list[str] = Field(
        default_factory=list,
        exclude_if=lambda frames: not frames,
        description="The traceback's last frames below forge's own machinery, innermost "
        "last ('file:line in function: source'); present only when it raised.",
    )


class AcceptanceResult(CheckResult):
    """One acceptance criterion of the plan module, run, with its evidence.

    ``target`` is the criterion's check as written (a command or a check id).
    """

    check: str = Field(description="The criterion's check: a command, or a forge check's id.")
    expected: str | None = Field(default=None, description="What passing means, as the plan says.")
    blocking: bool = Field(description="Whether a failure fails the module.")
    exit_code: int | None = Field(
        default=None, description="For a command: its exit status (null if it did not run)."
    )
    tests: TestCounts | None = Field(
        default=None, description="For a command: the test runner's counts, when it printed them."
    )
    checked: int | None = Field(
        default=None, description="For a forge check: how many of its results this validate had."
    )
    failed: int | None = Field(
        default=None, description="For a forge check: how many of them failed."
    )


def plugin_failure(
    plugin: str, message: str, *, raised_at: str | None = None, traceback: list[str] | None = None
) -> CheckResult:
    """A failing ``plugin_error`` about ``plugin``: forge's environment, not the worker's code
    (``unjudged``); where it raised when it did."""
    return PluginErrorResult(
        type="plugin_error",
        target=plugin,
        passed=False,
        unjudged=True,
        message=message,
        plugin=plugin,
        raised_at=raised_at,
        traceback=traceback or [],
    )
