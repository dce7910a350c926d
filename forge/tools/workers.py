"""Where an MCP server's tool calls run: worker threads, stopped when their call is cancelled."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.to_thread

from forge.runtime.cancellation import cancellable

#: Tools whose calls may run verify commands for minutes. They run in their
#: own threads, at most :data:`LONG_CALLS` at once, so that quick calls
#: (memory, logs, state), in the threads anyio lends everything else, never
#: wait behind them.
LONG_TOOLS = frozenset({"validate", "validate_plan", "merge_check"})
LONG_CALLS = 100

T = TypeVar("T")


class Workers:
    """One server's worker threads for its tool calls."""

    def __init__(self) -> None:
        self._long_calls: anyio.CapacityLimiter | None = None  # made on the event loop

    async def run(self, tool: str, work: Callable[[], T]) -> T:
        """Run a tool's ``work`` in a worker thread, stopped if the call is cancelled.

        A cancelled call (``notifications/cancelled``, or stdin closing, which
        cancels every call in flight) returns at once; its thread is told
        through :mod:`forge.runtime.cancellation` and kills its command's process group.
        """
        limiter = None
        if tool in LONG_TOOLS:
            if self._long_calls is None:
                self._long_calls = anyio.CapacityLimiter(LONG_CALLS)
            limiter = self._long_calls
        with cancellable() as cancel:
            try:
                return await anyio.to_thread.run_sync(work, limiter=limiter, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                cancel.set()
                raise
