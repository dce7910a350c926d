"""The project's ``.forge/`` folder: its paths, ids validated before they touch one."""

from __future__ import annotations

import contextlib
import os
import stat
from datetime import datetime, timezone
from pathlib import Path

from forge.errors import StateError, UsageError
from forge.store.ids import check_id
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


class ForgeDir:
    """Paths inside a project's ``.forge/`` folder; ids are validated before use.

    Attempt histories keep runs and run-less modules apart on disk:
    ``iterations/<runId>/<moduleId>.json`` (folders only) and
    ``modules/<moduleId>.json``, so no runId can collide with a moduleId
    (``runId: "x.json"`` against module ``x``). A run-less history at the old
    place, ``iterations/<moduleId>.json``, is moved over when first touched.
    """

    SUBFOLDERS = ("plans", "iterations", "modules", "memory", "logs", "state")

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
        if named is None and run_id is not None:
            from forge.store.json_files import peek_json

            try:
                state, _problem = peek_json(self.session(run_id))
            except UsageError:  # not a valid run id: no session to follow
                state = None
            if isinstance(state, dict) and isinstance(state.get("planPath"), str):
                named = state["planPath"] or None
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
        """The folder of a run's attempt histories (``modules/`` for calls that name no run)."""
        if run_id is None:
            return self.root / "modules"
        return self.root / "iterations" / valid_id(run_id, "runId")

    def iteration(self, module_id: str, run_id: str | None) -> Path:
        """Attempt history of one module: ``iterations/<runId>/`` or, with no run, ``modules/``."""
        module = valid_id(module_id, "moduleId")
        if run_id is None:
            self._adopt_legacy(module)
            return self.root / "modules" / f"{module}.json"
        run = valid_id(run_id, "runId")
        if run.endswith(".json"):
            # An old run-less history of that name stands where the run's folder goes.
            self._adopt_legacy(run.removesuffix(".json"))
        return self.root / "iterations" / run / f"{module}.json"

    def module_ids(self, run_id: str | None) -> list[str]:
        """The modules that have an attempt history in ``run_id`` (or with no run), sorted."""
        if run_id is not None:
            folders = [self.root / "iterations" / valid_id(run_id, "runId")]
        else:
            folders = [self.root / "modules", self.root / "iterations"]
        names = {name for folder in folders for name, _ in state_files(folder, ".json")}
        return sorted(name.removesuffix(".json") for name in names)

    def _adopt_legacy(self, module: str) -> None:
        """Move ``iterations/<module>.json`` (the old run-less place) to ``modules/``, once."""
        name = f"{module}.json"
        try:
            with _open_folder(self.root / "iterations", create=False) as old:
                if not stat.S_ISREG(os.stat(name, dir_fd=old, follow_symlinks=False).st_mode):
                    return  # a run's folder, or something forge did not write
                with _open_folder(self.root / "modules", create=True) as new:
                    with contextlib.suppress(FileNotFoundError):
                        os.stat(name, dir_fd=new, follow_symlinks=False)
                        return  # already there: the new place wins
                    # Two processes may both get here: the second rename finds
                    # nothing to move (FileNotFoundError), never a file to clobber.
                    os.rename(name, name, src_dir_fd=old, dst_dir_fd=new)
        except (OSError, StateError):
            return  # nothing to adopt, or cannot now (read-only): the next write tries again

    def log(self, run_id: str) -> Path:
        """``.forge/logs/<runId>.jsonl``."""
        return self.logs / f"{valid_id(run_id, 'runId')}.jsonl"

    def session(self, run_id: str) -> Path:
        """``.forge/state/<runId>.json``."""
        return self.sessions / f"{valid_id(run_id, 'runId')}.json"
