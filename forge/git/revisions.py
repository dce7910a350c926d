"""Base revisions for the baseline: what a listed file was at a base revision, read from git.

This module resolves a base revision (``auto``: the merge-base of ``HEAD``
with the repository's default branch) and reads a file's content at that
revision through git's object store (``git ls-tree`` and ``git cat-file
--batch``: nothing is checked out, the worktree is never touched), caching
contents per blob id. Matching findings across revisions is the baseline
stage's business (:mod:`forge.validate.baseline`).

Without git, outside a repository, or when ``auto`` finds no default branch,
there is no base and nothing changes. A base the caller names that does not
resolve is a :class:`~forge.errors.UsageError`.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from forge.errors import UsageError, clip
from forge.git.runner import git_text, run_git

#: ``baseRef`` value meaning "the merge-base with the default branch".
AUTO = "auto"
#: Bytes of base contents kept across calls (the MCP server lives long).
CACHE_BYTES = 64 * 1024 * 1024
#: Branches tried, in order, when ``origin/HEAD`` names no default branch.
DEFAULT_BRANCHES = ("main", "master")


class GitError(UsageError):
    """A base revision that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class Base:
    """A resolved base revision of the repository holding the working dir."""

    #: The repository's top-level folder.
    root: Path
    #: The full commit id the findings are compared against.
    commit: str
    #: What the caller asked for (``auto``, ``main``, a commit id), for messages.
    ref: str

    def relative(self, path: Path) -> PurePosixPath | None:
        """``path`` relative to the repository root, or None when it is outside it."""
        try:
            # The folder is resolved, not the file: a link is read as the link it is.
            real = path.parent.resolve() / path.name
            return PurePosixPath(real.relative_to(self.root).as_posix())
        except (ValueError, OSError):
            return None

    def contents(self, paths: Sequence[Path]) -> dict[Path, bytes | None]:
        """Each path's content at the base; None for a file absent there (everything is new).

        Symbolic links, submodules and folders at the base count as absent: a
        file-level check has nothing to read in them.
        """
        wanted = {path: self.relative(path) for path in paths}
        blobs = _blob_ids(self, [rel for rel in wanted.values() if rel is not None])
        found = read_blobs(self.root, sorted(set(blobs.values())))
        return {
            path: (found.get(blobs[rel]) if rel is not None and rel in blobs else None)
            for path, rel in wanted.items()
        }

    def files(self) -> list[str]:
        """Every regular file at the base, repository-relative (one ``git ls-tree``)."""
        try:
            listing = run_git(self.root, ["ls-tree", "-r", "-z", "--full-tree", self.commit])
        except (OSError, subprocess.SubprocessError) as exc:
            raise GitError(f"cannot list files of {self.ref} ({self.commit[:12]}): {exc}") from None
        found = []
        for entry in listing.split(b"\0"):
            meta, _, name = entry.partition(b"\t")
            fields = meta.split()
            if len(fields) == 3 and fields[1] == b"blob" and fields[0].startswith(b"100"):
                found.append(name.decode("utf-8", errors="surrogateescape"))
        return found


def resolve_base(cwd: Path, ref: str) -> Base | None:
    """The base revision ``ref`` names for the repository holding ``cwd``.

    :param cwd: the validate call's working dir.
    :param ref: ``auto`` (merge-base of ``HEAD`` with ``origin/HEAD``'s branch,
        else ``main``, else ``master``), or anything ``git rev-parse`` takes.
    :returns: None when there is no base to compare with: git is not
        installed, ``cwd`` is not in a git work tree, or ``auto`` finds no
        default branch or no common ancestor.
    :raises GitError: a named ``ref`` that is not a commit of the repository.
    """
    ref = ref.strip()
    if not ref:
        raise GitError("baseRef is empty: give a branch, tag or commit, or 'auto'")
    if ref.startswith("-"):
        raise GitError(f"baseRef {clip(ref, 80)!r} is not a revision: it starts with '-'")
    if shutil.which("git") is None:
        return None
    top = git_text(cwd, "rev-parse", "--show-toplevel")
    if top is None:
        return None
    root = Path(top).resolve()
    if ref == AUTO:
        branch = default_branch(root)
        commit = git_text(root, "merge-base", "HEAD", branch) if branch else None
        return Base(root=root, commit=commit, ref=AUTO) if commit else None
    commit = git_text(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if commit is None:
        raise GitError(
            f"baseRef {clip(ref, 80)!r} is not a commit of the repository at {root}: "
            "give a branch, tag or commit id that exists there, or 'auto'"
        )
    return Base(root=root, commit=commit, ref=ref)


def default_branch(root: Path) -> str | None:
    """The repository's default branch: ``origin/HEAD``'s, else ``main``, else ``master``."""
    remote = git_text(root, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD")
    if remote:
        return remote
    for branch in DEFAULT_BRANCHES:
        if git_text(root, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}"):
            return f"refs/heads/{branch}"
    return None


def _blob_ids(base: Base, paths: list[PurePosixPath]) -> dict[PurePosixPath, str]:
    """Blob id of each path that is a regular file at the base commit."""
    if not paths:
        return {}
    try:
        listing = run_git(
            base.root, ["ls-tree", "-z", "--full-tree", base.commit, "--", *map(str, paths)]
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot list files of {base.ref} ({base.commit[:12]}): {exc}") from None
    blobs = {}
    for entry in listing.split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        fields = meta.split()
        # Regular files only (100644, 100755): not links (120000) nor submodules.
        if len(fields) == 3 and fields[1] == b"blob" and fields[0].startswith(b"100"):
            path = PurePosixPath(name.decode("utf-8", errors="surrogateescape"))
            blobs[path] = fields[2].decode("ascii")
    return blobs


class _BlobCache:
    """Blob contents by id, least recently used dropped first, bounded in bytes."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._size = 0
        self._blobs: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, blob: str) -> bytes | None:
        with self._lock:
            data = self._blobs.get(blob)
            if data is not None:
                self._blobs.move_to_end(blob)
            return data

    def put(self, blob: str, data: bytes) -> None:
        if len(data) > self._limit:
            return
        with self._lock:
            if blob in self._blobs:
                return
            self._blobs[blob] = data
            self._size += len(data)
            while self._size > self._limit:
                _, dropped = self._blobs.popitem(last=False)
                self._size -= len(dropped)


#: Shared by every call in the process: a blob id names the same bytes forever.
BLOB_CACHE = _BlobCache(CACHE_BYTES)


def read_blobs(root: Path, blobs: list[str]) -> dict[str, bytes]:
    """The content of each blob id, from the cache or one ``git cat-file --batch``."""
    found = {blob: data for blob in blobs if (data := BLOB_CACHE.get(blob)) is not None}
    missing = [blob for blob in blobs if blob not in found]
    if not missing:
        return found
    try:
        output = run_git(root, ["cat-file", "--batch"], "".join(f"{b}\n" for b in missing).encode())
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot read base contents from git: {exc}") from None
    offset = 0
    for blob in missing:
        end = output.index(b"\n", offset)
        header = output[offset:end].split()
        offset = end + 1
        if len(header) != 3:  # "<id> missing": nothing follows
            continue
        size = int(header[2])
        data = output[offset : offset + size]
        offset += size + 1  # the content is followed by a newline
        BLOB_CACHE.put(blob, data)
        found[blob] = data
    return found


def materialize(base: Base, contents: dict[Path, bytes | None], into: Path) -> dict[Path, Path]:
    """Write each file present at the base under ``into``, at its repository-relative path.

    The checks then read the base revision exactly as they read the worktree,
    from a private folder that nothing else sees (the worktree is never
    touched). Returns each listed path's stand-in under ``into``.
    """
    placed = {}
    for path, data in contents.items():
        relative = base.relative(path)
        if data is None or relative is None:
            continue
        target = into.joinpath(*relative.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        placed[path] = target
    return placed
