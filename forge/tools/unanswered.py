"""The requests a session has read and not answered yet, so that the end of stdin waits for them.

The SDK's dispatcher cancels every call still running when its read stream
ends. A client that writes its requests and closes stdin (a script piping
lines to ``forge serve``) would lose the answers to calls read an instant
before the end. :class:`Unanswered` counts them: the read stream
(:class:`forge.tools.jsonrpc.AnsweringReadStream`) adds each request it hands
on, :class:`CountingWriteStream` removes each one answered, and the end of
stdin is passed on once none is left, or after :data:`GRACE_SECONDS`: a client
that went away is owed its quick answers, not a long call (whose commands are
then stopped, as before).
"""

from __future__ import annotations

from typing import Any

import anyio

#: How long the end of stdin waits for calls already read to be answered.
GRACE_SECONDS = 2.0


class Unanswered:
    """Ids of the requests read and not yet answered."""

    def __init__(self) -> None:
        self._ids: set[str] = set()
        self._none_left = anyio.Event()
        self._none_left.set()

    def asked(self, message: Any) -> None:
        """Count ``message`` (a session message) when it is a request."""
        key = _request_key(message, answer=False)
        if key is not None:
            if not self._ids:
                self._none_left = anyio.Event()
            self._ids.add(key)

    def answered(self, message: Any) -> None:
        """Strike the request ``message`` (a session message) answers, if it is an answer."""
        key = _request_key(message, answer=True)
        if key is not None:
            self._ids.discard(key)
            if not self._ids:
                self._none_left.set()

    async def wait(self) -> None:
        """Until every request read is answered, or :data:`GRACE_SECONDS` have passed."""
        with anyio.move_on_after(GRACE_SECONDS):
            await self._none_left.wait()


def _request_key(message: Any, *, answer: bool) -> str | None:
    """The id of the request ``message`` is (``answer`` False) or answers (True), as a key."""
    inner = getattr(message, "message", None)
    request_id = getattr(inner, "id", None)
    if request_id is None or (getattr(inner, "method", None) is None) != answer:
        return None
    return repr(request_id)


class CountingWriteStream:
    """The SDK's write stream, striking each request answered through it from ``unanswered``."""

    def __init__(self, inner: Any, unanswered: Unanswered) -> None:
        self._inner = inner
        self._unanswered = unanswered

    async def send(self, item: Any) -> None:
        """Send ``item`` on, then count it answered."""
        await self._inner.send(item)
        self._unanswered.answered(item)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def __aenter__(self) -> CountingWriteStream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc_info: Any) -> Any:
        return await self._inner.__aexit__(*exc_info)
