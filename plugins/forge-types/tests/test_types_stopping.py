"""A type check stops when its call does: Ctrl-C in the CLI (an MCP cancel: tests/test_server_lifecycle.py)."""

from __future__ import annotations

import signal
import time
import uuid
from pathlib import Path

from forge_testing import forge_executable, live_processes_mentioning, signal_as_soon_as_started


def test_ctrl_c_during_the_type_check_stops_the_checker_at_once(tmp_path: Path) -> None:
    """The checker runs beside forge's other checks, in a thread: Ctrl-C still stops it.

    A project's own mypy (configured in pyproject.toml) that never finishes: forge
    must exit on Ctrl-C at once, leaving no checker behind, not wait for it.
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
