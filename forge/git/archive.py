"""A base commit's tree unpacked into a private folder, from git objects (``git archive``).

For checks that must see a whole tree as it was at the base (what imported a
file the change deleted; whether a finding was already there): the user's
worktree, index and refs are never touched.
"""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path, PurePosixPath

from forge.git.command import git_environment
from forge.git.revisions import Base, GitError

#: Seconds ``git archive`` may take.
ARCHIVE_TIMEOUT = 300.0


def export_tree(base: Base, prefix: PurePosixPath, into: Path) -> Path:
    """The base commit's tree under ``prefix`` unpacked into ``into``; returns ``into/prefix``.

    :raises GitError: git failed or its archive could not be read.
    """
    argv = ["git", "archive", "--format=tar", base.commit]
    if str(prefix) != ".":
        argv.append(str(prefix))
    try:
        with subprocess.Popen(
            argv, cwd=base.root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=git_environment(),
        ) as process:  # fmt: skip
            assert process.stdout is not None
            with tarfile.open(fileobj=process.stdout, mode="r|") as archive:
                archive.extractall(into, filter="data")
            process.wait(timeout=ARCHIVE_TIMEOUT)
    except (OSError, tarfile.TarError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot read the base tree {base.commit[:12]}: {exc}") from None
    if process.returncode not in (0, None):
        raise GitError(f"git archive {base.commit[:12]} failed ({process.returncode})")
    folder = into.joinpath(*prefix.parts) if str(prefix) != "." else into
    folder.mkdir(parents=True, exist_ok=True)
    return folder
