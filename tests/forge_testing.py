"""Helpers shared by forge's tests (a uniquely named module: plugin test suites have
their own ``conftest``, so tests never import from ``conftest`` at run time)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

#: The console scripts installed next to the interpreter running the tests.
BIN_DIR = Path(sys.executable).parent

RunForge = Callable[..., subprocess.CompletedProcess[str]]


def forge_executable(name: str = "forge") -> str:
    """Path of an installed console script (``forge`` or ``forge-mcp``)."""
    path = BIN_DIR / name
    if not path.exists():  # pragma: no cover - the package must be installed to test it
        pytest.fail(f"{path} not found: install the project first (pip install -e '.[dev]')")
    return str(path)
