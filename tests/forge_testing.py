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


#: git with a fixed identity and default branch, whatever the machine's settings.
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo``; its stripped stdout (a failure raises)."""
    done = subprocess.run([*GIT, *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    """Write ``files`` (paths relative to ``repo``), commit everything, return the commit id."""
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")
