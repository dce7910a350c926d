"""The plan is the orchestrator's: a worker's branch that changes it, and what it changed.

:mod:`forge.plan.lanes` leaves ``.forge/`` out of every lane as forge's
own state; plans are not state. A plan under ``.forge/plans/`` (or the plan
file the validate call reads, wherever it is) that a module's working dir
changed since the base is a finding, unless the module's ``files`` or a
literal (glob-free) ``mayChange`` entry names that very file: a ``tests/**``
or ``**`` lane never reaches a plan. The finding names the fields changed,
from the two JSON texts (``modules[calc].verify``, ``objective``), so the
orchestrator sees what the worker tried to move, not only that it did.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge.git.changes import Changes
from forge.git.runner import run_git
from forge.plan.model import PlanModule, normalise_path

#: Where plans live, from the project root.
PLANS_FOLDER = ".forge/plans/"
#: Bytes of a plan read at most, on either side.
MAX_PLAN_BYTES = 4 * 1024 * 1024
#: Fields named in a finding; more are counted.
SHOWN_FIELDS = 6


@dataclass(frozen=True)
class PlanEdit:
    """A plan file a module's working dir changed: its path (from the project root), the fields."""

    path: str
    fields: tuple[str, ...]
    committed: bool

    def message(self, module_id: str) -> str:
        """One line for the worker and the orchestrator."""
        how = "committed" if self.committed else "not committed"
        shown = ", ".join(self.fields[:SHOWN_FIELDS]) or "its text"
        more = (
            f" (+{len(self.fields) - SHOWN_FIELDS} more)" if len(self.fields) > SHOWN_FIELDS else ""
        )
        return (
            f"the plan is the orchestrator's: module {module_id}'s branch changed it ({how}): "
            f"{shown}{more}; revert it (a module may change a plan only when its files or "
            "mayChange name that file)"
        )


def plan_edits(
    changes: Changes, module: PlanModule, *, prefix: str, root: Path, plan_path: Path | None
) -> list[PlanEdit]:
    """The plan files ``changes`` touch that ``module``'s lane does not name, with their fields.

    :param prefix: the project root's place in its repository (``""`` or ``sub/``).
    :param plan_path: the plan file the call reads (a session's ``planPath``), if any.
    """
    named = {normalise_path(file, root) for file in module.files}
    named.update(
        normalise_path(glob, root) for glob in module.may_change if not set(glob) & set("*?[")
    )
    plan = _project_path(plan_path, root)
    committed = set(changes.committed)
    found = []
    for repo_path in changes.files:
        if not repo_path.startswith(prefix):
            continue
        path = repo_path[len(prefix) :]
        if not (path.startswith(PLANS_FOLDER) or path == plan) or path in named:
            continue
        before = _at(changes, repo_path)
        after = _read(changes.top / repo_path)
        found.append(PlanEdit(path, changed_fields(before, after), repo_path in committed))
    return found


def changed_fields(before: bytes | None, after: bytes | None) -> tuple[str, ...]:
    """What differs between two plan texts, by field: ``modules[calc].verify``, ``(new file)``."""
    if before is None:
        return ("(new file)",)
    if after is None:
        return ("(deleted)",)
    old, new = _json(before), _json(after)
    if not isinstance(old, dict) or not isinstance(new, dict):
        return () if before == after else ("(not a JSON object)",)
    fields = [
        key
        for key in sorted(old.keys() | new.keys())
        if key != "modules" and old.get(key) != new.get(key)
    ]
    old_modules, new_modules = _modules(old), _modules(new)
    for module_id in sorted(old_modules.keys() | new_modules.keys()):
        was, now = old_modules.get(module_id), new_modules.get(module_id)
        if was is None:
            fields.append(f"modules[{module_id}] (added)")
        elif now is None:
            fields.append(f"modules[{module_id}] (removed)")
        else:
            fields.extend(
                f"modules[{module_id}].{key}"
                for key in sorted(was.keys() | now.keys())
                if was.get(key) != now.get(key)
            )
    if not fields and list(old_modules) != list(new_modules):
        fields.append("modules (order)")
    return tuple(fields)


def _modules(plan: dict[str, Any]) -> dict[str, dict[str, Any]]:
    modules = plan.get("modules")
    if not isinstance(modules, list):
        return {}
    return {
        str(item.get("id", f"#{index}")): item
        for index, item in enumerate(modules)
        if isinstance(item, dict)
    }


def _json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return None


def _project_path(plan_path: Path | None, root: Path) -> str | None:
    if plan_path is None:
        return None
    try:
        return plan_path.resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError):
        return None


def _at(changes: Changes, repo_path: str) -> bytes | None:
    """The file at the fork point, or None where it did not exist."""
    try:
        data = run_git(changes.top, ["cat-file", "blob", f"{changes.fork_point}:{repo_path}"])
    except (OSError, subprocess.SubprocessError):  # absent at the fork point: a new file
        return None
    return data[:MAX_PLAN_BYTES]


def _read(path: Path) -> bytes | None:
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with path.open("rb") as handle:
            return handle.read(MAX_PLAN_BYTES)
    except OSError:
        return None
