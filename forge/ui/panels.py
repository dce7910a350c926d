"""The other views: a run's event log (filtered), the saved sessions, and memory (searchable).

Each reads through forge's own readers (:func:`forge.state.event_log.query_logs`,
:func:`forge.state.sessions.list_sessions`, :class:`forge.memory.Memory`
with no index file), which skip what they cannot read and say so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast, get_args

from forge.errors import ForgeError, UsageError
from forge.memory import (
    MAX_QUERY_LENGTH,
    MAX_RECALL_LIMIT,
    Category,
    RecalledMemory,
    RecallScope,
    Scope,
    read_memory,
)
from forge.state.event_log import MAX_LIMIT, EventSeverity, Phase, query_logs
from forge.state.sessions import list_sessions
from forge.store.ids import is_valid_run_id
from forge.store.json_files import peek_json
from forge.ui.models import LogView, MemoryView, SessionsView
from forge.ui.reading import list_runs, log_of, pick_run

if TYPE_CHECKING:
    from forge.memory import Memory
    from forge.store.forge_dir import ForgeDir

#: Events shown by default, and memories listed or found.
DEFAULT_EVENTS = 200
DEFAULT_MEMORIES = 50


def log_view(
    forge_dir: ForgeDir,
    run: str | None,
    *,
    module_id: str | None,
    phase: str | None,
    severity: str | None,
    limit: int,
) -> LogView:
    """The last ``limit`` events of the run's log that match every filter given."""
    _one_of(phase, get_args(Phase), "phase")
    _one_of(severity, get_args(EventSeverity), "severity")
    if not 1 <= limit <= MAX_LIMIT:
        raise UsageError(f"limit must be 1 to {MAX_LIMIT}, not {limit}")
    runs, notices = list_runs(forge_dir)
    shown = pick_run(forge_dir, runs, run)
    log = log_of(shown)
    try:
        found = query_logs(
            forge_dir,
            run_id=log,
            module_id=module_id,
            phase=phase,
            severity=severity,
            limit=limit,
        )
    except ForgeError as exc:
        return LogView(
            run=shown,
            log=log,
            entries=[],
            total=0,
            phases=list(get_args(Phase)),
            severities=list(get_args(EventSeverity)),
            notices=[*notices, str(exc)],
        )
    return LogView(
        run=shown,
        log=log if found.message is None else None,
        entries=found.entries,
        total=found.total,
        phases=list(get_args(Phase)),
        severities=list(get_args(EventSeverity)),
        notices=[*notices, *found.notices],
    )


def sessions_view(forge_dir: ForgeDir, selected: str | None) -> SessionsView:
    """Every session snapshot, and the one asked for (else the newest) as saved."""
    try:
        listed = list_sessions(forge_dir)
    except ForgeError as exc:
        return SessionsView(sessions=[], selected=None, state=None, notices=[str(exc)])
    notices = list(listed.notices)
    if selected is None:
        selected = next((s.run_id for s in listed.sessions if is_valid_run_id(s.run_id)), None)
    state = None
    if selected is not None:
        stored, problem = peek_json(forge_dir.session(selected))
        if problem is not None:
            notices.append(problem)
        state = stored if isinstance(stored, dict) else None
    return SessionsView(sessions=listed.sessions, selected=selected, state=state, notices=notices)


def memory_view(
    memory: Memory, query: str, *, scope: str, category: str | None, limit: int
) -> MemoryView:
    """The newest memories (no query) or the best matches of ``query``, project first."""
    _one_of(scope, get_args(RecallScope), "scope")
    _one_of(category, get_args(Category), "category")
    wanted = cast("RecallScope", scope)
    kind = cast("Category | None", category)
    if len(query) > MAX_QUERY_LENGTH:
        raise UsageError(f"the query is {len(query)} characters; at most {MAX_QUERY_LENGTH}")
    if not 1 <= limit <= MAX_RECALL_LIMIT:
        raise UsageError(f"limit must be 1 to {MAX_RECALL_LIMIT}, not {limit}")
    categories = list(get_args(Category))
    scopes: list[Scope] = ["project", "global"] if wanted == "all" else [wanted]
    items: list[RecalledMemory] = []
    notices: list[str] = []
    searched = 0
    if query.strip():
        try:
            found = memory.recall(query, scope=wanted, limit=limit, category=kind)
            items, searched, notices = found.memories, found.searched, found.notices
        except ForgeError as exc:
            notices.append(str(exc))
    else:
        for name in scopes:
            path = memory.files[name]
            try:
                stored = read_memory(path)
            except ForgeError as exc:
                notices.append(str(exc))
                continue
            if stored.bad_lines:
                notices.append(f"{path}: {len(stored.bad_lines)} unreadable lines skipped")
            kept = [e for e in stored.entries if category is None or e.category == category]
            searched += len(kept)
            items += [
                RecalledMemory(**entry.model_dump(), scope=name, relevance=0.0) for entry in kept
            ]
        items = sorted(items, key=lambda item: item.timestamp, reverse=True)[:limit]
    return MemoryView(
        query=query, items=items, searched=searched, categories=categories, notices=notices
    )


def _one_of(value: str | None, allowed: tuple[str, ...], what: str) -> None:
    if value is not None and value not in allowed:
        raise UsageError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
