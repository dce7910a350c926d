"""What a tool call did, for the bookkeeping after it: the run it writes, the module it names,
and how it changed the run's progress (what ``.forge/status.json`` must show).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from forge.store.ids import is_valid_id
from forge.validate.outcome import ValidateReport

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from forge.service.tools import ToolService
    from forge.state.status_file import StatusChange
    from forge.validate.outcome import ModuleRun


def writes_to_run(tool: str, arguments: dict[str, Any]) -> bool:
    """Whether a call writes to the run it names (and so may start it)."""
    action = arguments.get("action")
    if tool == "iteration_state":
        return action in ("update", "reset")
    if tool == "session_state":
        return action == "save"
    return tool == "validate"


def module_of_call(arguments: dict[str, Any]) -> str | None:
    """The ``moduleId`` a call names, if it is a valid id."""
    module_id = arguments.get("moduleId")
    return module_id if is_valid_id(module_id) else None


#: Tools that never change a run's progress: the status is only stamped after them.
NO_PROGRESS = frozenset({"memory_save", "memory_recall", "forge_logs", "merge_check"})


def progress_change(tool: str, result: object) -> StatusChange:
    """What a call did to the run's progress, as :func:`refresh_status` takes it."""
    # deferred: what a call changed is read only once it is known
    from forge.state.status_file import HistoryChanged
    from forge.state.status_lines import module_status

    if isinstance(result, ValidateReport):
        if result.attempt == 0:  # not recorded: nothing changed
            return None
        return module_status(
            result.module_id, attempts=result.attempt, passed=result.passed, score=result.score
        )
    if tool in NO_PROGRESS:
        return None
    if tool == "validate_plan":
        return "plan"
    # deferred: only the tools that change progress return these
    from forge.service.replies import IterationStateResult, SessionStateResult
    from forge.state.sessions import SessionSaved
    from forge.validate.iteration import IterationState

    if isinstance(result, IterationStateResult):
        if isinstance(result.root, IterationState):
            return None
        return HistoryChanged(result.root.module_id)
    if isinstance(result, SessionStateResult) and not isinstance(result.root, SessionSaved):
        return None
    return "rebuild"


def command_finished(service: ToolService, tool: str, result: object) -> None:
    """A command's bookkeeping after a call (``forge validate``, ``forge reset``, a hook's stop).

    The server keeps ``.forge/status.json`` after every call; a command rewrites
    it for a named run only, so that a run-less command leaves the status of the
    run an orchestrator follows as it is.
    """
    if service.active_run is not None and result is not None:
        service.call_finished(tool, result)


def plan_run_finished(service: ToolService, plan_path: Path, finished: Sequence[ModuleRun]) -> None:
    """``status.json`` for the plan being run (``forge validate --plan``), with or without a run
    id: ``forge status`` right after it shows every module of that plan, the skipped ones too.

    Status is a courtesy, as in the server: a failure here is logged, never raised.
    """
    # deferred: only a plan run rebuilds the status from its plan
    from forge.state.status_file import refresh_status

    try:
        refresh_status(
            service.forge_dir,
            run_id=service.active_run,
            started_at=service.started_at,
            last_tool="validate",
            plan_path=plan_path,
            skipped=[run.module_id for run in finished if run.report is None],
        )
    except Exception:
        logging.getLogger("forge.service").warning("could not rewrite status.json", exc_info=True)
