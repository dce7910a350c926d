"""``forge serve`` with no daemon starts one only once its session's start is over.

A session's start is a burst of requests (initialize, tools/list, ...); a daemon
importing forge on the machine's other core while they are answered slows them.
Real ``forge serve`` processes on pipes; the daemon a session starts is found by
its environment (``forge_suite.started_by_tests``) the moment it is spawned.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from forge_suite import started_by_tests
from mcp_wire import Wire
from serve_modes import DAEMON, DIRECT, START_TIMEOUT_S

from forge.tools.session_start import QUIET_SECONDS

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="the daemon runs on Linux only"),
    pytest.mark.usefixtures("no_daemon_left"),
]


def spawned_daemons() -> list[int]:
    """The forge daemons this test has started so far, listening or still importing."""
    test = os.environ["PYTEST_CURRENT_TEST"].rsplit(" ", 1)[0]
    return [
        process.pid
        for process in started_by_tests()
        if process.is_forge_daemon and process.test.startswith(test)
    ]


def test_the_daemon_starts_after_a_burst_of_requests_not_during_it(project: Path) -> None:
    wire = Wire(project, DAEMON)
    try:
        wire.initialize()
        # Requests keep coming, each sooner than the quiet period after the last.
        for request_id in range(1, 16):
            wire.call(request_id, "memory_recall", {"query": "anything"})
            assert "result" in wire.wait_for(request_id)
            time.sleep(0.1)
            assert spawned_daemons() == [], "a daemon started while requests kept coming"
        deadline = time.monotonic() + START_TIMEOUT_S
        while not spawned_daemons():
            assert time.monotonic() < deadline, "no daemon started once the requests stopped"
            time.sleep(0.05)
    finally:
        wire.close()


@pytest.mark.parametrize("mode", [DIRECT, DAEMON])
def test_a_session_ending_at_once_is_not_held_by_the_wait_for_quiet(
    project: Path, mode: str
) -> None:
    """stdin closed right after the start's burst: the process ends without waiting for
    the quiet the daemon's start waits for (it starts it then, or not at all)."""
    wire = Wire(project, mode)
    try:
        wire.initialize()
        assert wire.process.stdin is not None
        closed = time.monotonic()
        wire.process.stdin.close()
        assert wire.process.wait(timeout=30) == 0
        assert time.monotonic() - closed < QUIET_SECONDS
    finally:
        wire.close()
