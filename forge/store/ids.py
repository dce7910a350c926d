"""Ids that become file names: ``runId`` and ``moduleId``, checked before they touch a path.

A run id names a folder beside the run-less histories
(``.forge/iterations/<runId>/`` next to ``.forge/iterations/<moduleId>.json``,
the seed's paths), so a run id ending in ``.json`` is refused: it would stand
where module ``x``'s history stands.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, ValidationInfo
from pydantic.alias_generators import to_camel

#: runId and moduleId become file names, so they are held to this pattern.
ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


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


def check_run_id(value: str, what: str = "runId") -> str:
    """Return ``value`` if it may name a run, else raise ``ValueError``: :func:`check_id`,
    and no ``.json`` ending (the run's folder would take a run-less history's place)."""
    check_id(value, what)
    if value.lower().endswith(".json"):
        raise ValueError(
            f"{what} {value[:60]!r} cannot end in .json: .forge/iterations/{value[:60]} is "
            "where a module's run-less attempt history lives; name the run without it"
        )
    return value


def is_valid_id(value: object) -> bool:
    """Whether ``value`` is a string that :func:`check_id` accepts."""
    return isinstance(value, str) and bool(ID_PATTERN.fullmatch(value)) and value not in {".", ".."}


def is_valid_run_id(value: object) -> bool:
    """Whether ``value`` is a string that :func:`check_run_id` accepts."""
    return is_valid_id(value) and not str(value).lower().endswith(".json")


def _as_id(value: str, info: ValidationInfo) -> str:
    return check_id(value, to_camel(info.field_name) if info.field_name else "id")


def _as_run_id(value: str, info: ValidationInfo) -> str:
    return check_run_id(value, to_camel(info.field_name) if info.field_name else "runId")


#: A runId or moduleId: validated before it can touch a path. The JSON Schema
#: shows the pattern; the validator also rejects "." and ".." and names the
#: argument and the bad value in its message.
SafeId = Annotated[
    str,
    AfterValidator(_as_id),
    Field(json_schema_extra={"pattern": ID_PATTERN.pattern, "maxLength": 128}),
]

#: A runId: a :data:`SafeId` that does not end in ``.json`` (see the module docstring).
SafeRunId = Annotated[
    str,
    AfterValidator(_as_run_id),
    Field(
        json_schema_extra={
            "pattern": ID_PATTERN.pattern,
            "maxLength": 128,
            "not": {"pattern": r"\.[jJ][sS][oO][nN]$"},
        }
    ),
]
