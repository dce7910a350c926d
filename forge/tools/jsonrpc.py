"""What can be learnt from a JSON-RPC message the MCP SDK could not read.

The SDK drops a line it cannot parse (invalid JSON, a lone surrogate, nesting
deeper than its parser allows, a valid JSON value that is no JSON-RPC
message) without a reply, and the client that sent it waits forever. The
server answers such lines instead; to answer a request it needs the
request's ``id``, and to answer a tool call as a tool result it needs the
method and the tool's name. This module recovers those three from the raw
text, reading only the top level of the object so that no depth of nesting
or size of string can make it fail, and :func:`diagnose` says what was wrong.
:class:`AnsweringReadStream` wraps the SDK's read stream so each such line is
answered (the reply itself is built by the MCP adapter). No ``mcp`` here.
"""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import json
import logging
import os
import re
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import anyio
from pydantic import ValidationError

from forge.plugin_host.records import describe_exception
from forge.tools.unanswered import CountingWriteStream, Unanswered

logger = logging.getLogger("forge.mcp")

#: JSON-RPC 2.0's error codes for a line that is not JSON, and for JSON that is no request.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600

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
    #: An ``id`` member that MCP does not allow (null, a fraction, an object,
    #: an array): still a request, answered with ``id: null``.
    odd_id: bool = False

    @property
    def is_request(self) -> bool:
        """A request expects an answer; a notification (no id) must never get one."""
        return self.id is not None or self.odd_id


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
    odd_id = False
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        odd_id = "id" in message
        request_id = None
    method = message.get("method")
    params = message.get("params")
    tool = params.get("name") if isinstance(params, dict) else None
    return Envelope(
        id=request_id,
        method=method if isinstance(method, str) else None,
        tool=tool if isinstance(tool, str) else None,
        odd_id=odd_id,
    )


def expose_odd_id(line: str) -> str:
    """``line``, or, for a request whose ``id`` MCP forbids, the same request without ``jsonrpc``.

    The SDK reads ``{"id": 1.5, "method": ...}`` (or a null, object or array
    id) as a notification and drops it unanswered. Without its ``jsonrpc``
    member the SDK cannot read it at all, so :class:`AnsweringReadStream`
    answers it (``id: null``, saying what is wrong with the id).
    """
    if '"id"' not in line:
        return line
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return line  # the SDK rejects it too, and it is answered as unreadable
    if isinstance(message, dict) and "method" in message and envelope_of(message).odd_id:
        message.pop("jsonrpc", None)
        return json.dumps(message)
    return line


class OddIdLines:
    """The lines of ``inner`` (stdin), each passed through :func:`expose_odd_id`."""

    def __init__(self, inner: Any) -> None:
        self._lines = inner.__aiter__()

    def __aiter__(self) -> OddIdLines:
        return self

    async def __anext__(self) -> str:
        return expose_odd_id(await self._lines.__anext__())


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


class AnsweringReadStream:
    """The SDK's read stream, with the lines it could not read answered and filtered out.

    The SDK's stdio reader passes an unreadable line on as an exception, which
    its dispatcher only logs: the client would wait for a reply that never
    comes. This wrapper turns each into a reply on the write stream.
    """

    def __init__(
        self,
        inner: Any,
        write_stream: Any,
        answer: Callable[[Exception], Any],
    ) -> None:
        self._inner = inner
        self._write_stream = write_stream
        self._answer = answer
        self._unanswered = Unanswered()

    def counting(self, write_stream: Any) -> CountingWriteStream:
        """``write_stream``, striking each request it answers: the end of this stream waits
        for the requests read before it (:mod:`forge.tools.unanswered`)."""
        return CountingWriteStream(write_stream, self._unanswered)

    @property
    def last_context(self) -> Any:
        """The sender's context of the last item (the dispatcher restores it)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        """The next readable message; unreadable ones are answered on the way."""
        while True:
            try:
                item = await self._inner.receive()
            except anyio.EndOfStream:
                await self._unanswered.wait()  # what was read is answered first
                raise
            if not isinstance(item, Exception):
                self._unanswered.asked(item)
                return item
            try:
                reply = await self._answer(item)
                if reply is not None:
                    await self._write_stream.send(reply)
            except Exception:  # answering is a courtesy: it must never stop the server
                logger.warning("could not answer an unreadable message", exc_info=True)

    async def aclose(self) -> None:
        """Close the SDK's stream."""
        await self._inner.aclose()

    def __aiter__(self) -> AnsweringReadStream:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self) -> AnsweringReadStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


#: Where the SDK's JSON parser gives up; deeper requests cannot be read at all.
MAX_NESTING = 200


def diagnose(error: Exception) -> tuple[Envelope, str, int]:
    """What an unreadable line was (its envelope), what was wrong with it, and the error code."""
    if not isinstance(error, ValidationError):
        return (
            Envelope(),
            f"the message could not be read ({describe_exception(error)})",
            PARSE_ERROR,
        )
    problems = error.errors(include_url=False)
    first = problems[0] if problems else {"type": "", "msg": "", "loc": (), "input": None}
    if first["type"] == "json_invalid":
        raw = first["input"]
        envelope = salvage(raw) if isinstance(raw, str) else Envelope()
        reason = str(first["msg"]).removeprefix("Invalid JSON: ")
        return (
            envelope,
            f"the request is not valid JSON ({reason}); send UTF-8 JSON without lone "
            f"surrogates, nested at most {MAX_NESTING} levels deep",
            PARSE_ERROR,
        )
    # Valid JSON of the wrong shape: a "missing field" problem at the top level
    # carries the whole message as its input.
    message = next(
        (p["input"] for p in problems if p["type"] == "missing" and len(p["loc"]) == 2),
        None,
    )
    envelope = envelope_of(message)
    if envelope.odd_id:
        return (
            envelope,
            "the request's id must be a string or an integer (not null, a fraction, "
            "an object or an array)",
            INVALID_REQUEST,
        )
    return (
        envelope,
        "the message is not a JSON-RPC 2.0 request "
        '(expected {"jsonrpc": "2.0", "id": ..., "method": "...", "params": {...}})',
        INVALID_REQUEST,
    )


@contextlib.asynccontextmanager
async def claimed_stdin() -> AsyncIterator[Any]:
    """stdin's lines for the SDK (see :class:`OddIdLines`), with fd 0 pointed at /dev/null.

    The SDK claims fd 0 itself only when it reads stdin itself; as it does, the
    wire moves to a private descriptor so that no child reads the protocol.
    """
    private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    try:
        yield OddIdLines(PolledLines(private))
    finally:
        os.dup2(private, 0)
        os.close(private)


class PolledLines:
    """The lines of a pipe or terminal read as they come, in the event loop: no thread.

    A thread blocked reading an open stdin cannot be stopped: the session's end
    on Ctrl-C (the loop cancels its tasks) would wait for a line that never
    comes. A read here waits in the loop, so it is cancelled with the rest.
    What no poll can wait on (a file, ``/dev/null``) never keeps a read waiting:
    it is read in a worker thread. Lines keep their ``\\n``; bytes that are not
    UTF-8 become U+FFFD, as the SDK's own reader decodes them.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._lines: deque[str] = deque()
        self._partial: list[str] = []
        self._ended = False
        self._pollable = True

    async def _read(self) -> bytes:
        if self._pollable:
            try:
                await anyio.wait_readable(self._fd)
            except PermissionError:  # epoll refuses files and /dev/null
                self._pollable = False
            else:
                # The poll said readable: the read returns what came without waiting.
                return os.read(self._fd, 1 << 16)
        return await anyio.to_thread.run_sync(os.read, self._fd, 1 << 16)

    def __aiter__(self) -> PolledLines:
        return self

    async def __anext__(self) -> str:
        while not self._lines:
            if self._ended:
                raise StopAsyncIteration
            chunk = await self._read()
            text = self._decode(chunk, final=not chunk)
            if not chunk:
                self._ended = True
                rest = "".join(self._partial) + text
                if rest:
                    self._lines.append(rest)
                continue
            if "\n" not in text:  # a long line comes in many reads: joined once
                self._partial.append(text)
                continue
            first, *lines, last = text.split("\n")
            self._lines.append("".join(self._partial) + first + "\n")
            self._lines.extend(line + "\n" for line in lines)
            self._partial = [last] if last else []
        return self._lines.popleft()
