"""A pydantic ``ValidationError`` worded as forge words every error: one line, each bad field named.

Apart from :mod:`forge.errors`, which imports nothing: only code that validates a model
can hold a ValidationError, and pydantic is loaded by then.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from forge.errors import KEY_CHARS, clip, unknown_name


def describe_validation_error(
    error: ValidationError,
    *,
    subject: str = "argument",
    model: type[BaseModel] | None = None,
    names: Mapping[str, str] | None = None,
) -> str:
    """Turn a pydantic ``ValidationError`` into one line naming each bad field.

    Long input values are never echoed: the message says where and what, so an
    agent that sent 10 MB does not get 10 MB back.

    :param model: the model validated (or whose fields an SDK validated): a
        name it does not have is answered with the closest real name.
    :param names: how the caller spells a top-level field (``max_attempts`` ->
        ``--max-attempts`` for the CLI); default the field's name on the wire.
    """
    parts: list[str] = []
    for item in error.errors(include_url=False, include_input=False):
        loc = tuple(item["loc"])
        known = _field_names(model, loc[:-1]) if item["type"] == "extra_forbidden" else []
        if known:
            # The location is the unknown name itself: say so, and what was meant.
            where = _location(loc[:-1])
            kind = "field" if where else subject.removesuffix("s")
            problem = unknown_name(str(loc[-1]), known, kind=kind)
            parts.append(f"{where}: {problem}" if where else problem)
            continue
        location = _named_location(loc, names) or subject
        message = " ".join(str(item["msg"]).split())
        # A validator's own message is already a sentence; pydantic's prefix adds nothing.
        message = clip(message.removeprefix("Value error, "), 200)
        parts.append(f"{location}: {message}")
    shown = clip("; ".join(parts[:5]), _MESSAGE_CHARS)
    if len(parts) > 5:
        shown += f"; and {len(parts) - 5} more"
    return f"invalid {subject}: {shown}"


def _field_names(model: type[BaseModel] | None, path: tuple[int | str, ...]) -> list[str]:
    """The wire names of the fields of the model found at ``path`` inside ``model``."""
    found = _model_at(model, path) if model is not None else None
    if found is None:
        return []
    return [info.alias or name for name, info in found.model_fields.items()]


def _model_at(annotation: Any, path: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model class that ``path`` (a pydantic error location) leads to from ``annotation``."""

    if not path:
        for candidate in _members(annotation):
            if isinstance(candidate, type) and issubclass(candidate, BaseModel):
                return candidate
        return None
    step, rest = path[0], path[1:]
    for candidate in _members(annotation):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            for name, info in candidate.model_fields.items():
                if step in (name, info.alias):
                    return _model_at(info.annotation, rest)
            continue
        origin, args = typing.get_origin(candidate), typing.get_args(candidate)
        if origin in (list, tuple, set, frozenset) and isinstance(step, int) and args:
            return _model_at(args[0], rest)
        if origin is dict and isinstance(step, str) and len(args) == 2:
            return _model_at(args[1], rest)
    return None


def _members(annotation: Any) -> list[Any]:
    """``annotation`` unwrapped from ``Annotated`` and split into the members of a union."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _members(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [member for arg in typing.get_args(annotation) for member in _members(arg)]
    return [annotation]


#: Longest location shown.
_LOCATION_CHARS = 120
#: Longest list of problems shown: the whole message stays well under 1,000 characters.
_MESSAGE_CHARS = 800


def _named_location(loc: tuple[int | str, ...], names: Mapping[str, str] | None) -> str:
    """The location, its field spelt as the caller spells it (``--command #2``)."""
    if not names or not loc or not isinstance(loc[0], str) or loc[0] not in names:
        return _location(loc)
    head, rest = names[loc[0]], loc[1:]
    if rest and isinstance(rest[0], int):
        head, rest = f"{head} #{rest[0] + 1}", rest[1:]
    return f"{head}.{_location(rest)}" if rest else head


def _location(parts: tuple[int | str, ...]) -> str:
    """``a.b.0.c``: where in the input an error is, on one line and of bounded length."""
    shown = []
    for part in parts:
        text = str(part)
        if not text.isprintable() or "." in text or " " in text:
            # repr() escapes line breaks, bidi overrides and other invisible characters.
            text = repr(text)
        shown.append(clip(text, KEY_CHARS))
    location = ".".join(shown)
    if len(location) > _LOCATION_CHARS:  # keep the innermost steps: they say what is wrong
        location = "..." + location[-(_LOCATION_CHARS - 3) :]
    return location
