"""What the page reads of ``.forge/``: runs, a run's plan, histories, found without moving anything.

Every reader here only looks: no lock file is created, no corrupt file moved
aside, no old history adopted into its new place. A file that cannot be read
becomes a notice and the page shows what it can.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from forge.errors import ForgeError
from forge.state.event_log import PROCESS_LOGS
from forge.state.status_file import Status, read_status
from forge.store.forge_dir import ForgeDir, valid_id, valid_run_id
from forge.store.ids import is_valid_run_id
from forge.store.safe_open import state_files, state_folders
from forge.ui.models import NO_RUN, RunInfo, RunsView
from forge.validate.history import History, read_history

if TYPE_CHECKING:
    from forge.plan.model import Plan

#: The log of validations that named no run (``forge validate`` without ``--run-id``).
NO_RUN_LOG = "cli"


class PeekingForgeDir(ForgeDir):
    """A :class:`ForgeDir` whose paths never move a file.

    :meth:`ForgeDir.iteration` moves a run-less history an earlier forge wrote
    to ``modules/`` back to the seed's place (``iterations/<moduleId>.json``)
    when first touched; a reader that must write nothing reads it where it is.
    """

    def iteration(self, module_id: str, run_id: str | None) -> Path:
        """The attempt history of a module, wherever it is now."""
        module = valid_id(module_id, "moduleId")
        if run_id is not None:
            return self.iterations(run_id) / f"{module}.json"
        path = self.root / "iterations" / f"{module}.json"
        moved = self.root / self.MOVED_FROM / f"{module}.json"
        return moved if not path.exists() and moved.is_file() else path


def run_argument(run: str | None) -> str | None:
    """The run a request asks for: ``None`` (the newest), :data:`NO_RUN`, or a valid id."""
    if run is None or run == NO_RUN:
        return run
    return valid_run_id(run, "run")


def run_id_of(run: str) -> str | None:
    """The run id forge's own readers take: ``None`` for attempts recorded without one."""
    return None if run == NO_RUN else run


def log_of(run: str) -> str:
    """The event log a run's validations went to."""
    return run or NO_RUN_LOG


def iso_time(mtime_ns: int) -> str:
    """A file time as forge writes timestamps: ISO 8601 UTC with milliseconds."""
    moment = datetime.fromtimestamp(mtime_ns / 1e9, timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def list_runs(forge_dir: ForgeDir) -> tuple[list[RunInfo], list[str]]:
    """Every run that left something (histories, a log, a session), newest first; and notices."""
    latest: dict[str, int] = {}
    notices: list[str] = []
    iterations, modules = forge_dir.root / "iterations", forge_dir.root / forge_dir.MOVED_FROM

    def log_run(name: str) -> str | None:
        run = name.removesuffix(".jsonl")
        if run == NO_RUN_LOG:
            return NO_RUN
        return None if name.startswith(PROCESS_LOGS) else run  # a server's own log is no run

    # What to list, and which run each name found there belongs to.
    listings: list[tuple[Callable[[], list[tuple[str, int]]], Callable[[str], str | None]]] = [
        (lambda: state_folders(iterations), lambda name: name),
        (lambda: state_files(iterations, ".json"), lambda _: NO_RUN),
        (lambda: state_files(modules, ".json"), lambda _: NO_RUN),  # an earlier forge's place
        (lambda: state_files(forge_dir.logs, ".jsonl"), log_run),
        (lambda: state_files(forge_dir.sessions, ".json"), lambda n: n.removesuffix(".json")),
    ]
    for listing, run_of in listings:
        try:
            found = listing()
        except ForgeError as exc:
            if str(exc) not in notices:
                notices.append(str(exc))
            continue
        for name, mtime_ns in found:
            run = run_of(name)
            # A name no run id can have (put there by hand) is not a run forge can show.
            if run is not None and (run == NO_RUN or is_valid_run_id(run)):
                latest[run] = max(latest.get(run, 0), mtime_ns)
    runs = [
        RunInfo(
            id=run,
            label=run or "no run id",
            updated_at=iso_time(mtime_ns) if mtime_ns else None,
        )
        for run, mtime_ns in latest.items()
    ]
    runs.sort(key=lambda info: (info.updated_at or "", info.id), reverse=True)
    return runs, notices


def runs_view(forge_dir: ForgeDir) -> RunsView:
    """The project and its runs, newest first."""
    runs, notices = list_runs(forge_dir)
    shown, why = default_run(forge_dir, runs)
    return RunsView(
        project=str(forge_dir.project_root),
        runs=runs,
        newest=shown if runs else None,
        chosen_because=why,
        notices=notices,
    )


#: Why the run shown by default is shown: the header says it.
LATEST_PLAN_RESULTS = "latest plan results"
NEWEST = "newest"


def pick_run(forge_dir: ForgeDir, runs: list[RunInfo], wanted: str | None) -> str:
    """The run to show: the one asked for, else :func:`default_run`'s."""
    return wanted if wanted is not None else default_run(forge_dir, runs)[0]


def default_run(forge_dir: ForgeDir, runs: list[RunInfo]) -> tuple[str, str]:
    """The run shown when none is asked for, and why: the one whose plan modules have the
    most recent attempt (a few ad-hoc ``forge validate --files`` calls since leave a
    plan run on show), else the newest (:data:`NO_RUN` when there is none)."""
    status = read_status(forge_dir)
    plans: dict[Path, frozenset[str]] = {}
    best: tuple[int, str] | None = None
    for run in runs:
        plan_path = plan_path_of(forge_dir, run.id, status)
        if plan_path is None:
            continue
        if plan_path not in plans:
            plan, _ = read_plan(plan_path)
            ids = {module.id for module in plan.modules} if plan is not None else set()
            plans[plan_path] = frozenset(ids)
        folder = (
            forge_dir.iterations(run_id_of(run.id)) if run.id else forge_dir.root / "iterations"
        )
        try:
            found = state_files(folder, ".json")
        except ForgeError:
            continue
        latest = max(
            (mtime for name, mtime in found if name.removesuffix(".json") in plans[plan_path]),
            default=None,
        )
        if latest is not None and (best is None or latest > best[0]):
            best = (latest, run.id)
    if best is not None:
        return best[1], LATEST_PLAN_RESULTS
    return (runs[0].id if runs else NO_RUN), NEWEST


def plan_path_of(forge_dir: ForgeDir, run: str, status: Status | None) -> Path | None:
    """The plan of a run: its session's ``planPath``, else the one ``status.json`` shows
    for that run, else the newest ``.forge/plans/*.json``."""
    candidates: list[object] = [forge_dir.session_state(run_id_of(run)).get("planPath")]
    if status is not None and (status.run_id or NO_RUN) == run:
        candidates.append(status.plan_path)
    for wanted in candidates:
        if isinstance(wanted, str) and wanted:
            path = Path(wanted).expanduser()
            path = path if path.is_absolute() else forge_dir.project_root / path
            if path.is_file():
                return path
    try:
        return forge_dir.newest_plan()
    except ForgeError:
        return None


def read_plan(path: Path) -> tuple[Plan | None, list[str]]:
    """The plan at ``path`` as forge's loader builds it (usable modules kept), and its problems."""
    from forge.plan.loader import PlanReadError, build_plan, read_plan_json

    try:
        raw = read_plan_json(path)
    except PlanReadError as exc:
        return None, [f"{path}: {exc}"]
    loaded = build_plan(raw)
    problems = [f"{path}: {finding.message}" for finding in loaded.findings[:5]]
    if len(loaded.findings) > 5:
        problems.append(f"{path}: and {len(loaded.findings) - 5} more problems (forge plan check)")
    return loaded.plan, problems


def history_of(forge_dir: ForgeDir, run: str, module_id: str) -> tuple[History, str | None]:
    """A module's attempt history in a run (as ``forge status`` finds it), and why it is empty
    when its file cannot be read."""
    return read_history(forge_dir, module_id, run_id_of(run))


def display_path(forge_dir: ForgeDir, path: Path) -> str:
    """``path`` relative to the project when inside it."""
    try:
        return path.relative_to(forge_dir.project_root).as_posix()
    except ValueError:
        return str(path)
