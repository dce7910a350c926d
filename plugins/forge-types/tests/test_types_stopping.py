"""A type check stops when its call does: Ctrl-C in the CLI (an MCP cancel: tests/test_server_lifecycle.py)."""

from __future__ import annotations

import signal
import subprocess
import time
import uuid
from pathlib import Path

from forge_testing import (
    default_signal_dispositions,
    forge_executable,
    live_processes_mentioning,
    signal_another_thread,
    signal_as_soon_as_started,
)


def test_ctrl_c_during_the_type_check_stops_the_checker_at_once(tmp_path: Path) -> None:
    """The checker runs beside forge's other checks, in a thread: Ctrl-C still stops it.

    A project's own mypy (configured in pyproject.toml) that never finishes: forge
    must exit on Ctrl-C at once, leaving no checker behind, not wait for it. The
    kernel hands the signal to any thread; three tries make one that lands
    outside the main thread likely (the main thread, blocked without a timeout,
    never saw it).
    """
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n", encoding="utf-8")
    (tmp_path / "app.py").write_text("x: int = 1\n", encoding="utf-8")
    fake = tmp_path / ".venv" / "bin" / "mypy"
    fake.parent.mkdir(parents=True)
    for _ in range(3):
        marker = f"sleep {3000 + uuid.uuid4().int % 5000}.5"
        fake.write_text(
            f'#!/bin/sh\n[ "$1" = --version ] && {{ echo "mypy 1.0.0"; exit 0; }}\nexec {marker}\n',
            encoding="utf-8",
        )
        fake.chmod(0o755)
        argv = [forge_executable(), "validate", "--files", "app.py"]
        started = time.monotonic()
        forge = signal_as_soon_as_started(argv, marker, signal.SIGINT, tmp_path)
        _, stderr = forge.communicate(timeout=60)
        assert time.monotonic() - started < 20, "forge waited for the checker after Ctrl-C"
        assert forge.returncode == 130, stderr
        assert "Traceback" not in stderr
        deadline = time.monotonic() + 5
        while live_processes_mentioning(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live_processes_mentioning(marker) == []


def test_ctrl_c_that_lands_on_another_thread_still_stops_forge(tmp_path: Path) -> None:
    """The signal handed to a thread other than the main one, as the kernel may do.

    The main thread waited for the checker's thread with no timeout, and a thread
    blocked that way is not woken by a signal another thread took: forge never
    saw the Ctrl-C and waited for the checker to end.
    """
    marker = f"sleep {3000 + uuid.uuid4().int % 5000}.5"
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n", encoding="utf-8")
    (tmp_path / "app.py").write_text("x: int = 1\n", encoding="utf-8")
    fake = tmp_path / ".venv" / "bin" / "mypy"
    fake.parent.mkdir(parents=True)
    fake.write_text(
        f'#!/bin/sh\n[ "$1" = --version ] && {{ echo "mypy 1.0.0"; exit 0; }}\nexec {marker}\n',
        encoding="utf-8",
    )
    fake.chmod(0o755)
    forge = subprocess.Popen(
        [forge_executable(), "validate", "--files", "app.py"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signal_dispositions,
    )
    deadline = time.monotonic() + 60
    while not live_processes_mentioning(marker):
        assert forge.poll() is None and time.monotonic() < deadline, "the checker never started"
        time.sleep(0.02)
    time.sleep(0.3)  # every thread in its wait
    signal_another_thread(forge.pid, signal.SIGINT)
    _, stderr = forge.communicate(timeout=60)
    assert forge.returncode == 130, stderr
    deadline = time.monotonic() + 5
    while live_processes_mentioning(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live_processes_mentioning(marker) == []
