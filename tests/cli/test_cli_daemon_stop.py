"""``forge daemon stop`` stops a daemon that is still warming up (it answers no socket yet).

A ``forge serve`` with no daemon starts one in the background as its session
ends; a ``forge daemon stop`` right after found no socket to ask and said "not
running" while the daemon went on warming up and then served for 30 minutes.
Real daemons, each for its test's own ``FORGE_HOME``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from forge_testing import RunForge, forge_executable

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="the daemon runs on Linux only"),
    pytest.mark.usefixtures("no_daemon_left"),
]


def holds_a_lock(pid: int) -> bool:
    """Whether ``pid`` holds a file lock yet (the daemon takes its own before warming up)."""
    locks = Path("/proc/locks").read_text(encoding="utf-8").splitlines()
    return any(line.split()[4] == str(pid) for line in locks if len(line.split()) > 4)


def test_stop_ends_a_daemon_still_warming_up(run_forge: RunForge, project: Path) -> None:
    daemon = subprocess.Popen(
        [forge_executable(), "daemon", "start", "--foreground", "--idle", "300"],
        cwd=project,
        env={**os.environ, "FORGE_CWD": str(project)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not holds_a_lock(daemon.pid):
            assert daemon.poll() is None, "the daemon ended before it took its lock"
            assert time.monotonic() < deadline, "the daemon never took its lock"
            time.sleep(0.01)
        assert run_forge("daemon", "status").returncode == 1  # it answers nothing yet
        stopped = run_forge("daemon", "stop")
        assert stopped.returncode == 0, stopped.stderr
        assert "stopped" in stopped.stdout, stopped.stdout
        assert daemon.wait(timeout=30) is not None
        assert run_forge("daemon", "status").returncode == 1
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()


def test_stop_with_no_daemon_says_so(run_forge: RunForge) -> None:
    stopped = run_forge("daemon", "stop")
    assert stopped.returncode == 0 and stopped.stdout.strip() == "forge daemon: not running"
