"""Ids that become file names: ``runId`` and ``moduleId``, checked before they touch a path."""

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
