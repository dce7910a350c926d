"""What the check returns: :class:`TypeCheckResult`, one per language checked."""

from __future__ import annotations

from pydantic import Field

from forge.models import CheckResult

#: The check's id: its results' ``type``.
CHECK_TYPE = "type_check"


class TypeCheckResult(CheckResult):
    """One language's type check over the module's files and their importers.

    ``target`` is the language (``python``, ``typescript``): one result per
    language, so the attempt history sees one stable failure per checker.
    """

    language: str = Field(description="python or typescript.")
    checker: str | None = Field(
        default=None, description="The checker and its version, e.g. 'pyrefly 1.4.1'."
    )
    checker_source: str | None = Field(
        default=None, description="Why this checker: pinned, configured by the project, ..."
    )
    base_commit: str | None = Field(
        default=None, description="The base commit new diagnostics were told from old ones by."
    )
    new_count: int = Field(default=0, ge=0, description="Diagnostics that count: they fail.")
    old_count: int = Field(default=0, ge=0, description="Diagnostics already at the base.")
    informational_count: int = Field(
        default=0,
        ge=0,
        description="Without a base: diagnostics outside the rules that mean the code cannot run.",
    )
    files_checked: int = Field(default=0, ge=0, description="Listed files and importers checked.")
    importers: int = Field(default=0, ge=0, description="Importers of the listed files checked.")
    importers_capped_from: int | None = Field(
        default=None, description="How many importers there were when the cap cut them."
    )
    warm: bool = Field(
        default=False,
        description="The warm checker (kept by forge serve or forge daemon) answered for the "
        "working tree; false: the checker's command line ran.",
    )
