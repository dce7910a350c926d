"""Stopping a call's work from outside its thread: a cancelled MCP request, a closed stdin.

A tool call runs in a worker thread; the verify commands it starts can run
for minutes. The MCP adapter opens a :func:`cancellable` scope around each
call (the worker thread inherits it: ``anyio.to_thread`` copies the context)
and sets its event when the client sends ``notifications/cancelled``; it calls
:func:`shut_down` when stdin closes. Long-running work polls :func:`cancelled`
and stops: :mod:`forge.runtime.processes` kills the command's process group, and
forge-types its checker's.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextvars import ContextVar
from typing import TypeVar

from forge.errors import ForgeError

#: The events of the scopes the current work runs in, outermost first: any one set stops it.
_current: ContextVar[tuple[threading.Event, ...]] = ContextVar("forge_cancel", default=())
#: Set once the process is shutting down (the MCP client went away): every
#: call's work stops. Process-wide, as the client is.
_shutdown = threading.Event()
#: Seconds the main thread waits at a time for work in another thread: a signal
#: (Ctrl-C) that the kernel hands to another thread wakes no thread blocked without
#: a timeout, so the main thread must look for it.
SIGNAL_POLL = 0.1

T = TypeVar("T")


class Cancelled(ForgeError):
    """The call was cancelled: its work stopped, and nothing of it was recorded."""


@contextlib.contextmanager
def cancellable(event: threading.Event | None = None) -> Iterator[threading.Event]:
    """A scope whose work stops once the yielded event (``event``, else a new one) is set.

    Scopes nest: work inside stops when its own scope's event or an enclosing
    one's is set (the engine stops a concurrent check's thread on its own when
    the call ends early; the MCP client's cancel stops it too).
    """
    event = event if event is not None else threading.Event()
    token = _current.set((*_current.get(), event))
    try:
        yield event
    finally:
        _current.reset(token)


def cancelled() -> bool:
    """Whether the work of the current call should stop now."""
    return _shutdown.is_set() or any(event.is_set() for event in _current.get())


def shut_down() -> None:
    """Stop the work of every call in this process, for good."""
    _shutdown.set()


@contextlib.contextmanager
def stopped_on_error(pool: Executor | None = None) -> Iterator[threading.Event]:
    """An event set when the block is left by an exception (Ctrl-C), which then goes on.

    Work the block starts in threads of their own runs in ``cancellable(event)``:
    when the call ends early it stops, rather than keep the exit waiting for it;
    ``pool``'s work not begun yet is dropped (the work begun is still waited for).
    """
    event = threading.Event()
    try:
        yield event
    except BaseException:
        event.set()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        raise


def waited(future: Future[T]) -> T:
    """``future``'s result, waited for in slices of :data:`SIGNAL_POLL` so Ctrl-C is seen."""
    while True:
        try:
            return future.result(timeout=SIGNAL_POLL)
        except FutureTimeout:
            continue
