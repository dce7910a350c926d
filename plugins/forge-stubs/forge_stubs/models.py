"""What ``stub_check`` returns: a :class:`StubResult` per file, carrying its findings.

Both subclass forge's public models, so they inherit its wire format: frozen,
snake_case in Python and camelCase on the wire (``findingCount``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from forge.models import CheckResult, WireModel

#: Every kind of placeholder the check knows, as it appears in ``kind``.
Kind = Literal[
    "pass",
    "ellipsis",
    "docstring_only",
    "not_implemented",
    "empty_body",
    "todo_comment",
    "hardcoded_return",
    "empty_module",
]

#: What each kind means, for messages and documentation.
KIND_DESCRIPTIONS: dict[str, str] = {
    "pass": "body is only `pass`",
    "ellipsis": "body is only `...`",
    "docstring_only": "body is only a docstring",
    "not_implemented": "body only raises or throws a not-implemented error",
    "empty_body": "empty body",
    "todo_comment": "comment asks for an implementation",
    "hardcoded_return": "returns a hard-coded value a comment calls a placeholder",
    "empty_module": "module has no code",
}

CHECK_TYPE = "stub_check"


class StubFinding(WireModel):
    """One placeholder: where it is, in which function, and what kind."""

    line: int = Field(ge=1, description="1-based line of the placeholder itself.")
    column: int = Field(ge=1, description="1-based column, in characters.")
    function: str | None = Field(
        description="Qualified name of the function (Greeter.greet); null outside functions."
    )
    kind: Kind = Field(description="Which placeholder: pass, ellipsis, not_implemented, ...")
    text: str = Field(description="The source line, trimmed and cut to a readable length.")


class StubResult(CheckResult):
    """``stub_check``'s verdict on one file: passed when it holds no placeholder."""

    language: str | None = Field(
        default=None, description="Language the file was read as; null for option errors."
    )
    findings: list[StubFinding] = Field(
        default_factory=list, description="The placeholders found (the first 50)."
    )
    finding_count: int = Field(default=0, ge=0, description="Placeholders found in all.")
