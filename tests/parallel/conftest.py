"""A project in git with a plan, and workers' worktrees on their own branches."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from forge_testing import commit, git

Worker = Callable[[str, dict[str, str]], Path]


def module(module_id: str, files: list[str], **extra: Any) -> dict[str, Any]:
    """A plan module whose verify command only needs the shell."""
    return {
        "id": module_id,
        "title": module_id.title(),
        "objective": f"Deliver {module_id}.",
        "files": files,
        "verify": [f"test -f {files[0]}"],
        "doneWhen": f"{files[0]} is there.",
        **extra,
    }


@pytest.fixture
def repo(project: Path) -> Path:
    """The project: a git repository on main, .forge/ ignored, a Python package at the top."""
    git(project, "init", "-q")
    commit(
        project,
        {
            ".gitignore": ".forge/\n",
            "api.py": "def total(items):\n    return sum(items)\n",
            "app.py": "from api import total\n\nprint(total([1, 2]))\n",
            "config.py": "NAME = 'app'\nLIMIT = 10\n",
        },
        "base",
    )
    return project


def write_plan(repo: Path, modules: list[dict[str, Any]], name: str = "plan") -> Path:
    path = repo / ".forge" / "plans" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"modules": modules}), encoding="utf-8")
    return path


@pytest.fixture
def worker(repo: Path) -> Worker:
    """``worker("api", {"api.py": ...})``: a worktree ../wt-api on branch forge/api, one commit."""

    def work(module_id: str, files: dict[str, str]) -> Path:
        folder = repo.parent / f"wt-{module_id}"
        if not folder.exists():
            git(repo, "worktree", "add", "-q", "-b", f"forge/{module_id}", str(folder), "main")
        commit(folder, files, f"{module_id}: work")
        return folder

    return work
