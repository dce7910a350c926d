"""The errors forge reports to people and agents: one line, saying what to fix."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError


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


def did_you_mean(candidates: Iterable[str]) -> str:
    """`` (did you mean 'a' or 'b'?)`` for up to three candidates; empty for none."""
    shown = [f"'{candidate}'" for candidate in dict.fromkeys(candidates)][:3]
    if not shown:
        return ""
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" or {shown[-1]}"
    return f" (did you mean {listed}?)"


def close_names(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """Candidates spelled like ``name`` (case-insensitive first, then ``difflib``)."""
    import difflib  # rarely needed: kept off the start-up path

    pool = sorted(set(candidates) - {name})
    folded = [c for c in pool if c.lower() == name.lower()]
    close = difflib.get_close_matches(name, pool, n=n, cutoff=0.6)
    if close:  # only those about as close as the closest: '_decoderz', not '_models' too
        best = difflib.SequenceMatcher(None, name, close[0]).ratio()
        close = [c for c in close if difflib.SequenceMatcher(None, name, c).ratio() > best - 0.1]
    return list(dict.fromkeys(folded + close))[:n]


def unknown_name(name: str, known: Iterable[str], *, kind: str = "argument") -> str:
    """``'file' is not an argument (did you mean 'files'?)``, or the names there are.

    For every name a caller can misspell: a tool's argument, a field of one, a
    plugin in ``pluginOptions``. ``name`` is clipped: it is the caller's input.
    """
    known = sorted(set(known))
    shown = repr(clip(name, _KEY_CHARS))
    near = did_you_mean(close_names(name, known, n=2))
    if near:
        return f"{shown} is not {_article(kind)} {kind}{near}"
    listed = clip(", ".join(known), 300) if known else "none"
    return f"{shown} is not {_article(kind)} {kind}; the {kind}s are: {listed}"


def _article(noun: str) -> str:
    return "an" if noun[:1] in "aeiou" else "a"


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
    from pydantic import BaseModel

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


#: Longest key of a location shown, and longest location: keys come from the
#: caller's JSON (an object key can be 10 MB long, or hold a line break).
_KEY_CHARS = 40
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
        shown.append(clip(text, _KEY_CHARS))
    location = ".".join(shown)
    if len(location) > _LOCATION_CHARS:  # keep the innermost steps: they say what is wrong
        location = "..." + location[-(_LOCATION_CHARS - 3) :]
    return location
