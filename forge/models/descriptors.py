"""What plugins declare and return besides results: checks, plan rules, languages, findings."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from forge.errors import clip
from forge.models.wire import CHECK_TYPE_PATTERN, MAX_PATH_LENGTH, WireModel


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
    judges_edits: bool = Field(
        default=False,
        description="A failure blocks an agent's edit (``forge hook`` on PostToolUse): the "
        "check is quick and judges a file as written, never work still in progress.",
    )
    read_only: bool = Field(
        default=False,
        description="The check only reads the working dir: it runs none of the module's "
        "programs and writes nothing there, so a concurrent check may run beside it.",
    )
    concurrent: bool = Field(
        default=False,
        description="The check spends its time waiting on another program that only reads the "
        "working dir (a type checker): forge runs its plugin's checks in a thread of their own, "
        "started first, beside the read-only checks of the other plugins, and collects them "
        "before the first plugin with a check that is not read-only (the verify commands).",
    )


class ExternalTool(WireModel):
    """A program a plugin runs for a project (a type checker), as ``forge plugins`` shows it."""

    language: str = Field(description="The language it serves, e.g. python, typescript.")
    name: str = Field(description="The program, e.g. pyrefly, tsc.")
    version: str | None = Field(default=None, description="Its version; null when not found.")
    found: bool = Field(description="Whether it is installed where the plugin looks.")
    note: str = Field(
        default="",
        description="Why this one (pinned, configured by the project), or what to install.",
    )


class PlanRuleDescriptor(WireModel):
    """A plan rule a plugin provides: returned by ``forge_plan_rules``."""

    id: str = Field(pattern=CHECK_TYPE_PATTERN, description="The ``type`` of its findings.")
    summary: str = Field(min_length=1, description="What the rule looks for, one sentence.")
    order: int = Field(default=1_000, description="Display rank: lower is shown first.")


class SyntaxVerdict(BaseModel):
    """A syntax authority's verdict on one file.

    ``line`` and ``column`` (1-based, column in characters) say where the first
    error is; ``message`` names the construct (``'return' outside function``).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

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

    ``context(directory)``, when given, returns what a verdict on a file in
    ``directory`` depends on besides the file's own path and source (the
    nearest ``package.json``'s ``"type"``, ``requires-python``), as a hashable
    value: forge then keeps a file's verdict while the file and that value are
    unchanged. Without it, ``check`` runs on every validate call.

    ``prepare(files)``, when given, is called with the ``(path, source)`` of the
    files ``check`` is about to be asked about, so an authority in another
    process can take them in one go instead of one round trip each; ``check``
    must answer the same with or without it.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

    name: str
    check: Callable[[Path, bytes], SyntaxVerdict | None]
    context: Callable[[Path], Hashable] | None = None
    prepare: Callable[[list[tuple[Path, bytes]]], None] | None = None


class Language(BaseModel):
    """A language forge can parse: returned by ``forge_languages``.

    ``load_grammar`` is called at most once, the first time a file of this
    language is parsed, so registering a language costs nothing until it is
    used. It returns a ``tree_sitter.Language``, or the capsule a grammar
    wheel's ``language()`` function returns. Import the grammar package inside
    it, never at module level: commands that parse nothing (``forge plan
    check``) must not pay for grammars.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

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
    nul_is_text: bool = Field(
        default=False,
        description=(
            "Whether valid source may hold a NUL character (ECMAScript strings and comments "
            "may): then a NUL byte does not make a file binary, and the parsers decide. "
            "Otherwise (Python: CPython refuses one anywhere) it is reported as not text."
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
