"""Live progress: ``.forge/status.json``, rewritten atomically after every tool call.

The file answers "how far along is this run?" for status lines and ``forge
status`` without asking the server: the plan's objective and modules, each
module's state (from its attempt history, else the session snapshot's
``moduleStatuses``, else pending), attempts and last score, and the counts.

Which run: the one the latest call named, else the newest session snapshot's.
Which plan: that snapshot's ``planPath``, else the newest ``.forge/plans/*.json``.
Plans are read tolerantly here (a plan that does not parse still shows its
progress as far as it can); judging plans is ``validate_plan``'s job.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field

from forge.models import WireModel
from forge.state.status_lines import (
    ModuleState,
    ModuleStatus,
    module_ids,
    module_line,
    shown_plan,
    snapshot_statuses,
)
from forge.store.forge_dir import ForgeDir, utc_now
from forge.store.ids import is_valid_run_id
from forge.store.json_files import peek_model
from forge.store.locks import locked
from forge.store.safe_open import newest
from forge.store.writes import write_bytes_atomic


class StatusCounts(WireModel):
    """How many modules are in each state."""

    total: int
    done: int
    running: int
    failed: int
    pending: int
    skipped: int = Field(
        default=0, description="Modules a plan run skipped: a dependency did not pass."
    )


class Status(WireModel):
    """The content of ``.forge/status.json``."""

    updated_at: str
    started_at: str | None = Field(description="When the process writing this file started.")
    run_id: str | None
    plan_path: str | None
    objective: str | None
    current_phase: str | None
    last_tool: str | None = Field(description="The tool call after which this was written.")
    counts: StatusCounts
    modules: list[ModuleStatus]


def build_status(
    forge_dir: ForgeDir,
    *,
    run_id: str | None = None,
    started_at: str | None = None,
    last_tool: str | None = None,
    plan_path: Path | None = None,
    skipped: Collection[str] = (),
) -> Status:
    """Assemble the status of ``run_id`` (default: the newest session snapshot's run).

    :param plan_path: the plan being run (``forge validate --plan``): it is
        shown instead of the snapshot's, and ``run_id`` ``None`` then means no
        run rather than the newest snapshot's.
    :param skipped: modules the run did not validate because a dependency failed.
    """
    if run_id is None and plan_path is None:
        run_id = _newest_run(forge_dir)
    session = forge_dir.session_state(run_id)
    plan_shown, plan = shown_plan(
        forge_dir, str(plan_path) if plan_path is not None else session.get("planPath")
    )
    reported = snapshot_statuses(session)
    # One listing of the run's histories, not one open per module of a large plan.
    listable = run_id is None or is_valid_run_id(run_id)
    recorded = set(forge_dir.module_ids(run_id)) if listable else None
    modules = [
        module_line(
            forge_dir,
            run_id,
            module_id,
            title,
            "skipped" if module_id in skipped else reported.get(module_id),
            skipped=module_id in skipped,
            recorded=recorded is None or module_id in recorded,
        )
        for module_id, title in module_ids(forge_dir, run_id, plan)
    ]
    objective = plan.get("objective")
    phase = session.get("currentPhase")
    return Status(
        updated_at=utc_now(),
        started_at=started_at,
        run_id=run_id,
        plan_path=plan_shown,
        objective=objective if isinstance(objective, str) else None,
        current_phase=phase if isinstance(phase, str) else None,
        last_tool=last_tool,
        counts=_counts(modules),
        modules=modules,
    )


_STATES: tuple[ModuleState, ...] = ("done", "running", "failed", "pending", "skipped")


def _newest_run(forge_dir: ForgeDir) -> str | None:
    """The run of the newest session snapshot: the one a status that names no run shows."""
    latest = newest(forge_dir.sessions, ".json")
    return latest.name.removesuffix(".json") if latest is not None else None


def _counts(modules: list[ModuleStatus]) -> StatusCounts:
    """How many of ``modules`` are in each state."""
    found = Counter(m.state for m in modules)
    return StatusCounts(total=len(modules), **{state: found[state] for state in _STATES})


def read_status(forge_dir: ForgeDir) -> Status | None:
    """``.forge/status.json`` as a model; ``None`` when missing, corrupt or of another shape.

    Only reads: a corrupt file stays where it is until the next writer moves it aside.
    """
    return peek_model(forge_dir.status, Status)


def write_status(forge_dir: ForgeDir, status: Status) -> None:
    """Replace ``.forge/status.json`` atomically.

    Serialised by pydantic's own JSON writer: the standard library's indented
    encoder is pure Python, and a 1,000-module status is written after every call.
    """
    data = _serialised(status)
    # Rewritten after every call and rebuilt from the histories when lost: an
    # fsync (milliseconds each) would be most of a read-only call's cost.
    write_bytes_atomic(forge_dir.status, data, durable=False)
    _remember(forge_dir.status, status)


#: The indented JSON of the module lines written last, by line object. A patch
#: copies only the line it changes and a stamp none: the other lines are the
#: very objects written before (nearly all of the file, milliseconds to
#: serialise at 1,000 modules). Cache rule: the models are frozen, so one object
#: always serialises to the same bytes; only the last status's lines are kept.
_lines: dict[int, tuple[ModuleStatus, bytes]] = {}


def _serialised(status: Status) -> bytes:
    """``status`` as ``model_dump_json(by_alias=True, indent=2)`` writes it, and a newline."""
    head = status.model_copy(update={"modules": []}).model_dump_json(by_alias=True, indent=2)
    data = head.encode("utf-8")
    if not status.modules:
        return data + b"\n"
    known, lines, chunks = _lines, {}, []
    for module in status.modules:
        hit = known.get(id(module))
        if hit is not None and hit[0] is module:
            chunk = hit[1]
        else:  # a line of the list, indented two levels deeper
            own = module.model_dump_json(by_alias=True, indent=2).encode("utf-8")
            chunk = b"    " + own.replace(b"\n", b"\n    ")
        lines[id(module)] = (module, chunk)
        chunks.append(chunk)
    known.clear()
    known.update(lines)
    # ``modules`` is the last field: the head ends in its empty list, ``[]\n}``.
    return data[:-4] + b"[\n" + b",\n".join(chunks) + b"\n  ]\n}\n"


#: The status this process last wrote or read, with the file's identity then: a
#: call that finds the file as it left it need not read and validate it again
#: (rule: the identity, inode, size and mtime, is unchanged).
_last: dict[Path, tuple[tuple[int, int, int], Status]] = {}


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _remember(path: Path, status: Status) -> None:
    signature = _signature(path)
    if signature is not None:
        _last[path] = (signature, status)


def _stored_status(path: Path) -> Status | None:
    """The status on disk, from memory when this process wrote (or read) exactly that file."""
    signature = _signature(path)
    known = _last.get(path)
    if signature is not None and known is not None and known[0] == signature:
        return known[1]
    current = peek_model(path, Status)
    if current is None:
        return None
    _remember(path, current)
    return current


def refresh_status(
    forge_dir: ForgeDir,
    *,
    run_id: str | None = None,
    started_at: str | None = None,
    last_tool: str | None = None,
    change: StatusChange = "rebuild",
    plan_path: Path | None = None,
    skipped: Collection[str] = (),
) -> Status:
    """Write the status after a call, under the file's lock, so the last writer is the newest.

    ``change`` says what the call changed. ``"rebuild"`` reads the session, the
    plan and every module's history again. ``None`` (the call changed no
    progress: memory, logs, a read) only stamps the time and the tool;
    ``"plan"`` (``validate_plan``: the planner may just have written its plan)
    stamps too unless a plan file changed since the status was written; a
    :class:`ModuleStatus` (from the validate report just built) replaces that
    module's line, and :class:`HistoryChanged` reads that module's line again.
    They fall back to a rebuild when the file on disk is not this run's
    status, or does not list the module. ``plan_path`` and
    ``skipped`` are :func:`build_status`'s, for a rebuild.
    """
    with locked(forge_dir.status):
        status = None if change == "rebuild" else _patched(forge_dir, run_id, change)
        if status is None:
            status = build_status(
                forge_dir, run_id=run_id, last_tool=last_tool, plan_path=plan_path, skipped=skipped
            )
        status = status.model_copy(
            update={"updated_at": utc_now(), "started_at": started_at, "last_tool": last_tool}
        )
        write_status(forge_dir, status)
    return status


@dataclass(frozen=True)
class HistoryChanged:
    """A call rewrote ``module_id``'s attempt history (an update, a reset): its line is read again."""

    module_id: str


#: What a call changed, for :func:`refresh_status`.
StatusChange = Literal["rebuild", "plan"] | ModuleStatus | HistoryChanged | None


def _patched(
    forge_dir: ForgeDir,
    run_id: str | None,
    module: ModuleStatus | HistoryChanged | Literal["plan"] | None,
) -> Status | None:
    """The status on disk with ``module``'s line replaced; ``None`` when it cannot be patched.

    A call that names no run is patched against the run a rebuild would show: the
    newest snapshot's, whose lines a run-less history may stand in for (so a
    module's change rebuilds them), else none, whose lines are the run-less histories.
    """
    if run_id is None:
        run_id = _newest_run(forge_dir)
        if run_id is not None and module is not None and module != "plan":
            return None
    current = _stored_status(forge_dir.status)
    if current is None or current.run_id != run_id:
        return None
    if module is None:
        return current
    if module == "plan":
        if current.plan_path is None:  # a rebuild would show a plan only if one exists now
            return current if newest(forge_dir.plans, ".json") is None else None
        return current if _plan_unchanged(forge_dir, current) else None
    titles = {m.id: m.title for m in current.modules}
    module_id = module.module_id if isinstance(module, HistoryChanged) else module.id
    if module_id not in titles:
        # A module outside the plan the status lists: a rebuild would not list
        # it either, unless the plan changed since the status was written.
        return current if _plan_unchanged(forge_dir, current) else None
    if isinstance(module, HistoryChanged):
        # Read back as a rebuild reads it: this module's history alone.
        reported = snapshot_statuses(forge_dir.session_state(run_id)).get(module_id)
        line = module_line(forge_dir, run_id, module_id, titles[module_id], reported)
    else:
        line = module.model_copy(update={"title": titles[module_id]})
    modules = [line if m.id == module_id else m for m in current.modules]
    return current.model_copy(update={"modules": modules, "counts": _counts(modules)})


def _plan_unchanged(forge_dir: ForgeDir, current: Status) -> bool:
    """True when ``current`` lists a plan's modules and that plan is older than the status.

    Older strictly: a plan written in the same tick of the file system's clock
    as the status may be the newer one.
    """
    if current.plan_path is None:
        return False
    plan = Path(current.plan_path)
    plan = plan if plan.is_absolute() else forge_dir.project_root / plan
    written, listed = _signature(forge_dir.status), _signature(plan)
    if written is None or listed is None or listed[2] >= written[2]:
        return False
    latest = newest(forge_dir.plans, ".json")  # a newer plan would take over on a rebuild
    changed = _signature(latest) if latest is not None else None
    return changed is None or changed[2] < written[2]
