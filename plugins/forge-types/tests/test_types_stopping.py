"""A type check stops when its call does: Ctrl-C in the CLI (an MCP cancel: tests/tools/test_server_lifecycle.py)."""

from __future__ import annotations

import signal
import time
import uuid
from pathlib import Path

from forge_testing import (
    forge_executable,
    live_processes_mentioning,
    signal_another_thread,
    signal_as_soon_as_started,
    started_like_a_user,
)


def never_ending_mypy(root: Path) -> str:
    """A project whose own mypy (configured in pyproject.toml) never ends; what it runs."""
    marker = f"sleep {3000 + uuid.uuid4().int % 5000}.5"
    (root / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n", encoding="utf-8")
    (root / "app.py").write_text("x: int = 1\n", encoding="utf-8")
    fake = root / ".venv" / "bin" / "mypy"
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_text(
        f'#!/bin/sh\n[ "$1" = --version ] && {{ echo "mypy 1.0.0"; exit 0; }}\nexec {marker}\n',
        encoding="utf-8",
    )
    fake.chmod(0o755)
    return marker


def assert_gone(marker: str) -> None:
    """No process runs ``marker`` once the kernel has had a moment to retire it."""
    deadline = time.monotonic() + 5
    while live_processes_mentioning(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live_processes_mentioning(marker) == []


def test_ctrl_c_during_the_type_check_stops_the_checker_at_once(tmp_path: Path) -> None:
    """The checker runs beside forge's other checks, in a thread: Ctrl-C still stops it.

    forge must exit on Ctrl-C at once, leaving no checker behind, not wait for it.
    """
    for _ in range(3):
        marker = never_ending_mypy(tmp_path)
        argv = [forge_executable(), "validate", "--files", "app.py"]
        started = time.monotonic()
        forge = signal_as_soon_as_started(argv, marker, signal.SIGINT, tmp_path)
        _, stderr = forge.communicate(timeout=60)
        assert time.monotonic() - started < 20, "forge waited for the checker after Ctrl-C"
        assert forge.returncode == 130, stderr
        assert "Traceback" not in stderr
        assert_gone(marker)


def test_ctrl_c_that_lands_on_another_thread_still_stops_forge(tmp_path: Path) -> None:
    """The signal handed to a thread other than the main one, as the kernel may do.

    The main thread waited for the checker's thread with no timeout, and a thread
    blocked that way is not woken by a signal another thread took: forge never
    saw the Ctrl-C and waited for the checker to end.
    """
    marker = never_ending_mypy(tmp_path)
    forge = started_like_a_user([forge_executable(), "validate", "--files", "app.py"], tmp_path)
    deadline = time.monotonic() + 60
    while not live_processes_mentioning(marker):
        assert forge.poll() is None and time.monotonic() < deadline, "the checker never started"
        time.sleep(0.02)
    time.sleep(0.3)  # every thread in its wait
    signal_another_thread(forge.pid, signal.SIGINT)
    _, stderr = forge.communicate(timeout=60)
    assert forge.returncode == 130, stderr
    assert_gone(marker)
