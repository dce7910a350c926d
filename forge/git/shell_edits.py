"""What a shell command changed in a working tree: git's view kept before it, compared after.

A Write names the file it wrote; a shell command (``cat > a.py``, ``sed -i``, a
code generator) names none. So ``forge hook`` keeps a *snapshot* of the working
tree: every path ``git status`` lists (modified, staged, untracked, deleted;
ignored files and ``.forge/`` left out) with its size, modification time and
inode. It is taken before the command (``PreToolUse``), and after every shell
command forge judged; after the command, the paths whose entry differs (a file
that became dirty, one rewritten again, one reverted) are what the command
changed, and are judged as a Write would be.

Snapshots live in the project's ``.forge/cache/shell/``, one per working tree
and agent session (and one per tool call while it runs, so that calls running
side by side do not take each other's snapshot). Nothing in the repository is
written: git takes no optional lock (:mod:`forge.git.runner`). Outside git
there is no snapshot, and a shell command's edits are not judged.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
from pathlib import Path

from forge.errors import StateError
from forge.git.runner import run_git
from forge.store.json_files import peek_json
from forge.store.locks import remove
from forge.store.writes import ensure_folder, write_bytes_atomic

#: Paths a snapshot keeps at most: past that, the tree is too busy to judge this way.
MAX_ENTRIES = 20_000
#: Largest snapshot read back (20,000 entries take about 1.5 MB).
MAX_SNAPSHOT_BYTES = 4 * 1024 * 1024
#: Seconds ``git status`` may take: it runs on every shell command.
STATUS_TIMEOUT = 10.0

#: One path's state: size, modification time (ns), inode; all -1 when it is gone.
Entry = list[int]


def tree_top(cwd: Path) -> Path | None:
    """The top folder of the git working tree holding ``cwd`` (the nearest folder with a
    ``.git``, found without running git); None outside git."""
    here = cwd.resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def tree_state(top: Path) -> dict[str, Entry] | None:
    """Every path ``git status`` lists under ``top``, with its state; None when git cannot say."""
    args = [
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--no-renames",
        "--ignore-submodules=all",
        "--",
        ".",
        ":(exclude,glob)**/.forge/**",
    ]
    try:
        # Pathspec magic on: ``.forge/`` is forge's own state, never a command's edit.
        out = run_git(top, args, env={"GIT_LITERAL_PATHSPECS": "0"}, timeout=STATUS_TIMEOUT)
    except (OSError, subprocess.SubprocessError):
        return None
    # Each record is "XY path" (no rename records: --no-renames); paths from the top.
    paths = [os.fsdecode(record[3:]) for record in out.split(b"\0") if len(record) > 3]
    if len(paths) > MAX_ENTRIES:
        return None
    return {path: _entry(top / path) for path in paths}


def _entry(path: Path) -> Entry:
    try:
        info = path.lstat()
    except OSError:
        return [-1, -1, -1]
    return [info.st_size, info.st_mtime_ns, info.st_ino]


def snapshot_file(project_root: Path, top: Path, session: str, call: str | None = None) -> Path:
    """Where the snapshot of ``top`` for agent ``session`` (and tool call ``call``) is kept."""
    key = "\0".join([str(top), session, call or ""]).encode("utf-8", "surrogateescape")
    return (
        project_root / ".forge" / "cache" / "shell" / f"{hashlib.sha256(key).hexdigest()[:24]}.json"
    )


def remember(project_root: Path, cwd: Path, session: str, call: str | None = None) -> None:
    """Keep the state of ``cwd``'s working tree now (before a shell command runs)."""
    top = tree_top(cwd)
    if top is None:
        return
    state = tree_state(top)
    if state is not None:
        _save(snapshot_file(project_root, top, session, call), top, state)


def changed_files(
    project_root: Path, cwd: Path, session: str, call: str | None = None
) -> list[Path]:
    """The files a shell command just changed in ``cwd``'s working tree, existing ones only.

    Compared with the snapshot of this call (taken before it ran), else the
    session's last one; with neither, nothing is known to have changed. The
    state now becomes the session's snapshot either way.
    """
    top = tree_top(cwd)
    if top is None:
        return []
    now = tree_state(top)
    own = snapshot_file(project_root, top, session, call) if call else None
    before = _load(own, top) if own is not None else None
    last = snapshot_file(project_root, top, session)
    if before is None:
        before = _load(last, top)
    if now is not None:
        _save(last, top, now)
    if own is not None:
        _forget(own)
    if now is None or before is None:
        return []
    changed = [
        path for path in sorted(now.keys() | before.keys()) if now.get(path) != before.get(path)
    ]
    return [
        top / path for path in changed if now.get(path, [-1])[0] >= 0 and (top / path).is_file()
    ]


def _save(path: Path, top: Path, state: dict[str, Entry]) -> None:

    # Compact, by json alone: written on every shell command (pretty_json loads pydantic-core).
    text = json.dumps({"top": str(top), "entries": state}, separators=(",", ":"))
    # A snapshot is a courtesy: without one, the next command is judged by the one after.
    with contextlib.suppress(StateError, OSError, UnicodeError):
        ensure_folder(path.parent)
        write_bytes_atomic(path, text.encode("utf-8", "surrogateescape"))


def _load(path: Path, top: Path) -> dict[str, Entry] | None:

    data, _problem = peek_json(path)
    if not isinstance(data, dict) or data.get("top") != str(top):
        return None
    entries = data.get("entries")
    if not isinstance(entries, dict):
        return None
    return {
        path: entry
        for path, entry in entries.items()
        if isinstance(path, str) and isinstance(entry, list)
    }


def _forget(path: Path) -> None:

    with contextlib.suppress(StateError, OSError):
        remove(path)
