"""The plan module a ``validate`` call is about, in the plan its run follows.

The plan of a run is the first that applies (:meth:`forge.store.ForgeDir.run_plan`):
the ``planPath`` of the run's session snapshot (``.forge/state/<runId>.json``),
``FORGE_PLAN`` (relative to the project root), the newest
``.forge/plans/*.json``. A module is the
plan's module of that id; a plan that cannot be read, or has no such module,
means no module (nothing to enforce, never an error).

Plans are read at most once per (path, size, modification time) in a process:
the MCP server asks for each validate call.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from forge.plan.loader import PlanReadError, build_plan, read_plan_json
from forge.plan.model import Plan, PlanModule
from forge.store.forge_dir import ForgeDir


@dataclass(frozen=True)
class PlanModuleRef:
    """A plan module with what enforcing it needs: its plan and the project it is relative to."""

    plan: Plan
    module: PlanModule
    #: The plan file (None for a plan given inline).
    path: Path | None
    #: The project root the plan's paths are relative to.
    root: Path


_cache: dict[tuple[str, int, int], Plan | None] = {}
_lock = threading.Lock()


def read_plan(path: Path) -> Plan | None:
    """The plan at ``path`` as the loader builds it (usable modules only); None when unreadable."""
    try:
        status = path.stat()
    except OSError:
        return None
    key = (str(path), status.st_size, status.st_mtime_ns)
    with _lock:
        if key in _cache:
            return _cache[key]
    try:
        plan = build_plan(read_plan_json(path)).plan
    except PlanReadError:
        plan = None
    with _lock:
        if len(_cache) > 64:
            _cache.clear()
        _cache[key] = plan
    return plan


def read_followed_plan(root: Path) -> None:
    """Read the plan a call naming no run follows (:meth:`ForgeDir.run_plan`) into the cache.

    forge daemon does, before it forks a session's child: each child finds the plan
    there, in pages it shares with its siblings, instead of reading it on its first
    validate and holding a copy of its own (3 MiB at 1,000 modules).
    """
    path = ForgeDir(root).run_plan(None)
    if path is not None:
        read_plan(path)


def module_in(plan: Plan | None, module_id: str) -> PlanModule | None:
    """The first module of ``plan`` with id ``module_id``."""
    if plan is None:
        return None
    return next((module for module in plan.modules if module.id == module_id), None)


def find_plan_module(root: Path, module_id: str, run_id: str | None) -> PlanModuleRef | None:
    """The module ``module_id`` of run ``run_id``'s plan, or None."""
    path = ForgeDir(root).run_plan(run_id)
    if path is None:
        return None
    plan = read_plan(path)
    module = module_in(plan, module_id)
    if plan is None or module is None:
        return None
    return PlanModuleRef(plan=plan, module=module, path=path, root=root)
