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


class StateError(ForgeError):
    """forge's state or configuration cannot be used as it is on disk.

    A symlink or a FIFO where forge keeps state, a file over its size limit, a
    lock another process holds too long, a full disk or a folder forge may not
    write: the message names the path and what to do about it.
    """


def clip(text: str, limit: int) -> str:
    """``text``, or its first ``limit - 3`` characters and ``...`` when it is longer.

    For anything shown that may quote the caller's input, which can be megabytes.
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_validation_error(error: ValidationError, *, subject: str = "argument") -> str:
    """Turn a pydantic ``ValidationError`` into one line naming each bad field.

    Long input values are never echoed: the message says where and what, so an
    agent that sent 10 MB does not get 10 MB back.
    """
    parts: list[str] = []
    for item in error.errors(include_url=False, include_input=False):
        location = _location(item["loc"]) or subject
        message = " ".join(str(item["msg"]).split())
        # A validator's own message is already a sentence; pydantic's prefix adds nothing.
        message = clip(message.removeprefix("Value error, "), 200)
        parts.append(f"{location}: {message}")
    shown = clip("; ".join(parts[:5]), _MESSAGE_CHARS)
    if len(parts) > 5:
        shown += f"; and {len(parts) - 5} more"
    return f"invalid {subject}: {shown}"


#: Longest key of a location shown, and longest location: keys come from the
#: caller's JSON (an object key can be 10 MB long, or hold a line break).
_KEY_CHARS = 40
_LOCATION_CHARS = 120
#: Longest list of problems shown: the whole message stays well under 1,000 characters.
_MESSAGE_CHARS = 800


def _location(parts: tuple[int | str, ...]) -> str:
    """``a.b.0.c``: where in the input an error is, on one line and of bounded length."""
    shown = []
    for part in parts:
        text = str(part)
        if not text.isprintable() or "." in text or " " in text:
            # repr() escapes line breaks, bidi overrides and other invisible characters.
            text = repr(text)
        shown.append(clip(text, _KEY_CHARS))
    location = ".".join(shown)
    if len(location) > _LOCATION_CHARS:  # keep the innermost steps: they say what is wrong
        location = "..." + location[-(_LOCATION_CHARS - 3) :]
    return location
