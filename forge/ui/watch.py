"""What changed under ``.forge/``: a few files and folders looked at with ``stat``, nothing read.

A page shows a run; what can change it is a handful of paths: ``status.json``,
the plan, the run's history folder (every history is replaced by a rename,
so the folder's time moves), its log, the session folder, the memory files,
and the folders where new runs appear. :class:`Watcher` compares their
``(inode, size, mtime)`` between looks and names the parts of the page to
fetch again (*topics*). Watching by ``stat`` works on every file system and
costs a few system calls a look.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from forge.state.status_file import read_status
from forge.ui.reading import list_runs, log_of, pick_run, plan_path_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from forge.store.forge_dir import ForgeDir

Topic = Literal["graph", "log", "sessions", "memory"]
Signature = tuple[int, int, int] | None


def signature(path: Path) -> Signature:
    """``(inode, size, mtime_ns)`` of ``path`` itself (a link is not followed); ``None``: absent."""
    try:
        info = path.lstat()
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


class Watcher:
    """Looks at the paths one page depends on; :meth:`changes` names what changed since last."""

    def __init__(self, forge_dir: ForgeDir, run: str | None, memory_files: Sequence[Path]) -> None:
        """``run``: the run the page pinned, or ``None`` to follow the newest one."""
        self.forge_dir = forge_dir
        self.pinned = run
        self.run: str | None = None
        self.plan: Path | None = None
        root = forge_dir.root
        # Where a new run, a new plan or a rewritten status shows first.
        self.outer: dict[Path, tuple[Topic, ...]] = {
            root: ("graph", "log", "sessions", "memory"),
            forge_dir.status: ("graph",),
            forge_dir.plans: ("graph",),
            root / "iterations": ("graph",),
            root / forge_dir.MOVED_FROM: ("graph",),
            forge_dir.logs: ("graph", "log"),
            forge_dir.sessions: ("graph", "sessions"),
            **dict.fromkeys(memory_files, ("memory",)),
        }
        self.seen: dict[Path, Signature] = {}
        self.watched: dict[Path, tuple[Topic, ...]] = {}

    def _resolve(self) -> None:
        """The run the page shows and the files of it to watch (after an outer change)."""
        forge_dir = self.forge_dir
        runs, _ = list_runs(forge_dir)
        self.run = pick_run(forge_dir, runs, self.pinned)
        self.plan = plan_path_of(forge_dir, self.run, read_status(forge_dir))
        inner: dict[Path, tuple[Topic, ...]] = {
            forge_dir.log(log_of(self.run)): ("graph", "log"),
        }
        if self.run:
            inner[forge_dir.iterations(self.run)] = ("graph",)
        if self.plan is not None:
            inner[self.plan] = ("graph",)
        self.watched = {**self.outer, **inner}

    def changes(self) -> set[Topic]:
        """The topics whose files changed since the last call (none on the first call)."""
        first = not self.seen
        outer = {path: signature(path) for path in self.outer}
        if first or any(outer[path] != self.seen.get(path) for path in outer):
            self._resolve()  # paths of another run or plan start being watched
        now = {path: outer.get(path) or signature(path) for path in self.watched}
        topics: set[Topic] = set()
        for path, seen in now.items():
            if path in self.seen and self.seen[path] != seen:
                topics.update(self.watched[path])
        self.seen = now
        return topics
