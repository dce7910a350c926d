"""A project in git with a plan, and workers' worktrees on their own branches."""

from __future__ import annotations

from pathlib import Path

import pytest
from forge_testing import Worker, python_repo, worker_commit


@pytest.fixture
def repo(project: Path) -> Path:
    """The project: a git repository on main, .forge/ ignored, a Python package at the top."""
    return python_repo(project)


@pytest.fixture
def worker(repo: Path) -> Worker:
    """``worker("api", {"api.py": ...})``: a worktree ../wt-api on branch forge/api, one commit."""
    return lambda module_id, files: worker_commit(repo, module_id, files)
