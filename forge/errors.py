"""The errors forge reports to people and agents: one line, saying what to fix."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class ForgeError(Exception):
    """An error whose message is fit to show as is: one line, what was wrong and how to fix it."""


class UsageError(ForgeError):
    """The caller asked for something that cannot be done as asked (bad argument, bad id)."""


class ConfigError(ForgeError):
    """The project's ``[tool.forge]`` configuration cannot be used."""


class CorruptFileError(ForgeError):
    """A state file could not be parsed; it has been moved aside (never deleted)."""


def describe_validation_error(error: ValidationError, *, subject: str = "argument") -> str:
    """Turn a pydantic ``ValidationError`` into one line naming each bad field.

    Long input values are never echoed: the message says where and what, so an
    agent that sent 10 MB does not get 10 MB back.
    """
    parts: list[str] = []
    for item in error.errors(include_url=False, include_input=False):
        location = ".".join(str(part) for part in item["loc"]) or subject
        message = str(item["msg"]).replace("\n", " ")
        # A validator's own message is already a sentence; pydantic's prefix adds nothing.
        message = message.removeprefix("Value error, ")
        if len(message) > 200:
            message = message[:197] + "..."
        parts.append(f"{location}: {message}")
    shown = "; ".join(parts[:5])
    if len(parts) > 5:
        shown += f"; and {len(parts) - 5} more"
    return f"invalid {subject}: {shown}"
