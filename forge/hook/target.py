"""Which module a hook event is about: the project, the module and its plan, found once per event.

The project: ``FORGE_CWD``'s, else the nearest at or above the hook's cwd; in
a git linked worktree whose main checkout holds ``.forge/``, the main checkout
(:func:`forge.store.project.agent_project`, the rule every front end follows).

The module, first that applies:

1. ``FORGE_MODULE_ID`` (with ``FORGE_RUN_ID`` when the run has one), in the
   plan ``FORGE_PLAN`` (relative to the project root) or else the newest
   ``.forge/plans/*.json``; the module's working dir is the hook's worktree
   (its folder at the project's place), else the hook's cwd.
2. A session snapshot (``.forge/state/<runId>.json``, newest first; only
   ``FORGE_RUN_ID``'s when set) whose ``worktrees`` object maps a module id to
   a directory that is, or holds, the hook's cwd. The plan is the snapshot's
   ``planPath``, else as above; the module's working dir is that directory.

No module: the agent is not a forge worker, and its stop is not checked.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from forge.plan.model import Plan, PlanModule
    from forge.store.project import ProjectPlace

#: Largest session snapshot read (forge writes at most 1 MB).
MAX_STATE_BYTES = 2 * 1024 * 1024


class HookError(Exception):
    """forge cannot decide (bad event, unusable plan): the event is allowed, with this line."""


class ModuleRef(NamedTuple):
    """A module named for the hook's cwd, before its plan is read (found with the stdlib only)."""

    root: Path
    module_id: str
    run_id: str | None
    plan_named: str | None
    working_dir: Path


class Where(NamedTuple):
    """Where an event happened, found once per event with the standard library alone."""

    #: The event's ``cwd`` (:func:`event_cwd`).
    cwd: Path
    #: The project whose ``.forge/`` applies; ``None`` outside any forge project.
    root: Path | None
    #: The module the cwd belongs to, by name; ``None`` when the agent is no forge worker.
    ref: ModuleRef | None


class Target(NamedTuple):
    """The module a stop or an edit is about: its project, plan, run and working dir."""

    root: Path
    plan_path: Path
    plan: Plan
    module: PlanModule
    run_id: str | None
    working_dir: Path


def locate(event: dict[str, Any]) -> Where:
    """Where ``event`` happened: its working dir, its project and its module, each found once."""
    cwd = event_cwd(event)
    from forge.store.project import agent_project

    place = agent_project(cwd, os.environ.get("FORGE_CWD") or None)
    if place is None:
        return Where(cwd, None, None)
    return Where(cwd, place.root, _module_ref(place, cwd))


def event_cwd(event: dict[str, Any]) -> Path:
    """The event's ``cwd`` when it is a directory, else the process's working dir."""
    cwd = event.get("cwd")
    if isinstance(cwd, str) and cwd and "\x00" not in cwd:
        path = Path(cwd).expanduser()
        if path.is_dir():
            return path.absolute()
    return Path.cwd()


def _module_ref(place: ProjectPlace, cwd: Path) -> ModuleRef | None:
    """The module ``cwd`` (in the project at ``place``) belongs to, by name; ``None`` if none."""
    root = place.root
    module_id = os.environ.get("FORGE_MODULE_ID") or None
    run_id = os.environ.get("FORGE_RUN_ID") or None
    if module_id is not None:
        # In a worktree of the project, the module's files are the worktree's.
        return ModuleRef(
            root, module_id, run_id, None, place.working_dir if place.in_worktree else cwd
        )
    here = cwd.resolve()
    for state_run, state in _sessions(root, run_id):
        worktrees = state.get("worktrees")
        if not isinstance(worktrees, dict):
            continue
        for owner, folder in worktrees.items():
            if not isinstance(owner, str) or not isinstance(folder, str) or not folder:
                continue
            working_dir = (root / Path(folder).expanduser()).resolve()
            if here == working_dir or working_dir in here.parents:
                plan = state.get("planPath")
                return ModuleRef(
                    root, owner, state_run, plan if isinstance(plan, str) else None, working_dir
                )
    return None


def find_target(ref: ModuleRef) -> Target:
    """The module ``ref`` names, with its plan read; :class:`HookError` when the setup is broken."""
    plan_path = _plan_path(ref.root, ref.plan_named)
    return _target(ref, plan_path, _read_plan(plan_path))


def _target(ref: ModuleRef, plan_path: Path, plan: Plan | None) -> Target:
    module = next((m for m in plan.modules if m.id == ref.module_id), None) if plan else None
    if plan is None or module is None:
        raise HookError(f"plan {plan_path} has no usable module {ref.module_id[:128]!r}")
    return Target(ref.root, plan_path, plan, module, _valid_run(ref.run_id), ref.working_dir)


def edit_plan(here: Where, cwd: Path) -> tuple[Target | None, dict[str, str]]:
    """For an edit: the editor's module (``None`` when none is known) and each planned file's owner.

    The plan is the one a stop would use, read once. Each file of its modules
    is resolved against ``cwd``. An edit's check must not fail on the setup:
    any problem finding the plan or the module means none (no neighbours, no lane).
    """
    if here.root is None:
        return None, {}
    ref = here.ref
    try:
        plan_path = _plan_path(here.root, ref.plan_named if ref is not None else None)
        plan = _read_plan(plan_path)
    except Exception:  # a FORGE_PLAN of "~nobody/x" or with a NUL, as much as a bad plan
        return None, {}
    if plan is None:
        return None, {}
    from forge.paths import absolute, path_key

    owners: dict[str, str] = {}
    for module in plan.modules:
        for name in module.files:
            owners.setdefault(path_key(absolute(cwd, name)), module.id)
    target = None
    if ref is not None:
        try:
            target = _target(ref, plan_path, plan)
        except HookError:
            target = None
    return target, owners


def _valid_run(run_id: str | None) -> str | None:
    if run_id is None:
        return None
    from forge.store.ids import is_valid_run_id

    if not is_valid_run_id(run_id):
        raise HookError(f"FORGE_RUN_ID {run_id[:60]!r} is not a valid run id")
    return run_id


def _plan_path(root: Path, from_state: object) -> Path:
    """The plan: the session's ``planPath``, else ``FORGE_PLAN``, else the newest plan."""
    from forge.store.forge_dir import ForgeDir

    named = from_state if isinstance(from_state, str) and from_state else None
    found = ForgeDir(root).run_plan(None, named)
    if found is None:
        raise HookError(f"no plan: {root}/.forge/plans/ has no *.json and FORGE_PLAN is not set")
    return found


def _read_plan(plan_path: Path) -> Plan | None:
    """The plan at ``plan_path`` (``None``: no usable module); :class:`HookError` when unreadable."""
    from forge.plan.loader import PlanReadError, build_plan, read_plan_json

    try:
        return build_plan(read_plan_json(plan_path)).plan
    except PlanReadError as exc:
        raise HookError(f"plan {plan_path}: {exc}") from None


def _sessions(root: Path, run_id: str | None) -> list[tuple[str, dict[str, Any]]]:
    """Session snapshots, newest first (only ``run_id``'s when given); unreadable ones skipped.

    Read with the stdlib alone (an edit must stay cheap), never changed here.
    """
    folder = root / ".forge" / "state"
    if run_id is not None:
        # A name from the environment becomes a path: only a plain file name may.
        plain = run_id not in {".", ".."} and os.sep not in run_id and "/" not in run_id
        paths = [folder / f"{run_id}.json"] if plain else []
    else:
        try:
            paths = [path for path in folder.iterdir() if path.name.endswith(".json")]
        except OSError:
            paths = []
        paths = [path for path in paths if not path.name.startswith(".")]
        paths.sort(key=_mtime, reverse=True)
    found: list[tuple[str, dict[str, Any]]] = []
    for path in paths:
        try:
            with path.open("rb") as handle:
                state = json.loads(handle.read(MAX_STATE_BYTES + 1))
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(state, dict):
            found.append((path.name.removesuffix(".json"), state))
    return found


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
