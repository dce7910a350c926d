"""The event log: one JSONL file per run under ``.forge/logs/``, and queries over it.

Every MCP tool call appends a ``tool_call`` event, and tools append their own
(``validate``, ``validate_plan``, ``session_save``, ``memory_save`` ...). An
event goes to the log of the run its call names; a call that names no run
logs to the run of the process that served it (the MCP server's own run id,
see :func:`new_run_id`).
"""

from __future__ import annotations

import logging
import os
from collections import deque
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import Field, ValidationError

from forge.errors import ForgeError, StateError, clip, close_names, did_you_mean
from forge.models import (
    CheckResult,
    CommandResult,
    Location,
    StoredRecord,
    TestCounts,
    WireModel,
)
from forge.store.forge_dir import ForgeDir, utc_now
from forge.store.ids import is_valid_run_id
from forge.store.jsonl import append_line, describe_bad_lines, numbered_lines
from forge.store.safe_open import newest

logger = logging.getLogger("forge.events")

Phase = Literal[
    "planning",
    "execution",
    "validation",
    "review",
    "retry",
    "memory",
    "session",
    "tool_call",
    "plan_validation",
]
EventSeverity = Literal["info", "warn", "error"]

DEFAULT_LIMIT = 50
MAX_LIMIT = 1_000
#: Longest string kept when arguments are summarised for the log.
SUMMARY_TEXT = 200
#: Lists longer than this are logged as their length only.
SUMMARY_ITEMS = 3


class LogEntry(StoredRecord):
    """One event as stored: ``{timestamp, runId, phase, moduleId, event, severity, data}``."""

    timestamp: str
    run_id: str
    phase: str = Field(description="planning, execution, validation, ... or tool_call.")
    module_id: str | None = None
    event: str
    severity: str = "info"
    data: dict[str, Any] = Field(default_factory=dict)


class LogQueryResult(WireModel):
    """What ``forge_logs`` returns: the last ``limit`` matching entries of one run."""

    run_id: str | None = Field(description="The run whose log was read; null when there is none.")
    entries: list[LogEntry] = Field(description="Matching entries, oldest first.")
    total: int = Field(description="How many entries matched before the limit was applied.")
    message: str | None = Field(default=None, description="Why there is nothing, when so.")
    unknown_module: bool = Field(
        default=False,
        exclude_if=lambda value: not value,
        description="The moduleId asked for names no module of the run (no event, no "
        "attempt): the message says so, with the closest ids. Present only when true.",
    )
    notices: list[str] = Field(
        default_factory=list, description="Unreadable lines that were skipped, if any."
    )


#: Results a ``validate`` event keeps: the failing ones, and every verify command.
RECORDED_RESULTS = 20
#: Locations kept per recorded result, and characters of each message.
RECORDED_LOCATIONS = 5
RECORDED_MESSAGE = 300
#: Characters of a failing command's output tail kept (its last lines).
RECORDED_OUTPUT = 1_000


class CheckRecord(StoredRecord):
    """A check result as a ``validate`` event keeps it: where it failed, and a command's outcome.

    The attempt history keeps only ``type:target`` of each failure; this is
    what a person looking at the run (``forge ui``) needs to see where, without
    the result's whole payload.
    """

    type: str
    target: str
    passed: bool
    message: str = ""
    locations: list[Location] = Field(default_factory=list)
    command: str | None = Field(default=None, description="The verify command, for one.")
    exit_code: int | None = Field(default=None, description="A verify command's exit status.")
    timed_out: bool = False
    duration_ms: int | None = None
    tests: TestCounts | None = None
    output: str | None = Field(default=None, description="A failing command's last output.")


def check_records(results: list[CheckResult]) -> list[CheckRecord]:
    """The results a ``validate`` event keeps: failing ones (not pre-existing) and commands.

    Each is capped (:data:`RECORDED_RESULTS` of each kind, their first
    locations, messages clipped), so an event stays a few kilobytes.
    """
    failing = [r for r in results if not r.passed and not r.pre_existing]
    commands = [r for r in results if isinstance(r, CommandResult)]
    kept = {id(r) for r in failing[:RECORDED_RESULTS]} | {
        id(r) for r in commands[:RECORDED_RESULTS]
    }
    return [_record(r) for r in results if id(r) in kept]


def _record(result: CheckResult) -> CheckRecord:
    locations = [
        Location(
            path=place.path if place.path is not None else result.target,
            line=place.line,
            column=place.column,
            message=clip(place.message, RECORDED_MESSAGE),
        )
        for place in result.locations
        if not place.pre_existing
    ][:RECORDED_LOCATIONS]
    record = CheckRecord(
        type=result.type,
        target=clip(result.target, RECORDED_MESSAGE),
        passed=result.passed,
        message=clip(result.message, RECORDED_MESSAGE),
        locations=locations,
    )
    if not isinstance(result, CommandResult):
        return record
    tail = (result.stderr or result.stdout).rstrip()
    return record.model_copy(
        update={
            "command": record.target,
            "exit_code": result.exit_code,
            "timed_out": result.timed_out,
            "duration_ms": result.duration_ms,
            "tests": result.tests,
            "output": tail[-RECORDED_OUTPUT:] if tail and not result.passed else None,
        }
    )


#: Logs of processes rather than of agents' runs: the MCP server's own
#: (:func:`new_run_id`) and the CLI's (``forge validate`` naming no run).
PROCESS_LOGS = ("serve-", "cli.")


def new_run_id() -> str:
    """A run id for a process that was given none: ``serve-<UTC time>-<pid>``."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return f"serve-{stamp}-{os.getpid()}"


def log_event(
    forge_dir: ForgeDir,
    run_id: str,
    *,
    phase: Phase,
    event: str,
    module_id: str | None = None,
    severity: EventSeverity = "info",
    data: dict[str, Any] | None = None,
) -> None:
    """Append one event to ``.forge/logs/<runId>.jsonl`` as a single whole line."""
    entry = LogEntry(
        timestamp=utc_now(),
        run_id=run_id,
        phase=phase,
        module_id=module_id,
        event=event,
        severity=severity,
        data=data or {},
    )
    path = forge_dir.log(run_id)
    try:
        append_line(path, entry.to_wire())
    except StateError as exc:
        # The log is a record, not the work: a full disk, a read-only project
        # or a link planted at the log must not fail the call (read-only tools
        # keep working), so the event is lost with a warning on stderr.
        logger.warning("event %s not logged: %s", event, exc)


def summarize(value: Any, depth: int = 0) -> Any:
    """A small stand-in for a tool argument: long text cut, long lists and objects counted.

    The log records what a call asked for, never the payload itself (a 1 MB
    session state is logged as ``{7 keys}``).
    """
    if isinstance(value, str):
        return clip(value, SUMMARY_TEXT)
    if isinstance(value, list | tuple):
        if len(value) > SUMMARY_ITEMS or depth > 0:
            return f"[{len(value)} items]"
        return [summarize(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return f"{{{len(value)} keys}}"
    if value is None or isinstance(value, bool | int | float):
        return value
    return summarize(str(value), depth)


def summarize_arguments(arguments: dict[str, Any]) -> dict[str, Any]:
    """:func:`summarize` applied to each argument of a call (at most 30 of them)."""
    return {str(name)[:64]: summarize(value) for name, value in list(arguments.items())[:30]}


def run_of(arguments: dict[str, Any]) -> str | None:
    """The ``runId`` a call names, if it is a valid id (a bad one is never a file name)."""
    run_id = arguments.get("runId")
    return run_id if is_valid_run_id(run_id) else None


def query_logs(
    forge_dir: ForgeDir,
    *,
    run_id: str | None = None,
    module_id: str | None = None,
    phase: str | None = None,
    severity: str | None = None,
    limit: int = DEFAULT_LIMIT,
) -> LogQueryResult:
    """The last ``limit`` entries of a run's log that match every filter given.

    ``run_id`` defaults to the most recently modified log of an agents' run,
    not a process's own (the server logs every call, so its log is always the
    newest); the newest process log only when there is no run. Corrupt lines, and
    lines that are JSON but not log entries, are skipped and counted in
    ``notices``; they stay in the file (appends to a log take no lock, so it
    is never rewritten).
    """
    if run_id is None:
        latest = newest(forge_dir.logs, ".jsonl", skip=PROCESS_LOGS) or newest(
            forge_dir.logs, ".jsonl"
        )
        if latest is None:
            return LogQueryResult(run_id=None, entries=[], total=0, message="No logs yet.")
        run_id = latest.name.removesuffix(".jsonl")
    path = forge_dir.log(run_id)
    if not path.is_file():
        return LogQueryResult(
            run_id=run_id, entries=[], total=0, message=f"No log for runId {run_id!r}."
        )
    kept: deque[LogEntry] = deque(maxlen=max(1, min(limit, MAX_LIMIT)))
    total = 0
    bad_lines: list[int] = []
    modules: set[str] = set()
    for number, record in numbered_lines(path):
        if record is None:
            bad_lines.append(number)
            continue
        named = record.get("moduleId")
        if isinstance(named, str):
            modules.add(named)
        if module_id is not None and named != module_id:
            continue
        if phase is not None and record.get("phase") != phase:
            continue
        if severity is not None and record.get("severity") != severity:
            continue
        try:
            entry = LogEntry.model_validate(record)
        except ValidationError:
            bad_lines.append(number)
            continue
        total += 1
        kept.append(entry)
    notices = [f"{path}: {describe_bad_lines(bad_lines)} skipped"] if bad_lines else []
    if module_id is not None and module_id not in modules:
        known = modules | _with_history(forge_dir, run_id)
        if module_id not in known:
            closest = did_you_mean(close_names(module_id, known))
            return LogQueryResult(
                run_id=run_id,
                entries=[],
                total=0,
                message=f"no module {module_id!r} in run {run_id!r}{closest}",
                unknown_module=True,
                notices=notices,
            )
    return LogQueryResult(run_id=run_id, entries=list(kept), total=total, notices=notices)


def _with_history(forge_dir: ForgeDir, run_id: str) -> set[str]:
    """Modules with an attempt history in run ``run_id``, or with none (the CLI's log holds
    the validations that named no run): they exist, events or not."""
    try:
        return {*forge_dir.module_ids(run_id), *forge_dir.module_ids(None)}
    except (ForgeError, ValueError):
        return set()
