"""The repository's worktrees and branches, as ``git worktree list`` and ``for-each-ref`` say."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from forge.git.runner import git_text, run_git


@dataclass(frozen=True)
class Worktree:
    """One checkout of the repository: its folder, the commit it is on and its branch."""

    path: Path
    head: str | None
    #: ``refs/heads/<name>``, or None for a detached ``HEAD``.
    branch: str | None

    @property
    def branch_name(self) -> str | None:
        """The branch without ``refs/heads/``."""
        return self.branch.removeprefix("refs/heads/") if self.branch else None


def worktrees(top: Path) -> list[Worktree]:
    """Every worktree of the repository holding ``top`` (the main one first); [] without git."""
    try:
        out = run_git(top, ["worktree", "list", "--porcelain", "-z"])
    except (OSError, subprocess.SubprocessError):
        return []
    found: list[Worktree] = []
    record: dict[str, str] = {}
    for field in [*out.split(b"\0"), b""]:
        if field:
            key, _, value = os.fsdecode(field).partition(" ")
            record[key] = value
            continue
        if "worktree" in record and "bare" not in record:
            found.append(
                Worktree(
                    path=Path(record["worktree"]),
                    head=record.get("HEAD") or None,
                    branch=record.get("branch") or None,
                )
            )
        record = {}
    return found


def local_branches(top: Path) -> list[str]:
    """The names of the repository's local branches (without ``refs/heads/``)."""
    try:
        out = run_git(top, ["for-each-ref", "--format=%(refname:lstrip=2)", "refs/heads"])
    except (OSError, subprocess.SubprocessError):
        return []
    # Ref names hold no line break (git refuses them), so lines are names.
    return [os.fsdecode(line) for line in out.splitlines() if line]


def counterpart(project_root: Path, working_dir: Path) -> Path | None:
    """The folder of ``working_dir``'s checkout that stands for ``project_root``: the project
    root itself when ``working_dir`` is inside it; in another worktree of the project's
    repository (a worker's), that worktree's folder at the project's place, since a
    worktree holds the project's layout. None when neither (no git, another repository).

    Paths relative to it are project-relative wherever the files are checked out.
    """
    project, folder = project_root.resolve(), working_dir.resolve()
    if folder.is_relative_to(project):
        return project
    project_top = git_text(project, "rev-parse", "--show-toplevel")
    folder_top = git_text(folder, "rev-parse", "--show-toplevel")
    if project_top is None or folder_top is None:
        return None
    common = {
        git_text(p, "rev-parse", "--path-format=absolute", "--git-common-dir")
        for p in (project, folder)
    }
    if len(common) != 1 or None in common:
        return None
    return Path(folder_top).resolve() / project.relative_to(Path(project_top).resolve())
