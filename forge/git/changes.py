"""The files a working dir or a branch changed against a base, read without changing anything.

A worker's changes are what it committed since it forked from the base (the
merge-base of the base and its ``HEAD``, so a base that moved on since does
not count as the worker's doing) plus what it has not committed: staged,
unstaged and untracked files (ignored ones aside). ``git diff`` refreshes the
index it reads, so it reads a private copy of the index (``GIT_INDEX_FILE``):
the worktree's own index is never written. Paths are relative to the
repository's top-level folder, as git writes them; deleted files count.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from forge.git.revisions import GitError
from forge.git.runner import failure, git_text, run_git, split_z


@dataclass(frozen=True)
class Changes:
    """What a working dir changed since it forked from a base."""

    #: The top-level folder of the working dir's checkout (a worktree's own folder).
    top: Path
    #: The commit the changes are counted from: the merge-base of the base and ``HEAD``.
    fork_point: str
    #: Changed by commits since the fork point.
    committed: tuple[str, ...]
    #: Changed in the working tree or the index and not committed, untracked files included.
    uncommitted: tuple[str, ...]

    @property
    def files(self) -> tuple[str, ...]:
        """Every changed file, committed or not, sorted."""
        return tuple(sorted({*self.committed, *self.uncommitted}))


def fork_point(top: Path, base: str, head: str) -> str:
    """The merge-base of ``base`` and ``head``; :class:`GitError` when they share no history."""
    found = git_text(top, "merge-base", base, head)
    if found is None:
        raise GitError(f"{head[:12]} shares no history with the base {base[:12]}")
    return found


def committed_changes(top: Path, since: str, until: str) -> tuple[str, ...]:
    """Files the commits from ``since`` to ``until`` changed (both sides of a rename)."""
    try:
        out = run_git(
            top, ["diff-tree", "-r", "-z", "--name-only", "--no-renames", since, until, "--"]
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot list the changes of {until[:12]}: {failure(exc)}") from None
    return tuple(sorted(split_z(out)))


def working_changes(cwd: Path, base: str) -> Changes | None:
    """What the checkout holding ``cwd`` changed since it forked from commit ``base``.

    None when ``cwd`` is not in a git work tree. :class:`GitError` when the
    checkout shares no history with the base or git fails.
    """
    top_text = git_text(cwd, "rev-parse", "--show-toplevel")
    if top_text is None:
        return None
    top = Path(top_text)
    head = git_text(top, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    if head is None:  # nothing committed yet: every file is uncommitted
        return Changes(top, base, (), _uncommitted(top, against=None))
    start = fork_point(top, base, head)
    return Changes(top, start, committed_changes(top, start, head), _uncommitted(top, head))


def _uncommitted(top: Path, against: str | None) -> tuple[str, ...]:
    """Files differing from ``against`` in the index or the working tree, and untracked ones."""
    index_text = git_text(top, "rev-parse", "--git-path", "index")
    index = (top / index_text) if index_text else None
    with tempfile.TemporaryDirectory(prefix="forge-index-") as scratch:
        private = Path(scratch) / "index"
        if index is not None and index.is_file():
            # copy2 keeps the index's modification time: git compares it with
            # each file's to spot "racily clean" entries, whose content it must read.
            shutil.copy2(index, private)
        env = {"GIT_INDEX_FILE": str(private)}
        try:
            found = set()
            if against is not None:
                found.update(
                    split_z(
                        run_git(
                            top,
                            ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", against],
                            env=env,
                        )
                    )
                )
            else:
                found.update(split_z(run_git(top, ["ls-files", "-z", "--cached"], env=env)))
            found.update(
                split_z(run_git(top, ["ls-files", "-z", "--others", "--exclude-standard"], env=env))
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise GitError(
                f"cannot list the uncommitted changes in {top}: {failure(exc)}"
            ) from None
    return tuple(sorted(found))
