"""The module view: one module's plan entry, attempts, latest failures and verify commands.

Attempts come from the attempt history; what forge recommended after each
one, and why, from the run's ``validate`` events where they are kept (the
recommendation forge really gave), else worked out again from the history
with the same rules. The failing checks with their ``path:line:column`` and
the verify commands' exit codes and test counts come from the latest
``validate`` event (:class:`forge.state.event_log.CheckRecord`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from forge.errors import ForgeError, clip
from forge.state.event_log import MAX_LIMIT, RECORDED_MESSAGE, CheckRecord, LogEntry, query_logs
from forge.ui.graph import graph_view
from forge.ui.models import AttemptView, CheckView, CommandView, ModuleView
from forge.ui.reading import history_of, log_of, read_plan
from forge.validate.history import Attempt, assess, reason_for, recommend

if TYPE_CHECKING:
    from forge.plan.model import PlanModule
    from forge.store.forge_dir import ForgeDir

#: The module's latest events shown on its page.
MODULE_EVENTS = 30


def module_view(
    forge_dir: ForgeDir, run: str | None, module_id: str, max_attempts: int
) -> ModuleView:
    """Everything about ``module_id`` in run ``run`` (``None``: the newest run)."""
    graph = graph_view(forge_dir, run, max_attempts)
    notices = list(graph.notices)
    node = next((n for n in graph.nodes if n.id == module_id), None)
    entry = _plan_entry(forge_dir, graph.plan_path, module_id)
    history, problem = history_of(forge_dir, graph.run, module_id)
    if problem is not None:
        notices.append(problem)
    validations, events, log_notices = _events(forge_dir, graph.run, module_id)
    notices.extend(log_notices)
    latest = list(validations.values())[-1] if validations else None
    records = _records(latest.data.get("checks") if latest is not None else None)
    return ModuleView(
        run=graph.run,
        id=module_id,
        title=entry.title if entry is not None else (node.title if node else module_id),
        in_plan=entry is not None,
        objective=entry.objective if entry is not None else None,
        files=list(entry.files) if entry is not None else [],
        done_when=_done_when(entry),
        depends_on=list(entry.depends_on) if entry is not None else [],
        dependents=[dependent for dep, dependent in graph.edges if dep == module_id],
        state=node.state if node is not None else "pending",
        status=node.status if node is not None else history.last_status,
        attempts=_attempts(history.attempts, validations, max_attempts),
        failures=[
            CheckView(
                type=r.type,
                target=r.target,
                message=r.message,
                locations=r.locations,
                output=r.output,
            )
            for r in records
            if not r.passed
        ],
        failures_at=latest.timestamp if latest is not None else None,
        commands=_commands(entry, records),
        events=events,
        notices=notices,
    )


def _plan_entry(forge_dir: ForgeDir, plan_path: str | None, module_id: str) -> PlanModule | None:
    if plan_path is None:
        return None
    plan, _ = read_plan(forge_dir.project_root / plan_path)  # an absolute path stays itself
    if plan is None:
        return None
    return next((m for m in plan.modules if m.id == module_id), None)


def _done_when(entry: PlanModule | None) -> list[str]:
    if entry is None:
        return []
    return [entry.done_when] if isinstance(entry.done_when, str) else list(entry.done_when)


def _events(
    forge_dir: ForgeDir, run: str, module_id: str
) -> tuple[dict[int, LogEntry], list[LogEntry], list[str]]:
    """The module's ``validate`` events by attempt number, its latest events, and notices."""
    try:
        found = query_logs(forge_dir, run_id=log_of(run), module_id=module_id, limit=MAX_LIMIT)
    except ForgeError as exc:
        return {}, [], [str(exc)]
    validations: dict[int, LogEntry] = {}
    for event in found.entries:
        attempt = event.data.get("attempt")
        if event.event == "validate" and isinstance(attempt, int) and attempt > 0:
            # After a reset the numbers start at 1 again: the latest event of a
            # number wins, and the last one inserted is the latest validation.
            validations.pop(attempt, None)
            validations[attempt] = event
    return validations, found.entries[-MODULE_EVENTS:], found.notices


def _records(stored: Any) -> list[CheckRecord]:
    """The check records of a ``validate`` event; ones of another shape are left out."""
    records = []
    for item in stored if isinstance(stored, list) else []:
        try:
            records.append(CheckRecord.model_validate(item))
        except ValidationError:
            continue
    return records


def _attempts(
    attempts: list[Attempt], validations: dict[int, LogEntry], max_attempts: int
) -> list[AttemptView]:
    shown = []
    for index, attempt in enumerate(attempts):
        passed = attempt.passed if attempt.passed is not None else attempt.status == "passed"
        logged = validations.get(attempt.attempt)
        # An event older than its attempt was logged before a reset, for another attempt.
        if logged is not None and logged.timestamp >= attempt.timestamp:
            recommendation = logged.data.get("recommendation")
            reason = logged.data.get("reason")
        else:
            trend = assess(attempts[: index + 1])
            recommendation = recommend(passed=passed, trend=trend, max_attempts=max_attempts)
            reason = reason_for(passed=passed, trend=trend, max_attempts=max_attempts)
        shown.append(
            AttemptView(
                attempt=attempt.attempt,
                timestamp=attempt.timestamp,
                source=attempt.source,
                status=attempt.status or ("passed" if passed else "failed"),
                passed=attempt.passed,
                score=attempt.score,
                recommendation=recommendation if isinstance(recommendation, str) else None,
                reason=reason if isinstance(reason, str) and reason else None,
                failures=list(attempt.failures or attempt.issues),
            )
        )
    return shown


def _commands(entry: PlanModule | None, records: list[CheckRecord]) -> list[CommandView]:
    """The plan's verify commands (then any other command validated), each with its outcome."""
    ran = {r.command: r for r in records if r.command is not None}
    # The event keeps a command as far as RECORDED_MESSAGE characters: so are they matched.
    wanted = [clip(command, RECORDED_MESSAGE) for command in entry.verify] if entry else []
    wanted += [command for command in ran if command not in wanted]
    views = []
    for command in wanted:
        record = ran.get(command)
        views.append(
            CommandView(
                command=command,
                ran=record is not None,
                passed=record.passed if record is not None else None,
                exit_code=record.exit_code if record is not None else None,
                timed_out=record.timed_out if record is not None else False,
                duration_ms=record.duration_ms if record is not None else None,
                tests=record.tests if record is not None else None,
            )
        )
    return views
