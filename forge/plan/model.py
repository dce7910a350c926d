"""The plan format: what a planner agent writes to ``.forge/plans/<name>.json``.

These models are the single source of the plan's JSON Schema (``forge plan
schema``) and of what plan rules receive. Keys are camelCase in the file
(``dependsOn``, ``doneWhen``), snake_case in Python. Fields forge does not
know are kept, so planners may add their own.
"""

from __future__ import annotations

import posixpath
import re
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, ConfigDict, Field, PrivateAttr
from pydantic.alias_generators import to_camel

from forge.models import WireModel
from forge.plan.graph import DependencyGraph
from forge.store.ids import ID_PATTERN

#: ``$schema`` of the JSON Schema ``forge plan schema`` prints.
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: A string with at least one non-blank character.
Text = Annotated[str, Field(min_length=1, pattern=r"\S")]

Complexity = Literal["simple", "medium", "complex"]

#: A spec test a module may change: ``file::test`` (pytest's id), or a file alone.
SpecChange = Annotated[str, Field(min_length=1, pattern=r"^[^\s:]+(::\S.*)?$")]


def _title(name: str, _info: object) -> str:
    return to_camel(name)


class PlanPart(WireModel):
    """Base of the plan models: camelCase keys, unknown keys kept, no type coercion."""

    model_config = ConfigDict(extra="allow", strict=True, field_title_generator=_title)


class TechStack(PlanPart):
    """The project's stack, as the planner saw it."""

    language: Text | None = Field(default=None, description="Main language, e.g. typescript.")
    test_command: Text | None = Field(default=None, description="Runs the project's tests.")
    build_command: Text | None = Field(default=None, description="Builds the project.")
    lint_command: Text | None = Field(default=None, description="Lints the project.")


class PlanDetail(PlanPart):
    """Base of the objects forge defines inside a module: an unknown key is an error.

    A misspelt ``blockng`` must not quietly make a criterion non-blocking.
    """

    model_config = ConfigDict(extra="forbid")


class AcceptanceCriterion(PlanDetail):
    """One machine-checked condition of a module's ``doneWhen`` (the reference's 0.6 field)."""

    check: Text = Field(
        description="A shell command run in the module's working dir (like a verify command), "
        "or the id of a forge check (syntax_check, contract_check, stub_check...) whose results "
        "in the same validate must all pass."
    )
    expected: Text | None = Field(
        default=None,
        description="What passing means, shown beside the evidence. 'exit N' expects that "
        "exit code from a command (default: exit 0, and a test runner in it ran a test).",
    )
    blocking: bool = Field(
        default=True,
        description="A blocking criterion that fails fails the module; a non-blocking one is "
        "reported and fails nothing.",
    )


class CostBudget(PlanDetail):
    """What a module may cost (the reference's 0.6 field; recorded, not enforced)."""

    tokens: Annotated[int, Field(ge=0)] | None = Field(
        default=None, description="Model tokens the worker may spend."
    )
    usd: Annotated[float, Field(ge=0)] | None = Field(
        default=None, description="Money the worker may spend, in US dollars."
    )
    minutes: Annotated[float, Field(ge=0)] | None = Field(
        default=None, description="Wall-clock minutes the worker may take."
    )
    attempts: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="Attempts before the module escalates."
    )


def _snake(name: str) -> dict[str, Any]:
    """The reference server's spelling of a field (snake_case), with forge's camelCase accepted."""
    return {"alias": name, "validation_alias": AliasChoices(name, to_camel(name))}


class PlanModule(PlanPart):
    """One unit of work handed to one worker agent."""

    id: Text = Field(
        description="Unique id; becomes a file name, so 1-128 of A-Z a-z 0-9 _ . -",
        json_schema_extra={"pattern": ID_PATTERN.pattern, "not": {"enum": [".", ".."]}},
    )
    title: Text = Field(description="Short name for people.")
    objective: Text = Field(description="What the worker must achieve.")
    files: list[Text] = Field(
        min_length=1, description="Files the module creates or changes, relative to the project."
    )
    verify: list[Text] = Field(
        min_length=1,
        description="Shell commands run from the project root; each must exit 0.",
    )
    done_when: Text | Annotated[list[Text], Field(min_length=1)] = Field(
        description="Acceptance criteria: one sentence or a list of them."
    )
    depends_on: list[Text] = Field(
        default_factory=list, description="Ids of modules that must be done first."
    )
    agent: Text | None = Field(default=None, description="Which kind of worker should do it.")
    complexity: Complexity | None = Field(default=None, description="simple, medium or complex.")
    may_change: list[Text] = Field(
        default_factory=list,
        description="Globs of files the module may change besides its files (tests/**, "
        "CHANGELOG.md): its lane, with a base revision.",
    )
    branch: Text | None = Field(
        default=None,
        description="The git branch (or any revision) holding the module's work, for "
        "forge merge check. Default: found from worktrees and branches named after the id.",
    )
    spec_changes: list[SpecChange] = Field(
        default_factory=list,
        description="Spec tests the module may change (remove, switch off, weaken), as "
        "'file::test' ids (tests/test_calc.py::test_mul, tests/test_a.py::TestA::test_b) or a "
        "file (a runner config, a data file): with a base revision, their changes are reported "
        "as evidence and fail nothing.",
    )
    acceptance_criteria: list[AcceptanceCriterion] = Field(
        default_factory=list,
        **_snake("acceptance_criteria"),
        description="Checks that back doneWhen: each runs on validate and is reported with "
        "its evidence; a failing blocking one fails the module.",
    )
    disallowed_changes: list[Text] = Field(
        default_factory=list,
        **_snake("disallowed_changes"),
        description="Globs of files the module must not change, even ones it lists: a change "
        "to one fails validate (with a base revision).",
    )
    success_evidence: list[Text] = Field(
        default_factory=list,
        **_snake("success_evidence"),
        description="What shows the module succeeded, for reviewers (recorded, not run).",
    )
    cost_budget: CostBudget | None = Field(
        default=None,
        **_snake("cost_budget"),
        description="What the module may cost (recorded, not enforced).",
    )
    expected_trajectory: list[Text] = Field(
        default_factory=list,
        **_snake("expected_trajectory"),
        description="The steps a worker is expected to take, in order (recorded, not enforced).",
    )


class PlanHeader(PlanPart):
    """Every top-level plan field except ``modules`` (the loader checks those one by one)."""

    schema_uri: str | None = Field(
        default=None,
        alias="$schema",
        description="Path or URL of this JSON Schema, for editors.",
    )
    objective: Text | None = Field(default=None, description="What the whole plan delivers.")
    created: Text | None = Field(default=None, description="When the plan was written (ISO 8601).")
    tech_stack: TechStack | None = Field(default=None, description="The project's stack.")


class Plan(PlanHeader):
    """A plan: modules with their files, verify commands and dependencies.

    Plan rules receive the plan as forge's loader built it: only modules whose
    structure was usable are in ``modules`` (the others were reported as
    ``schema`` errors, and their ids are in :attr:`omitted_ids`).
    """

    model_config = ConfigDict(title="forge plan")

    modules: list[PlanModule] = Field(min_length=1, description="The units of work.")
    _omitted_ids: frozenset[str] = PrivateAttr(default=frozenset())

    @property
    def omitted_ids(self) -> frozenset[str]:
        """Ids of modules the loader left out because of schema errors.

        Rules use it to stay quiet about what is already reported: a module
        that depends on an omitted one does not depend on an *unknown* one.
        """
        return self._omitted_ids

    @cached_property
    def graph(self) -> DependencyGraph:
        """The dependency graph of :attr:`modules`, built once and shared by every rule."""
        return DependencyGraph.from_modules(self.modules)


#: An acceptance criterion's check that may be a forge check's id rather than a command:
#: one lower-case word with an underscore (syntax_check, stub_check), or ``command``.
_CHECK_ID = re.compile(r"[a-z][a-z0-9]*_[a-z0-9_]*|command")


def may_name_check(check: str) -> bool:
    """Whether a criterion's ``check`` may name a forge check (validate asks the plugins which)."""
    return _CHECK_ID.fullmatch(check.strip()) is not None


#: A relative path already in normal form: no empty, ``.`` or ``..`` segment.
_NORMAL_PATH = re.compile(r"(?!\.\.?(?:/|\Z))[^/]+(?:/(?!\.\.?(?:/|\Z))[^/]+)*")


def normalise_path(path: str, project_root: Path) -> str:
    """A plan file path in one spelling: ``./src//a.py``, ``src\\a.py`` and ``src/a.py`` agree.

    Backslashes are separators (plans travel between systems), ``.`` and
    ``..`` are folded, and an absolute path inside the project is made relative.
    """
    text = path.strip().replace("\\", "/")
    if _NORMAL_PATH.fullmatch(text):  # most plan paths: normpath would return them as they are
        return text
    text = posixpath.normpath(text)
    if posixpath.isabs(text):
        root = project_root.as_posix().rstrip("/") + "/"
        if text.startswith(root):
            return text[len(root) :]
    return text


def plan_json_schema() -> dict[str, Any]:
    """The JSON Schema of a plan file, as ``forge plan schema`` prints it."""
    schema = Plan.model_json_schema(by_alias=True)
    return {"$schema": JSON_SCHEMA_DIALECT, **schema}
