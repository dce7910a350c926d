"""Merges done in git's object store: ``git merge-tree --write-tree``, and trees read back.

A merge here writes objects (the merged blobs and trees, and a commit object
to merge the next branch onto) and nothing else: no working tree, no index,
no ref. The commits are made with a fixed author and date, so the same
merge gives the same commit id and repeating a preview adds nothing. Trees
are read back with ``git ls-tree`` and ``git cat-file --batch`` into a
private folder the checks then read like any checkout.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from forge.git.revisions import GitError, read_blobs
from forge.git.runner import commit_of, failure, run_git, split_z

#: Who the preview's own commit objects are by (never on a branch: no ref points at them).
_IDENTITY = {
    "GIT_AUTHOR_NAME": "forge",
    "GIT_AUTHOR_EMAIL": "forge@localhost",
    "GIT_AUTHOR_DATE": "@0 +0000",
    "GIT_COMMITTER_NAME": "forge",
    "GIT_COMMITTER_EMAIL": "forge@localhost",
    "GIT_COMMITTER_DATE": "@0 +0000",
}
_HEX = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
#: Blobs read per ``git cat-file --batch``: bounds the memory one read holds.
_BLOBS_PER_READ = 1_000


@dataclass(frozen=True)
class MergeMessage:
    """One of git's informational messages about a merge (``CONFLICT (content)``...)."""

    paths: tuple[str, ...]
    kind: str
    text: str

    @property
    def conflict(self) -> bool:
        """Whether the message reports a conflict rather than informs (``Auto-merging``)."""
        return self.kind.startswith("CONFLICT")


@dataclass(frozen=True)
class MergeOutcome:
    """What ``git merge-tree --write-tree`` made of two commits."""

    #: The merged top-level tree (with conflict markers in conflicted files).
    tree: str
    #: No conflict of any kind (git's exit status, not an empty file list).
    clean: bool
    #: Files left with higher-order stages, in git's order.
    conflicted: tuple[str, ...]
    messages: tuple[MergeMessage, ...]

    def kinds(self, path: str) -> list[str]:
        """The conflict types git gave ``path`` (``CONFLICT (content)``, ``CONFLICT (modify/delete)``)."""
        return [m.kind for m in self.messages if m.conflict and path in m.paths] or ["CONFLICT"]


def merge_tree(top: Path, first: str, second: str) -> MergeOutcome:
    """Merge commits ``first`` and ``second`` in the object store; :class:`GitError` if git cannot."""
    commits = []
    for revision in (first, second):
        # merge-tree answers an unknown revision with exit 1, as it does a conflict:
        # anything but a commit id the caller resolved is looked up first, and
        # merge-tree is given the id, never a name git could read as an option.
        found = revision if _HEX.fullmatch(revision) else commit_of(top, revision)
        if found is None:
            raise GitError(f"git merge-tree: {revision[:80]!r} is not a commit of {top}")
        commits.append(found)
    try:
        out = run_git(
            top,
            ["merge-tree", "--write-tree", "-z", "--name-only", "--messages", *commits],
            ok_codes=(0, 1),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"git merge-tree {first[:12]} {second[:12]}: {failure(exc)}") from None
    return parse_merge_tree(out)


def parse_merge_tree(out: bytes) -> MergeOutcome:
    """The ``-z --name-only --messages`` output of ``git merge-tree --write-tree``.

    ``<tree>NUL``, then conflicted paths each ``NUL``-ended, an empty field,
    and messages as ``<count>NUL<path>NUL...<type>NUL<message>NUL``.
    """
    fields = out.split(b"\0")
    tree = fields[0].decode("ascii", errors="replace").strip()
    if not _HEX.fullmatch(tree):
        raise GitError(f"git merge-tree gave no tree: {tree[:200]!r}")
    position = 1
    conflicted: list[str] = []
    while position < len(fields) and fields[position]:
        conflicted.append(os.fsdecode(fields[position]))
        position += 1
    position += 1  # the empty field that opens the messages
    messages: list[MergeMessage] = []
    while position < len(fields) and fields[position].isdigit():
        count = int(fields[position])
        paths = tuple(os.fsdecode(item) for item in fields[position + 1 : position + 1 + count])
        kind_at = position + 1 + count
        if kind_at + 1 >= len(fields):
            break
        kind = fields[kind_at].decode("utf-8", errors="replace")
        text = " ".join(fields[kind_at + 1].decode("utf-8", errors="replace").split())
        messages.append(MergeMessage(paths, kind, text))
        position = kind_at + 2
    clean = not conflicted and not any(message.conflict for message in messages)
    return MergeOutcome(tree, clean, tuple(conflicted), tuple(messages))


def commit_tree(top: Path, tree: str, parents: list[str], message: str) -> str:
    """A commit object for ``tree`` with ``parents``, pointed at by no ref; its id."""
    args = ["commit-tree", "--no-gpg-sign", tree]
    for parent in parents:
        args += ["-p", parent]
    try:
        out = run_git(top, [*args, "-m", message], env=_IDENTITY)
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot record the merged tree {tree[:12]}: {failure(exc)}") from None
    return out.decode("ascii").strip()


def tree_of(top: Path, revision: str) -> str:
    """The top-level tree id of ``revision``."""
    try:
        out = run_git(top, ["rev-parse", "--verify", "--end-of-options", f"{revision}^{{tree}}"])
        return out.decode("ascii").strip()
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"no tree for {revision[:40]!r}: {failure(exc)}") from None


def tree_files(top: Path, tree: str) -> dict[str, tuple[str, str]]:
    """Every regular file of ``tree``: repository path -> (mode, blob id).

    Links, submodules and paths no checkout would write (``..``, ``.git``)
    are left out.
    """
    try:
        out = run_git(top, ["ls-tree", "-r", "-z", "--full-tree", tree])
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot list the files of tree {tree[:12]}: {failure(exc)}") from None
    files: dict[str, tuple[str, str]] = {}
    for entry in out.split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) != 3 or fields[1] != b"blob" or not fields[0].startswith(b"100"):
            continue
        path = os.fsdecode(name)
        if _safe(path):
            files[path] = (fields[0].decode("ascii"), fields[2].decode("ascii"))
    return files


def _safe(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return bool(parts) and not path.startswith("/") and not {"..", ".git", "."} & set(parts)


def write_tree_files(top: Path, files: dict[str, tuple[str, str]], into: Path) -> None:
    """Write ``files`` (from :func:`tree_files`) under the folder ``into``, blobs read in batches."""
    items = sorted(files.items())
    for start in range(0, len(items), _BLOBS_PER_READ):
        chunk = items[start : start + _BLOBS_PER_READ]
        try:
            contents = read_blobs(top, sorted({blob for _, (_, blob) in chunk}))
        except GitError as exc:
            raise GitError(f"cannot read the merged files: {exc}") from None
        for path, (mode, blob) in chunk:
            target = into.joinpath(*PurePosixPath(path).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(contents.get(blob, b""))
            if mode == "100755":
                target.chmod(0o755)


def grep_tree(top: Path, tree: str, words: list[str]) -> list[str]:
    """Paths of the text files of ``tree`` that contain any of ``words`` as a whole word."""
    if not words:
        return []
    args = ["grep", "-l", "-z", "-I", "-F", "-w", "--full-name"]
    for word in words:
        args += ["-e", word]
    try:
        out = run_git(top, [*args, tree], ok_codes=(0, 1))
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot search tree {tree[:12]}: {failure(exc)}") from None
    prefix = f"{tree}:"
    return [item.removeprefix(prefix) for item in split_z(out)]
