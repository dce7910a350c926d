"""Whether a file will reach the merge: ignored by git, or not committed yet.

What merges is the branch's commits. A file git ignores is never part of
them, whatever ``git add -A`` a worker runs: a stock Python ``.gitignore``
(``lib/``) matches ``shop/lib/money.py``. A file the worker has not committed
yet may still be (it is a finding to show, not a failure). Read with ``git
check-ignore`` and ``git ls-tree``: nothing is written.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from forge.git.runner import git_text, run_git, split_z


@dataclass(frozen=True)
class IgnoreRule:
    """The ``.gitignore`` (or exclude file) line that makes git ignore a file."""

    #: The file the rule is in, as git names it (relative to the repository top, or absolute).
    source: str
    line: int
    pattern: str

    def describe(self) -> str:
        """``.gitignore:3: lib/``."""
        return f"{self.source}:{self.line}: {self.pattern}"


def repository_top(cwd: Path) -> Path | None:
    """The top-level folder of the checkout holding ``cwd``; None outside git."""
    top = git_text(cwd, "rev-parse", "--show-toplevel")
    return Path(top) if top else None


def _relative(top: Path, paths: Sequence[Path]) -> dict[str, Path]:
    found = {}
    for path in paths:
        try:
            found[
                PurePosixPath((path.parent.resolve() / path.name).relative_to(top)).as_posix()
            ] = path
        except (ValueError, OSError):
            continue  # outside the repository: not git's to merge
    return found


def ignored(top: Path, paths: Sequence[Path]) -> dict[Path, IgnoreRule]:
    """The rule git ignores each of ``paths`` by (tracked files are never ignored)."""
    wanted = _relative(top, paths)
    if not wanted:
        return {}
    try:
        out = run_git(
            top,
            ["check-ignore", "-v", "-z", "--stdin"],
            b"".join(name.encode("utf-8", "surrogateescape") + b"\0" for name in wanted),
            ok_codes=(0, 1),  # 1: none is ignored
            # check-ignore refuses pathspec magic, the literal one included; it reads
            # each line as one path anyway.
            env={"GIT_LITERAL_PATHSPECS": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    fields = split_z(out)
    rules: dict[Path, IgnoreRule] = {}
    for index in range(0, len(fields) - 3, 4):
        source, line, pattern, name = fields[index : index + 4]
        if name in wanted and line.isdigit():
            rules[wanted[name]] = IgnoreRule(source, int(line), pattern)
    return rules


def not_committed(top: Path, paths: Sequence[Path]) -> dict[Path, str]:
    """Why each of ``paths`` (existing files) is not in ``HEAD`` as it is on disk.

    ``"not committed"`` when ``HEAD`` lacks the file, ``"changed since the last
    commit"`` when its content differs. Files outside the repository are left out.
    """
    wanted = _relative(top, paths)
    if not wanted:
        return {}
    try:
        listing = run_git(top, ["ls-tree", "-z", "--full-tree", "HEAD", "--", *wanted])
        names = list(wanted)
        hashed = run_git(top, ["hash-object", "--", *names]).split()
    except (OSError, subprocess.SubprocessError):
        return {}  # no commit yet, or git failed: nothing forge can say
    committed = {}
    for entry in split_z(listing):
        meta, _, name = entry.partition("\t")
        parts = meta.split()
        if len(parts) == 3:
            committed[name] = parts[2]
    found = {}
    for name, blob in zip(names, hashed, strict=False):
        if name not in committed:
            found[wanted[name]] = "not committed"
        elif committed[name] != blob.decode("ascii", "replace"):
            found[wanted[name]] = "changed since the last commit"
    return found
