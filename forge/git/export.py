"""A base revision's tree, unpacked from git objects into a private folder.

``git archive`` of the base commit streams into :mod:`tarfile` (the ``data``
filter: no link or path leaves the folder): nothing is checked out, and the
worktree, index, refs and stash are never touched. Checks that must run a
program at the base (pytest's collection of the base's spec tests) run it there.
"""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path, PurePosixPath

from forge.git.revisions import Base, GitError
from forge.git.runner import git_environment

#: Seconds ``git archive`` may take.
ARCHIVE_TIMEOUT = 300.0


def export_tree(base: Base, into: Path, prefix: PurePosixPath | None = None) -> Path:
    """The base commit's tree (only ``prefix`` of it, if given) unpacked into ``into``.

    Returns the folder standing for ``prefix`` (``into`` itself without one).
    :raises GitError: git could not read the tree.
    """
    argv = ["git", "archive", "--format=tar", base.commit]
    if prefix is not None and str(prefix) != ".":
        argv.append(str(prefix))
    try:
        with subprocess.Popen(
            argv,
            cwd=base.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=git_environment(),
        ) as process:
            assert process.stdout is not None
            with tarfile.open(fileobj=process.stdout, mode="r|") as archive:
                archive.extractall(into, filter="data")
            process.wait(timeout=ARCHIVE_TIMEOUT)
    except (OSError, tarfile.TarError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot read the base tree {base.commit[:12]}: {exc}") from None
    if process.returncode not in (0, None):
        raise GitError(f"git archive {base.commit[:12]} failed ({process.returncode})")
    stand_in = into.joinpath(*prefix.parts) if prefix is not None and str(prefix) != "." else into
    stand_in.mkdir(parents=True, exist_ok=True)
    return stand_in
