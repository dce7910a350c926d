"""The project's ``.forge/`` folder: its paths, ids validated before they touch one."""

from __future__ import annotations

import contextlib
import os
import stat
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from forge.errors import StateError, UsageError
from forge.store.ids import check_id, check_run_id
from forge.store.json_files import peek_json
from forge.store.locks import locked
from forge.store.safe_open import _open_folder, newest, state_files
from forge.store.writes import ensure_folder


def utc_now() -> str:
    """The current time as ISO 8601 UTC with milliseconds: ``2026-11-21T09:44:00.123Z``."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def valid_id(value: str, what: str) -> str:
    """Return ``value`` if it may become a file name, else raise :class:`UsageError`."""
    try:
        return check_id(value, what)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def valid_run_id(value: str, what: str = "runId") -> str:
    """Return ``value`` if it may name a run (no ``.json`` ending), else :class:`UsageError`."""
    try:
        return check_run_id(value, what)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


class ForgeDir:
    """Paths inside a project's ``.forge/`` folder; ids are validated before use.

    Attempt histories are where the seed put them (docs/architecture.md, "Files under
    .forge/"):
    ``iterations/<runId>/<moduleId>.json``, and ``iterations/<moduleId>.json``
    for calls that name no run. A run id ending in ``.json`` is refused
    (:func:`valid_run_id`), so a run's folder never takes a run-less
    history's place. Histories an earlier forge wrote to ``modules/`` are
    moved back when first touched.
    """

    SUBFOLDERS = ("plans", "iterations", "memory", "logs", "state")
    #: Where an earlier forge kept run-less histories; read only to move them back.
    MOVED_FROM = "modules"

    def __init__(self, project_root: Path) -> None:
        self.project_root = project_root
        self.root = project_root / ".forge"

    def ensure(self) -> None:
        """Create ``.forge/`` and its subfolders (0700, no link followed)."""
        for name in self.SUBFOLDERS:
            ensure_folder(self.root / name)

    @property
    def plans(self) -> Path:
        """``.forge/plans``: plans written by the planner agent."""
        return self.root / "plans"

    def newest_plan(self) -> Path | None:
        """The most recently modified ``.forge/plans/*.json``; ``None`` when there is none."""
        return newest(self.plans, ".json")

    def run_plan(self, run_id: str | None, named: str | None = None) -> Path | None:
        """The plan a run follows: ``named``, else its session's ``planPath``, else
        ``FORGE_PLAN``, else the newest plan (paths relative to the project root)."""
        if named is None:
            from_session = self.session_state(run_id).get("planPath")
            named = from_session if isinstance(from_session, str) else None
        named = named or os.environ.get("FORGE_PLAN") or None
        if named is not None:
            return self.project_root / Path(named).expanduser()
        return self.newest_plan()

    @property
    def status(self) -> Path:
        """``.forge/status.json``: live progress."""
        return self.root / "status.json"

    @property
    def project_memory(self) -> Path:
        """``.forge/memory/project.jsonl``."""
        return self.root / "memory" / "project.jsonl"

    @property
    def logs(self) -> Path:
        """``.forge/logs``: one event log per run."""
        return self.root / "logs"

    @property
    def sessions(self) -> Path:
        """``.forge/state``: one session snapshot per run."""
        return self.root / "state"

    def iterations(self, run_id: str | None) -> Path:
        """The folder of a run's attempt histories (``iterations/`` itself for no run)."""
        if run_id is None:
            return self.root / "iterations"
        return self.root / "iterations" / valid_run_id(run_id)

    def iteration(self, module_id: str, run_id: str | None) -> Path:
        """Attempt history of one module: ``iterations/<runId>/<moduleId>.json``, or
        ``iterations/<moduleId>.json`` with no run."""
        module = valid_id(module_id, "moduleId")
        if run_id is None:
            self._move_back(module)
            return self.root / "iterations" / f"{module}.json"
        return self.root / "iterations" / valid_run_id(run_id) / f"{module}.json"

    def module_ids(self, run_id: str | None) -> list[str]:
        """The modules that have an attempt history in ``run_id`` (or with no run), sorted."""
        folders = [self.iterations(run_id)]
        if run_id is None:
            folders.append(self.root / self.MOVED_FROM)
        names = {name for folder in folders for name, _ in state_files(folder, ".json")}
        return sorted(name.removesuffix(".json") for name in names)

    def _move_back(self, module: str) -> None:
        """Move ``modules/<module>.json`` (an earlier forge's place) to the seed's place, once.

        Under the history's lock, through folder descriptors (no link
        followed, a link never moved), with one atomic rename; a history
        already at the seed's place wins. Cheap when there is nothing to move:
        one failed open of ``modules/``.
        """
        name = f"{module}.json"
        old_folder = self.root / self.MOVED_FROM
        try:
            with _open_folder(old_folder, create=False) as old:
                if not stat.S_ISREG(os.stat(name, dir_fd=old, follow_symlinks=False).st_mode):
                    return  # a link or something forge did not write: left alone
            with (
                locked(self.root / "iterations" / name),
                _open_folder(old_folder, create=False) as old,
                _open_folder(self.root / "iterations", create=True) as new,
            ):
                with contextlib.suppress(FileNotFoundError):
                    os.stat(name, dir_fd=new, follow_symlinks=False)
                    return  # the seed's place already has a history: it wins
                # A process that moved it first leaves nothing to move
                # (FileNotFoundError), never a file to clobber.
                os.rename(name, name, src_dir_fd=old, dst_dir_fd=new)
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(f"{name}.lock", dir_fd=old)
            with contextlib.suppress(OSError):
                _remove_empty(old_folder)
        except (OSError, StateError):
            return  # nothing to move, or cannot now (read-only): the next touch tries again

    def stop_record(self, module_id: str, run_id: str | None) -> Path:
        """``.forge/hook/[<runId>/]<moduleId>.json``: what ``forge hook`` remembers of the
        module's last blocked (or escalated) stop."""
        folder = self.root / "hook"
        if run_id is not None:
            folder = folder / valid_run_id(run_id)
        return folder / f"{valid_id(module_id, 'moduleId')}.json"

    def log(self, run_id: str) -> Path:
        """``.forge/logs/<runId>.jsonl``."""
        return self.logs / f"{valid_run_id(run_id)}.jsonl"

    def session(self, run_id: str) -> Path:
        """``.forge/state/<runId>.json``."""
        return self.sessions / f"{valid_run_id(run_id)}.json"

    def session_state(self, run_id: str | None) -> dict[str, Any]:
        """The session snapshot of ``run_id`` as saved; ``{}`` when there is none, it cannot be
        read, or ``run_id`` is None or no valid run id. Read only: nothing locked or moved."""
        if run_id is None:
            return {}

        try:
            state, _problem = peek_json(self.session(run_id))
        except UsageError:  # not a valid run id: no session to follow
            return {}
        return state if isinstance(state, dict) else {}


def _remove_empty(folder: Path) -> None:
    """Remove ``folder`` if it holds nothing (``OSError`` otherwise): no link followed."""
    with _open_folder(folder.parent, create=False) as parent:
        os.rmdir(folder.name, dir_fd=parent)
