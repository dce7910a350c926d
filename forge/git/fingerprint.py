"""A digest of a module's work: its listed files, and the git state of its working dir.

Equal digests mean the worker changed nothing forge can see: no listed file,
no tracked file, no untracked file's size or time. ``forge hook`` compares them
between stops (:mod:`forge.state.stop_blocks`), so a stop repeated with nothing
changed since a block is let through instead of looping.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

from forge.git.runner import run_git

#: Longest a git command may take while fingerprinting (it is a courtesy).
GIT_TIMEOUT_SECONDS = 20.0

# forge's own state changes on every stop: it is not the worker's work.
_OUTSIDE_FORGE = ["--", ".", ":(exclude,glob)**/.forge/**"]


def work_fingerprint(working_dir: Path, files: Iterable[str]) -> str:
    """The digest of the work in ``working_dir``: ``files`` (relative to it, or absolute),
    ``HEAD``, the diff against it, and each untracked file's size and time."""
    digest = hashlib.sha256()
    for name in sorted(files):
        path = Path(name).expanduser()
        path = path if path.is_absolute() else working_dir / path
        digest.update(name.encode("utf-8", "replace") + b"\0")
        try:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError as exc:
            digest.update(f"unreadable {exc.errno}".encode())
    digest.update(_git(working_dir, ["rev-parse", "HEAD"]) + b"\0")
    digest.update(_git(working_dir, ["diff", "--no-ext-diff", "--binary", "HEAD", *_OUTSIDE_FORGE]))
    untracked = _git(
        working_dir, ["ls-files", "--others", "--exclude-standard", "-z", *_OUTSIDE_FORGE]
    )
    for entry in sorted(untracked.split(b"\0")):
        if entry:
            digest.update(entry + b"\0" + _stat_key(working_dir / os.fsdecode(entry)))
    return digest.hexdigest()


def _git(cwd: Path, args: list[str]) -> bytes:
    """``git args`` output in ``cwd``; empty when git or the repository is not there."""
    try:
        # Pathspec magic on: the fingerprint leaves ``:(exclude,glob)**/.forge/**`` out.
        return run_git(cwd, args, env={"GIT_LITERAL_PATHSPECS": "0"}, timeout=GIT_TIMEOUT_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return b""


def _stat_key(path: Path) -> bytes:
    try:
        info = path.stat()
    except OSError:
        return b"gone"
    return f"{info.st_size}:{info.st_mtime_ns}".encode()
