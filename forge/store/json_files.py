"""JSON state files: decoded strictly, replaced atomically, updated under a lock.

A file forge cannot use as state is moved aside, never deleted (see :mod:`forge.store`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pydantic_core

from forge.errors import CorruptFileError, StateError
from forge.store.locks import locked
from forge.store.safe_open import _BadFile, _read_state
from forge.store.writes import _encode, quarantine, write_bytes_atomic

if TYPE_CHECKING:
    from pydantic import BaseModel

T = TypeVar("T")
M = TypeVar("M", bound="BaseModel")

#: Largest JSON state file read (attempt histories, session snapshots, status).
MAX_STATE_BYTES = 64 * 1024 * 1024

# Where pydantic-core's float text may differ from Python's: an exponent, or a
# number below 1e-4 (Python writes 5e-05, pydantic-core 0.00005). Matches in
# strings too, which only costs the slower writer.
_FLOAT_THAT_MAY_DIFFER = re.compile(rb"[0-9][eE]|0\.0000")
# A JSON escape of a UTF-16 surrogate: only then can decoded text hold a lone one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def decode_json(raw: bytes) -> Any:
    """Decode UTF-8 JSON that forge can write back: a lone surrogate escape is refused.

    ``"\\ud800"`` is valid JSON, but the text it decodes to cannot be encoded
    again: it would break every later write or reply that carries it.
    Raises :class:`ValueError` (``JSONDecodeError``, ``UnicodeError``) or
    :class:`RecursionError`.
    """
    value = json.loads(raw.decode("utf-8"))
    if _SURROGATE_ESCAPE.search(raw):
        # Pairs are fine; raises UnicodeEncodeError when one stands alone.
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    return value


def pretty_json(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, byte for byte, several times faster.

    ``value`` holds JSON types only (what ``model_dump(mode="json")`` gives).
    pydantic-core writes the same text except for floats below 1e-4 (and the
    exponents of a few others), which Python writes ``1e-05``: any text where
    one might appear, or that pydantic-core refuses (a lone surrogate), is
    written by ``json`` instead.
    """
    try:
        text = pydantic_core.to_json(value, indent=2)
    except pydantic_core.PydanticSerializationError:
        return json.dumps(value, indent=2, ensure_ascii=False)
    if _FLOAT_THAT_MAY_DIFFER.search(text):
        return json.dumps(value, indent=2, ensure_ascii=False)
    return text.decode("utf-8")


def write_json(path: Path, value: Any) -> None:
    """Replace ``path`` atomically with ``value`` as pretty JSON."""
    write_bytes_atomic(path, _encode(pretty_json(value) + "\n"))


def read_json(path: Path) -> Any:
    """Load JSON from ``path``; ``None`` when it does not exist.

    A file forge cannot use as state (not UTF-8 JSON, a lone surrogate, over
    :data:`MAX_STATE_BYTES`, a symlink or a FIFO) is moved aside and
    :class:`CorruptFileError` is raised naming both paths.
    """
    try:
        raw = _read_state(path, MAX_STATE_BYTES)
    except FileNotFoundError:
        return None
    except _BadFile as exc:
        moved = quarantine(path)
        raise CorruptFileError(
            f"{path} {exc.reason.split(':')[0]}; moved aside to {moved.name}"
        ) from None
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return decode_json(raw)
    except (ValueError, RecursionError) as exc:
        moved = quarantine(path)
        raise CorruptFileError(
            f"{path} was corrupt ({type(exc).__name__}: {_short(exc)}); moved aside to {moved.name}"
        ) from None


def _short(exc: BaseException) -> str:
    return str(exc)[:200]


def peek_json(path: Path) -> tuple[Any, str | None]:
    """Load JSON from ``path`` without side effects: ``(value, problem)``.

    For readers that must not change anything (a ``get``): a missing file is
    ``(None, None)``; a corrupt one is ``(None, "<why>")`` and stays where it
    is until the next writer moves it aside.
    """
    try:
        raw = _read_state(path, MAX_STATE_BYTES)
    except FileNotFoundError:
        return None, None
    except _BadFile as exc:
        return None, f"{path} {exc.reason.split(':')[0]}; it will be moved aside on the next write"
    except StateError as exc:
        return None, str(exc)
    except OSError as exc:
        return None, f"{path} cannot be read: {exc.strerror or exc}"
    try:
        return decode_json(raw), None
    except (ValueError, RecursionError) as exc:
        return (
            None,
            f"{path} is corrupt ({type(exc).__name__}); it will be moved aside on the next write",
        )


def peek_model(path: Path, model: type[M]) -> M | None:
    """``path``'s JSON as ``model``, read as :func:`peek_json` reads (no side effects);
    ``None`` when it is missing, corrupt, or of another shape."""
    stored, _problem = peek_json(path)
    if not isinstance(stored, dict):
        return None
    try:
        return model.model_validate(stored)
    except pydantic_core.ValidationError:  # pydantic's ValidationError is this one
        return None


def update_json(path: Path, change: Callable[[Any], T]) -> tuple[T, list[str]]:
    """Read ``path``, apply ``change`` to its value, write the result back, under a lock.

    ``change`` receives ``None`` when the file is missing or was corrupt (the
    corrupt file is moved aside first) and returns the new value. ``change``
    may raise :class:`CorruptFileError` when the file is valid JSON of the
    wrong shape: that file is moved aside too and ``change`` gets ``None``.
    Returns the new value and notices (e.g. "moved aside") for the caller.
    """
    notices: list[str] = []
    with locked(path):
        try:
            current = read_json(path)
        except CorruptFileError as exc:
            notices.append(str(exc))
            current = None
        try:
            new_value = change(current)
        except CorruptFileError as exc:
            moved = quarantine(path)
            notices.append(f"{path} {exc}; moved aside to {moved.name}")
            new_value = change(None)
        write_json(path, new_value)
    return new_value, notices
