"""The tools as plain Python: what the MCP server exposes and the CLI reuses.

:class:`ToolService` is one project's long-lived service: its engine (with its
caches), its memory index, and the run id of the process for events that
belong to no named run. Each tool is the method of its name; it takes the
tool's request model (:mod:`forge.service.arguments`), returns a pydantic model
and raises :class:`forge.errors.ForgeError` subclasses for bad input, so an
adapter only translates. The per-call bookkeeping both adapters share (the
``tool_call`` event, error events, ``status.json``) is here too. No MCP here.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge.errors import StateError, UsageError, clip
from forge.models import ValidateRequest
from forge.service.bookkeeping import module_of_call, progress_change, writes_to_run
from forge.state.event_log import (
    LogQueryResult,
    Phase,
    check_records,
    log_event,
    new_run_id,
    query_logs,
    run_of,
    summarize_arguments,
)
from forge.state.stop_blocks import forget_block
from forge.store.forge_dir import utc_now, valid_run_id
from forge.store.home import global_memory_file
from forge.validate.outcome import ValidateReport
from forge.validate.run import Engine
from forge.validate.verdict import counts_as_failure
from forge.workspace import ProgressCallback

if TYPE_CHECKING:
    # Each tool imports what it runs when called; tool_hints() resolves these for MCP.
    from forge.memory import Memory, MemoryRecallResult, MemorySaveResult
    from forge.parallel.models import MergeCheckReport
    from forge.plan.check import PlanReport
    from forge.plan.locate import PlanModuleRef
    from forge.service.arguments import (
        ForgeLogsRequest,
        IterationStateRequest,
        MemoryRecallRequest,
        MemorySaveRequest,
        MergeCheckRequest,
        SessionStateRequest,
        ValidatePlanRequest,
    )
    from forge.service.replies import IterationStateResult, SessionStateResult

logger = logging.getLogger("forge.tools")

#: Failure keys shown in a validate event; the full list is in the report.
EVENT_FAILURES = 20


class ToolService:
    """One project's tools (the reference's seven, and forge's merge_check), each the method of
    its name, and their bookkeeping."""

    def __init__(
        self,
        engine: Engine,
        *,
        run_id: str | None = None,
        active_run: str | None = None,
        create: bool = True,
    ) -> None:
        """``create``: make ``.forge/`` now (a server), else at the first write (a command)."""
        self.engine = engine
        self.forge_dir = engine.forge_dir
        if create:
            self._lay_out()
        self._memory: Memory | None = None
        #: Where events of calls that name no run go.
        self.run_id = valid_run_id(run_id) if run_id else new_run_id()
        self.started_at = utc_now()
        #: The run the latest call named: the one status.json follows.
        self.active_run = active_run
        self._lock = threading.Lock()

    def _lay_out(self) -> None:
        """Make ``.forge/``; an unwritable project still answers, each write saying why not."""
        try:
            self.forge_dir.ensure()
        except StateError as exc:
            logger.info("%s", exc)

    @classmethod
    def for_project(
        cls, root: Path | None = None, *, run_id: str | None = None, active_run: str | None = None
    ) -> ToolService:
        """The service for ``root`` (default: ``FORGE_CWD`` or the working dir), plugins loaded.

        :param run_id: where events of calls that name no run go (default: a new run id).
        :param active_run: the run ``status.json`` follows until a call names another.
        """
        return cls(Engine.for_project(root), run_id=run_id, active_run=active_run)

    @property
    def root(self) -> Path:
        """The project root."""
        return self.engine.root

    @property
    def memory(self) -> Memory:
        """Project and global memory, opened by the first memory tool call (then kept)."""
        with self._lock:
            if self._memory is None:
                from forge.memory import Memory  # deferred: a tool imports what it runs

                self._memory = Memory(self.forge_dir.project_memory, global_memory_file())
            return self._memory

    # --- per-call bookkeeping, shared by both adapters -----------------------------

    def log(self, run_id: str | None, *, phase: Phase, event: str, **details: Any) -> None:
        """Append an event to ``run_id``'s log, else to this process's own run log.

        ``details``: ``module_id``, ``severity`` and ``data``, as :func:`log_event` takes them.
        """
        log_event(self.forge_dir, run_id or self.run_id, phase=phase, event=event, **details)

    def run_of_call(self, tool: str, arguments: dict[str, Any]) -> str | None:
        """The run a call's events go to: the ``runId`` it names, unless that is a mistake.

        A call that writes to a run (validate, an iteration update or reset, a
        session save) starts the run it names. A read-only call naming a run that
        does not exist (a typo) must not create it: its events go to this
        process's own log, and ``status.json`` keeps following the real run.
        """
        run_id = run_of(arguments)
        if run_id is None or writes_to_run(tool, arguments) or self.run_exists(run_id):
            return run_id
        return None

    def run_exists(self, run_id: str) -> bool:
        """Whether ``run_id`` has left anything: a log, attempt histories or a session snapshot."""
        forge_dir = self.forge_dir
        return (
            forge_dir.log(run_id).is_file()
            or forge_dir.iterations(run_id).is_dir()
            or forge_dir.session(run_id).is_file()
        )

    def call_started(self, tool: str, arguments: dict[str, Any]) -> str | None:
        """The ``tool_call`` event every MCP call appends (arguments summarised).

        Returns the run the call's events go to (:meth:`run_of_call`); pass it
        to :meth:`call_failed`.
        """
        run_id = self.run_of_call(tool, arguments)
        if run_id is not None:
            with self._lock:
                self.active_run = run_id
        self.log(
            run_id,
            phase="tool_call",
            event=tool,
            module_id=module_of_call(arguments),
            data={"args": summarize_arguments(arguments)},
        )
        return run_id

    def call_failed(
        self, tool: str, message: str, run_id: str | None, module_id: str | None = None
    ) -> None:
        """A ``<tool>_error`` event for a call that ended in an error result, then the status."""
        self.log(
            run_id,
            phase="tool_call",
            event=f"{tool}_error",
            module_id=module_id,
            severity="error",
            data={"error": clip(message, 500)},
        )
        self.call_finished(tool, None)

    def call_finished(self, tool: str, result: object) -> None:
        """Rewrite ``.forge/status.json`` from what the call just returned.

        A validate report patches its module's line, an iteration update or
        reset reads that module's line again; a call that changed no progress
        (memory, logs, reads, a plan check of an unchanged plan) only stamps
        the status; the rest (a session save) rebuild it. Status is a
        courtesy: a failure here is logged, never raised.
        """
        # deferred: status.json follows named runs only; a run-less validate never writes it
        from forge.state.status_file import refresh_status

        try:
            refresh_status(
                self.forge_dir,
                run_id=self.active_run,
                started_at=self.started_at,
                last_tool=tool,
                change=progress_change(tool, result),
            )
        except Exception:
            logger.warning("could not rewrite .forge/status.json", exc_info=True)

    # --- the tools -------------------------------------------------------------------

    def validate(
        self,
        request: ValidateRequest,
        progress: ProgressCallback | None = None,
        *,
        plan: PlanModuleRef | None = None,
    ) -> ValidateReport:
        """Run the engine's checks and record the attempt; logs a ``validate`` event.

        A validate that did not pass is an error-severity event naming its module,
        so ``forge_logs {"severity": "error"}`` finds every failed attempt. The
        event keeps the failing checks with their locations and the verify
        commands' outcomes (``checks``): what ``forge ui`` shows of an attempt.

        :param plan: the plan module validated, when the caller knows it
            (``forge validate --plan``); default: the module of that id in the run's plan.
        """
        report = self.engine.validate(request, progress, plan=plan)
        if not self.engine.can_judge(request):
            return report  # nothing was judged: no attempt (the engine's rule), no event
        self._lay_out()
        failures = [r.failure_key for r in report.results if counts_as_failure(r)]
        self.log(
            request.run_id,
            phase="validation",
            event="validate",
            module_id=request.module_id,
            severity="info" if report.passed else "error",
            data={
                "passed": report.passed,
                "score": report.score,
                "attempt": report.attempt,
                "recommendation": report.recommendation,
                "stagnant": report.stagnant,
                "failures": failures[:EVENT_FAILURES],
                "failureCount": len(failures),
                "reason": report.reason,
                "checks": [record.to_wire() for record in check_records(report.results)],
            },
        )
        return report

    def validate_plan(self, request: ValidatePlanRequest) -> PlanReport:
        """Check a plan file (default: the newest ``.forge/plans/*.json``) or an inline plan."""
        from forge.plan.check import check_plan  # deferred: a tool imports what it runs

        if request.plan_path is not None and request.plan is not None:
            raise UsageError("give planPath or plan, not both")
        report = check_plan(
            plan_path=request.plan_path,
            plan=request.plan,
            project_root=self.root,
            plugins=self.engine.plugins,
        )
        self.log(
            None,
            phase="plan_validation",
            event="validate_plan",
            severity="info" if report.valid else "warn",
            data={
                "valid": report.valid,
                "planPath": report.plan_path,
                "errorCount": len(report.errors),
                "warningCount": len(report.warnings),
            },
        )
        return report

    def memory_save(self, request: MemorySaveRequest) -> MemorySaveResult:
        """Save a pattern to project or global memory (skipped when already there)."""
        result = self.memory.save(
            pattern=request.pattern,
            category=request.category,
            confidence=request.confidence,
            scope=request.scope,
            tags=request.tags,
        )
        self.log(
            None,
            phase="memory",
            event="memory_save",
            data={
                "scope": request.scope,
                "category": request.category,
                "saved": result.saved,
                "id": result.id,
            },
        )
        return result

    def memory_recall(self, request: MemoryRecallRequest) -> MemoryRecallResult:
        """The memories most relevant to the query."""
        return self.memory.recall(
            request.query, scope=request.scope, limit=request.limit, category=request.category
        )

    def iteration_state(self, request: IterationStateRequest) -> IterationStateResult:
        """get / update / reset the attempt history of (runId, moduleId)."""
        # deferred: a tool imports what it runs
        from forge.service.replies import IterationStateResult
        from forge.validate.iteration import read_state, reset_state, update_state

        module_id, run_id = request.module_id, request.run_id
        path = self.forge_dir.iteration(module_id, run_id)
        if request.action == "get":
            return IterationStateResult(read_state(path, module_id=module_id, run_id=run_id))
        if request.action == "reset":
            reset = reset_state(path, module_id=module_id, run_id=run_id)
            # The stop hook's memory of an escalation goes too: a reset module is tried again.
            forget_block(self.forge_dir, module_id, run_id)
            self.log(run_id, phase="retry", event="iteration_reset", module_id=module_id)
            return IterationStateResult(reset)
        update = request.update
        if update is None:
            raise UsageError(
                'action "update" needs the update object, e.g. '
                '{"status": "failed", "issues": ["command:npm test"], "score": 0.5}'
            )
        updated = update_state(path, module_id=module_id, run_id=run_id, update=update)
        self.log(
            run_id,
            phase="retry",
            event="iteration_update",
            module_id=module_id,
            severity="warn" if updated.stagnant else "info",
            data={
                "attempt": updated.attempt,
                "status": update.status,
                "score": update.score,
                "stagnant": updated.stagnant,
            },
        )
        return IterationStateResult(updated)

    def forge_logs(self, request: ForgeLogsRequest) -> LogQueryResult:
        """The last ``limit`` matching events of a run (default: the newest log)."""
        return query_logs(
            self.forge_dir,
            run_id=request.run_id,
            module_id=request.module_id,
            phase=request.phase,
            severity=request.severity,
            limit=request.limit,
        )

    def session_state(self, request: SessionStateRequest) -> SessionStateResult:
        """save / load / list orchestrator session snapshots."""
        # deferred: a tool imports what it runs
        from forge.service.replies import SessionStateResult
        from forge.state.sessions import list_sessions, load_session, save_session

        action, run_id, state = request.action, request.run_id, request.state
        if action == "list":
            return SessionStateResult(list_sessions(self.forge_dir))
        if run_id is None:
            raise UsageError(f'action "{action}" needs runId, e.g. "run-2026-01-15"')
        if action == "load":
            loaded = load_session(self.forge_dir, run_id)
            # Loading a run that is not there must not start its log.
            where = run_id if self.run_exists(run_id) else None
            self.log(where, phase="session", event="session_load", data={"found": loaded.found})
            return SessionStateResult(loaded)
        if state is None:
            raise UsageError(
                'action "save" needs state, a JSON object such as {"currentPhase": "execution"}'
            )
        saved = save_session(self.forge_dir, run_id, state)
        phase = state.get("currentPhase")
        self.log(
            run_id,
            phase="session",
            event="session_save",
            data={"currentPhase": phase if isinstance(phase, str) else None},
        )
        return SessionStateResult(saved)

    def merge_check(self, request: MergeCheckRequest) -> MergeCheckReport:
        """Preview merging modules' work into the base: conflicts, integration breaks, stale work."""
        from forge.parallel.merge_preview import MergeAsk  # deferred: a tool imports what it runs

        # The request's fields are the preview's questions, one for one.
        report = self.engine.merge_preview(MergeAsk(**dict(request)))
        summary = {"passed": report.passed, "base": report.base_commit, "order": report.order[:50]}
        counts = {"conflicts": len(report.conflicts), "breaks": len(report.integration_breaks)}
        severity = "info" if report.passed else "warn"
        self.log(
            None, phase="review", event="merge_check", severity=severity, data=summary | counts
        )
        return report
