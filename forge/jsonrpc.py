"""What can be learnt from a JSON-RPC message the MCP SDK could not read.

The SDK drops a line it cannot parse (invalid JSON, a lone surrogate, nesting
deeper than its parser allows, a valid JSON value that is no JSON-RPC
message) without a reply, and the client that sent it waits forever. The
server answers such lines instead; to answer a request it needs the
request's ``id``, and to answer a tool call as a tool result it needs the
method and the tool's name. This module recovers those three from the raw
text, reading only the top level of the object so that no depth of nesting
or size of string can make it fail. No ``mcp`` here: it is plain text work.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

#: A JSON string (escapes included) or one bracket: all a value-skipper has to see.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Envelope:
    """The parts of a message that say how to answer it; ``None`` where unknown."""

    id: str | int | None = None
    method: str | None = None
    tool: str | None = None

    @property
    def is_request(self) -> bool:
        """A request expects an answer; a notification (no id) must never get one."""
        return self.id is not None


def salvage(raw: str) -> Envelope:
    """The ``id``, ``method`` and tool name of the message ``raw``, as far as they can be read."""
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        message = _top_level(raw)
    return envelope_of(message)


def envelope_of(message: object) -> Envelope:
    """The ``id``, ``method`` and tool name of an already parsed message."""
    if not isinstance(message, dict):
        return Envelope()
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        request_id = None
    method = message.get("method")
    params = message.get("params")
    tool = params.get("name") if isinstance(params, dict) else None
    return Envelope(
        id=request_id,
        method=method if isinstance(method, str) else None,
        tool=tool if isinstance(tool, str) else None,
    )


def _top_level(raw: str, *, read_params: bool = True) -> dict[str, Any] | None:
    """The scalar members of the object ``raw``; nested values are skipped unread, except
    ``params`` (when ``read_params``), reduced to its own scalar members."""
    position = _WHITESPACE.match(raw, 0).end()  # type: ignore[union-attr]
    if not raw.startswith("{", position):
        return None
    members: dict[str, Any] = {}
    position += 1
    try:
        while True:
            position = _WHITESPACE.match(raw, position).end()  # type: ignore[union-attr]
            if raw.startswith("}", position):
                return members
            key, position = _DECODER.raw_decode(raw, position)
            position = _WHITESPACE.match(raw, position).end()  # type: ignore[union-attr]
            if not raw.startswith(":", position):
                return members
            position = _WHITESPACE.match(raw, position + 1).end()  # type: ignore[union-attr]
            if raw.startswith(("{", "["), position):
                end = _skip_nested(raw, position)
                if read_params and key == "params" and raw.startswith("{", position):
                    members[key] = _top_level(raw[position:end], read_params=False)
                position = end
            else:
                members[key], position = _DECODER.raw_decode(raw, position)
            position = _WHITESPACE.match(raw, position).end()  # type: ignore[union-attr]
            if raw.startswith(",", position):
                position += 1
                continue
            return members
    except (ValueError, RecursionError):
        return members


def _skip_nested(raw: str, start: int) -> int:
    """The index just past the object or array that opens at ``start`` (or the end of ``raw``)."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(raw, start):
        token = match.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
            if depth == 0:
                return match.end()
    return len(raw)
