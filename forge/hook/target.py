"""Which module a hook event is about, and what forge remembers between its stops.

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

Between stops, ``.forge/hook/[<runId>/]<moduleId>.json`` keeps the fingerprint
of the module's files when forge last blocked, so that a stop repeated with
nothing changed is let through instead of looping.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from forge.plan.model import Plan, PlanModule
    from forge.store.project import ProjectPlace

#: Longest a git command may take while fingerprinting (it is a courtesy).
GIT_TIMEOUT_SECONDS = 20.0
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
    except HookError:
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


# --- between stops ---------------------------------------------------------------------


def _block_file(target: Target) -> Path:
    from forge.store.forge_dir import ForgeDir

    return ForgeDir(target.root).stop_record(target.module.id, target.run_id)


def last_block(target: Target) -> dict[str, Any] | None:
    """What forge recorded when it last blocked this module's stop, if it did."""
    from forge.store.json_files import peek_json

    state, _problem = peek_json(_block_file(target))
    return state if isinstance(state, dict) else None


def remember_block(target: Target, summary: str, *, escalated: bool = False) -> None:
    """Record a block (or an escalation): the files' fingerprint now (after the verify
    commands ran) and why."""
    from forge.store.forge_dir import utc_now
    from forge.store.json_files import write_json

    write_json(
        _block_file(target),
        {
            "fingerprint": fingerprint(target),
            "summary": summary,
            "blockedAt": utc_now(),
            "escalated": escalated,
        },
    )


def forget_block(target: Target) -> None:
    """The module passed: the next stop starts afresh."""
    _block_file(target).unlink(missing_ok=True)


def fingerprint(target: Target) -> str:
    """A digest of the module's state: its listed files, and the git state of its working dir.

    Equal digests mean the agent changed nothing forge can see: no listed file,
    no tracked file, no untracked file's size or time.
    """
    import hashlib

    digest = hashlib.sha256()
    for name in sorted(target.module.files):
        path = Path(name).expanduser()
        path = path if path.is_absolute() else target.working_dir / path
        digest.update(name.encode("utf-8", "replace") + b"\0")
        try:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError as exc:
            digest.update(f"unreadable {exc.errno}".encode())
    # forge's own state changes on every stop: it is not the agent's work.
    outside_forge = ["--", ".", ":(exclude,glob)**/.forge/**"]
    digest.update(_git(target.working_dir, ["rev-parse", "HEAD"]) + b"\0")
    digest.update(
        _git(target.working_dir, ["diff", "--no-ext-diff", "--binary", "HEAD", *outside_forge])
    )
    untracked = _git(
        target.working_dir, ["ls-files", "--others", "--exclude-standard", "-z", *outside_forge]
    )
    for entry in sorted(untracked.split(b"\0")):
        if entry:
            digest.update(entry + b"\0" + _stat_key(target.working_dir / os.fsdecode(entry)))
    return digest.hexdigest()


def _git(cwd: Path, args: list[str]) -> bytes:
    """``git args`` output in ``cwd``; empty when git or the repository is not there."""
    import subprocess

    from forge.git.runner import run_git

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
