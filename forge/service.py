"""The seven tools as plain Python: what the MCP server exposes and the CLI reuses.

:class:`Forge` is one project's long-lived service: its engine (with its
caches), its memory index, and the run id of the process for events that
belong to no named run. Every method takes and returns pydantic models and
raises :class:`forge.errors.ForgeError` subclasses for bad input, so an
adapter only translates. No MCP here.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from forge.config import forge_home
from forge.engine import Engine
from forge.errors import UsageError
from forge.events import (
    DEFAULT_LIMIT,
    EventSeverity,
    LogQueryResult,
    Phase,
    log_event,
    new_run_id,
    query_logs,
    summarize_arguments,
)
from forge.history import (
    IterationReset,
    IterationState,
    IterationUpdate,
    IterationUpdated,
    read_state,
    reset_state,
    update_state,
)
from forge.memory import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RECALL_LIMIT,
    Category,
    Memory,
    MemoryRecallResult,
    MemorySaveResult,
    RecallScope,
    Scope,
)
from forge.models import Recommendation, ValidateReport, ValidateRequest, is_valid_id
from forge.sessions import (
    SessionList,
    SessionLoaded,
    SessionSaved,
    list_sessions,
    load_session,
    save_session,
)
from forge.status import Status, refresh_status
from forge.store import utc_now, valid_id

if TYPE_CHECKING:
    from forge.plan import PlanReport

IterationAction = Literal["get", "update", "reset"]
SessionAction = Literal["save", "load", "list"]

#: Failure keys shown in a validate event; the full list is in the report.
EVENT_FAILURES = 20

_SEVERITY: dict[Recommendation, EventSeverity] = {
    "PROCEED": "info",
    "RETRY": "warn",
    "ESCALATE": "error",
}


def global_memory_file() -> Path:
    """``$FORGE_HOME/memory/global.jsonl``: memory shared by every project of the user."""
    return forge_home() / "memory" / "global.jsonl"


class Forge:
    """One project's tools: validate, plans, memory, attempt history, logs, sessions, status."""

    def __init__(self, engine: Engine, *, run_id: str | None = None) -> None:
        self.engine = engine
        self.forge_dir = engine.forge_dir
        self.forge_dir.ensure()
        self.memory = Memory(self.forge_dir.project_memory, global_memory_file())
        #: Where events of calls that name no run go.
        self.run_id = valid_id(run_id, "runId") if run_id else new_run_id()
        self.started_at = utc_now()
        #: The run the latest call named: the one status.json follows.
        self.active_run: str | None = None
        self._lock = threading.Lock()

    @classmethod
    def for_project(cls, root: Path | None = None) -> Forge:
        """The service for ``root`` (default: ``FORGE_CWD`` or the working dir)."""
        return cls(Engine.for_project(root))

    @property
    def root(self) -> Path:
        """The project root."""
        return self.engine.root

    # --- events and status ------------------------------------------------------

    def log(
        self,
        run_id: str | None,
        *,
        phase: Phase,
        event: str,
        module_id: str | None = None,
        severity: EventSeverity = "info",
        data: dict[str, Any] | None = None,
    ) -> None:
        """Append an event to ``run_id``'s log, else to this process's own run log."""
        log_event(
            self.forge_dir,
            run_id or self.run_id,
            phase=phase,
            event=event,
            module_id=module_id,
            severity=severity,
            data=data,
        )

    def record_call(self, tool: str, arguments: dict[str, Any], run_id: str | None) -> None:
        """The ``tool_call`` event every call appends (arguments summarised)."""
        if run_id is not None:
            with self._lock:
                self.active_run = run_id
        module_id = arguments.get("moduleId")
        self.log(
            run_id,
            phase="tool_call",
            event=tool,
            module_id=module_id if is_valid_id(module_id) else None,
            data={"args": summarize_arguments(arguments)},
        )

    def record_error(self, tool: str, message: str, run_id: str | None) -> None:
        """A ``<tool>_error`` event for a call that ended in an error result."""
        self.log(
            run_id,
            phase="tool_call",
            event=f"{tool}_error",
            severity="error",
            data={"error": message[:500]},
        )

    def refresh_status(self, last_tool: str | None = None) -> Status:
        """Rewrite ``.forge/status.json`` for the active run."""
        return refresh_status(
            self.forge_dir,
            run_id=self.active_run,
            started_at=self.started_at,
            last_tool=last_tool,
        )

    # --- validate ----------------------------------------------------------------

    def validate(self, request: ValidateRequest) -> ValidateReport:
        """Run the engine's checks and record the attempt; logs a ``validate`` event."""
        report = self.engine.validate(request)
        failures = [r.failure_key for r in report.results if not r.passed]
        self.log(
            request.run_id,
            phase="validation",
            event="validate",
            module_id=request.module_id,
            severity=_SEVERITY[report.recommendation],
            data={
                "passed": report.passed,
                "score": report.score,
                "attempt": report.attempt,
                "recommendation": report.recommendation,
                "stagnant": report.stagnant,
                "failures": failures[:EVENT_FAILURES],
                "failureCount": len(failures),
            },
        )
        return report

    def validate_plan(
        self, plan_path: str | None = None, plan: dict[str, Any] | None = None
    ) -> PlanReport:
        """Check a plan file (default: the newest ``.forge/plans/*.json``) or an inline plan."""
        try:
            from forge.plan import check_plan
        except ImportError as exc:  # until the plan engine is merged into this build
            raise UsageError(f"plan checking is not available in this build ({exc})") from None
        if plan_path is not None and plan is not None:
            raise UsageError("give planPath or plan, not both")
        report = check_plan(
            plan_path=plan_path, plan=plan, project_root=self.root, plugins=self.engine.plugins
        )
        self.log(
            None,
            phase="plan_validation",
            event="validate_plan",
            severity="info" if report.valid else "warn",
            data={
                "valid": report.valid,
                "planPath": report.to_wire().get("planPath"),
                "errorCount": len(report.errors),
                "warningCount": len(report.warnings),
            },
        )
        return report

    # --- memory ------------------------------------------------------------------

    def memory_save(
        self,
        *,
        pattern: str,
        category: Category,
        confidence: float = DEFAULT_CONFIDENCE,
        scope: Scope = "project",
        tags: list[str] | None = None,
    ) -> MemorySaveResult:
        """Save a pattern to project or global memory (skipped when already there)."""
        result = self.memory.save(
            pattern=pattern, category=category, confidence=confidence, scope=scope, tags=tags or []
        )
        self.log(
            None,
            phase="memory",
            event="memory_save",
            data={
                "scope": scope,
                "category": category,
                "saved": result.saved,
                "id": result.id,
            },
        )
        return result

    def memory_recall(
        self,
        query: str,
        *,
        scope: RecallScope = "all",
        limit: int = DEFAULT_RECALL_LIMIT,
        category: Category | None = None,
    ) -> MemoryRecallResult:
        """The memories most relevant to ``query``."""
        return self.memory.recall(query, scope=scope, limit=limit, category=category)

    # --- attempt history ------------------------------------------------------------

    def iteration_state(
        self,
        module_id: str,
        action: IterationAction,
        *,
        run_id: str | None = None,
        update: IterationUpdate | None = None,
    ) -> IterationState | IterationUpdated | IterationReset:
        """get / update / reset the attempt history of (runId, moduleId)."""
        path = self.forge_dir.iteration(module_id, run_id)
        if action == "get":
            return read_state(path, module_id=module_id, run_id=run_id)
        if action == "reset":
            result: IterationUpdated | IterationReset = reset_state(
                path, module_id=module_id, run_id=run_id
            )
            self.log(run_id, phase="retry", event="iteration_reset", module_id=module_id)
            return result
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
        return updated

    # --- logs and sessions ---------------------------------------------------------

    def logs(
        self,
        *,
        run_id: str | None = None,
        module_id: str | None = None,
        phase: Phase | None = None,
        severity: EventSeverity | None = None,
        limit: int = DEFAULT_LIMIT,
    ) -> LogQueryResult:
        """The last ``limit`` matching events of a run (default: the newest log)."""
        return query_logs(
            self.forge_dir,
            run_id=run_id,
            module_id=module_id,
            phase=phase,
            severity=severity,
            limit=limit,
        )

    def session_state(
        self,
        action: SessionAction,
        *,
        run_id: str | None = None,
        state: dict[str, Any] | None = None,
    ) -> SessionSaved | SessionLoaded | SessionList:
        """save / load / list orchestrator session snapshots."""
        if action == "list":
            return list_sessions(self.forge_dir)
        if run_id is None:
            raise UsageError(f'action "{action}" needs runId, e.g. "run-2026-01-15"')
        if action == "load":
            loaded = load_session(self.forge_dir, run_id)
            self.log(run_id, phase="session", event="session_load", data={"found": loaded.found})
            return loaded
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
        return saved
