"""A session's start: a server built before its session, and work that waits until it has begun.

The forge daemon builds the MCP server (its tools' schemas) before it forks a
session's child (:func:`keep`); the child takes it (:func:`take`) instead of
building one. ``forge serve`` run in its own process starts a daemon only
once its session's start is over (:func:`session`, :func:`started`): a
daemon warming up beside the session's own start would slow it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
_LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}

_prepared: list[Any] = []
_after_start: list[Callable[[], None]] = []
#: A start is a burst of requests (initialize, tools/list, prompts/list, ...): what
#: waits for it runs once none has come for this long, or at once when the session
#: ends. After the first answer alone, a daemon importing forge on the other core
#: slowed the tools/list that followed.
QUIET_SECONDS = 1.0
_last_request = [0.0]
_ended = threading.Event()


def log_level() -> LogLevel:
    """The server's log level: ``FORGE_LOG_LEVEL`` when it names one, else WARNING."""
    level = os.environ.get("FORGE_LOG_LEVEL", "WARNING").upper()
    return level if level in _LEVELS else "WARNING"  # type: ignore[return-value]


def keep(build: Callable[[], Any]) -> None:
    """Build a server now, for the first session of this process (or of a fork) to take.

    Logging is left as it was: the session configures it for its own stderr
    and ``FORGE_LOG_LEVEL``.
    """
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    _prepared.append(build())
    root.handlers[:], root.level = handlers, level


async def rehearse(client: Any, root: Path) -> None:
    """A session over ``root`` through ``client`` (an MCP SDK client, not yet entered): the
    tool list, a validate, a plan's, a recall.

    Whatever a session's first calls build on first use (the SDK's validators
    and serializers, forge's plugins, grammars and query caches) is built by a
    rehearsal in the daemon, once, and shared by every child forked afterwards
    instead of built, and held in private pages, by each session. In this
    thread: a fork copies no other.
    """
    files = sorted(path.name for path in root.iterdir() if path.suffix in {".py", ".js", ".ts"})
    module = {"id": "warm", "title": "W", "objective": "o", "files": files,
              "verify": ["true"], "doneWhen": "d"}  # fmt: skip
    async with client:
        await client.list_tools()
        await client.call_tool("validate", {"moduleId": "warm", "files": files})
        await client.call_tool("validate_plan", {"plan": {"modules": [module]}})
        await client.call_tool("memory_recall", {"query": "warm"})


def take() -> Any | None:
    """The server :func:`keep` built, once; ``None`` when there is none."""
    return _prepared.pop() if _prepared else None


@contextlib.contextmanager
def session(then: Callable[[], None] | None) -> Iterator[None]:
    """A session's life: ``then`` runs once its start is over (see :func:`started`), or as
    it ends, whichever comes first; the process never waits for the quiet."""
    _after_start[:] = [then] if then is not None else []
    try:
        yield
    finally:
        _ended.set()


def started() -> None:
    """A request was handled: what waited for the start runs, once, in a thread of its own,
    when no request has come for :data:`QUIET_SECONDS`.

    Not a daemon thread: a session that ends at once still finishes it.
    """
    _last_request[0] = time.monotonic()
    while _after_start:
        threading.Thread(target=_when_quiet, args=(_after_start.pop(),)).start()


def _when_quiet(then: Callable[[], None]) -> None:
    while (left := _last_request[0] + QUIET_SECONDS - time.monotonic()) > 0:
        if _ended.wait(left):
            break
    then()
