"""The MCP adapter: forge's seven tools over stdio, on the ``mcp`` SDK's ``MCPServer``.

The only module that imports ``mcp``. It declares each tool's arguments
(camelCase Python parameters, described with ``Field``), its description and
annotations, and translates errors into one-line error results; the work is
done by :class:`forge.service.Forge`, which the CLI uses too.

Every call appends a ``tool_call`` event and rewrites ``.forge/status.json``,
whether it succeeded or not. ``python -m forge.server --print-reference``
prints the tool reference (``docs/mcp-tools.md``) from the live schemas.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    CallToolResult,
    ErrorData,
    JSONRPCError,
    JSONRPCResponse,
    TextContent,
    ToolAnnotations,
)
from pydantic import ConfigDict, Field, RootModel, ValidationError

from forge import __version__
from forge.errors import ForgeError, clip, describe_validation_error
from forge.events import DEFAULT_LIMIT, MAX_LIMIT, EventSeverity, LogQueryResult, Phase, run_of
from forge.history import IterationReset, IterationState, IterationUpdate, IterationUpdated
from forge.jsonrpc import Envelope, envelope_of, salvage
from forge.memory import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RECALL_LIMIT,
    MAX_QUERY_LENGTH,
    MAX_RECALL_LIMIT,
    Category,
    MemoryRecallResult,
    MemorySaveResult,
    RecallScope,
    Scope,
)
from forge.models import (
    MAX_COMMANDS,
    MAX_CONTRACT_CHECKS,
    MAX_FILES,
    MAX_TIMEOUT_SECONDS,
    CommandText,
    ContractPair,
    PathText,
    SafeId,
    ValidateReport,
    ValidateRequest,
)
from forge.plugin_manager import describe_exception
from forge.service import Forge, IterationAction, SessionAction
from forge.sessions import SessionList, SessionLoaded, SessionSaved

SERVER_NAME = "forge"

logger = logging.getLogger("forge.server")

T = TypeVar("T")


class IterationStateResult(RootModel[IterationState | IterationUpdated | IterationReset]):
    """``iteration_state``: the state (get), the appended attempt (update) or a confirmation (reset)."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})


class SessionStateResult(RootModel[SessionSaved | SessionLoaded | SessionList]):
    """``session_state``: ``{saved, ...}`` (save), ``{found, ...}`` (load) or ``{sessions}`` (list)."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})


# --- argument types ------------------------------------------------------------

ModuleIdArg = Annotated[
    SafeId,
    Field(description="Plan module id, e.g. m1 or auth-api; keys the attempt history."),
]
RunIdArg = Annotated[
    SafeId | None,
    Field(
        description="Run id, e.g. run-2026-01-15; attempts and events are kept per run. "
        "Omit only for one-off use."
    ),
]

READ_ONLY = ToolAnnotations(
    readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False
)


class ForgeTools:
    """The seven tools, each a typed function whose parameters are the tool's arguments."""

    def __init__(self, forge: Forge) -> None:
        self.forge = forge

    def validate(
        self,
        moduleId: ModuleIdArg,
        commands: Annotated[
            list[CommandText],
            Field(
                max_length=MAX_COMMANDS,
                description="Verify commands, run with sh in the working dir; each must exit 0.",
            ),
        ] = [],  # noqa: B006 - the SDK copies defaults; a default list is never mutated here
        files: Annotated[
            list[PathText],
            Field(
                max_length=MAX_FILES,
                description="Files the module must have produced, relative to the working dir "
                "(absolute allowed). Existing files of a known language are also parsed.",
            ),
        ] = [],  # noqa: B006
        contractChecks: Annotated[
            list[ContractPair],
            Field(
                max_length=MAX_CONTRACT_CHECKS,
                description="Exporter/importer pairs: every name the importer takes from the "
                "exporter must really be exported.",
            ),
        ] = [],  # noqa: B006
        cwd: Annotated[
            PathText | None,
            Field(
                description="Working dir, e.g. a worker's worktree; relative to the project "
                "root. Default: the project root.",
            ),
        ] = None,
        runId: RunIdArg = None,
        timeout: Annotated[
            float | None,
            Field(
                gt=0,
                le=MAX_TIMEOUT_SECONDS,
                description="Per-command timeout in seconds (default 120).",
            ),
        ] = None,
        autoContracts: Annotated[
            bool,
            Field(description="Also check every local import of the listed files (default true)."),
        ] = True,
        maxAttempts: Annotated[
            int | None,
            Field(
                ge=1,
                le=1_000,
                description="Attempts before ESCALATE (default 3, or [tool.forge] max-attempts).",
            ),
        ] = None,
        pluginOptions: Annotated[
            dict[str, dict[str, Any]],
            Field(description='Options for check plugins by plugin name, e.g. {"stubs": {}}.'),
        ] = {},  # noqa: B006
    ) -> ValidateReport:
        request = _build(
            ValidateRequest,
            module_id=moduleId,
            commands=commands,
            files=files,
            contract_checks=contractChecks,
            cwd=cwd,
            run_id=runId,
            timeout=timeout,
            auto_contracts=autoContracts,
            max_attempts=maxAttempts,
            plugin_options=pluginOptions,
        )
        return self.forge.validate(request)

    def validate_plan(
        self,
        planPath: Annotated[
            PathText | None,
            Field(
                description="Plan JSON file, relative to the project root. Default: the most "
                "recently modified .forge/plans/*.json.",
            ),
        ] = None,
        plan: Annotated[
            dict[str, Any] | None,
            Field(description="An inline plan object to check instead of a file."),
        ] = None,
    ) -> Any:
        return self.forge.validate_plan(plan_path=planPath, plan=plan)

    def memory_save(
        self,
        pattern: Annotated[
            str,
            Field(
                min_length=1,
                max_length=1024,
                description="The learning, one or two sentences, at most 1 KB.",
            ),
        ],
        category: Annotated[Category, Field(description="Kind of learning.")],
        confidence: Annotated[
            float, Field(ge=0, le=1, description="How sure you are, 0..1 (default 0.7).")
        ] = DEFAULT_CONFIDENCE,
        scope: Annotated[
            Scope,
            Field(description="project (this project only, default) or global (every project)."),
        ] = "project",
        tags: Annotated[
            list[str],
            Field(max_length=20, description="Extra words to find it by, e.g. ['pytest']."),
        ] = [],  # noqa: B006
    ) -> MemorySaveResult:
        return self.forge.memory_save(
            pattern=pattern, category=category, confidence=confidence, scope=scope, tags=tags
        )

    def memory_recall(
        self,
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_QUERY_LENGTH,
                description="Words to look for, e.g. 'test command vitest'.",
            ),
        ],
        scope: Annotated[
            RecallScope, Field(description="project, global or all (default).")
        ] = "all",
        limit: Annotated[
            int,
            Field(ge=1, le=MAX_RECALL_LIMIT, description="Most entries to return (default 10)."),
        ] = DEFAULT_RECALL_LIMIT,
        category: Annotated[
            Category | None, Field(description="Only entries of this category.")
        ] = None,
    ) -> MemoryRecallResult:
        return self.forge.memory_recall(query, scope=scope, limit=limit, category=category)

    def iteration_state(
        self,
        moduleId: ModuleIdArg,
        action: Annotated[
            IterationAction,
            Field(description="get (read), update (append an attempt) or reset (clear)."),
        ],
        runId: RunIdArg = None,
        update: Annotated[
            IterationUpdate | None,
            Field(description="For update: {status, issues, score, rootCause}."),
        ] = None,
    ) -> IterationStateResult:
        result = self.forge.iteration_state(moduleId, action, run_id=runId, update=update)
        return IterationStateResult(result)

    def forge_logs(
        self,
        runId: Annotated[
            SafeId | None,
            Field(description="Run whose log to read. Default: the most recently written log."),
        ] = None,
        moduleId: Annotated[
            str | None, Field(max_length=128, description="Only events of this module.")
        ] = None,
        phase: Annotated[Phase | None, Field(description="Only events of this phase.")] = None,
        severity: Annotated[
            EventSeverity | None, Field(description="Only events of this severity.")
        ] = None,
        limit: Annotated[
            int,
            Field(
                ge=1, le=MAX_LIMIT, description="Most entries to return, the latest (default 50)."
            ),
        ] = DEFAULT_LIMIT,
    ) -> LogQueryResult:
        return self.forge.logs(
            run_id=runId, module_id=moduleId, phase=phase, severity=severity, limit=limit
        )

    def session_state(
        self,
        action: Annotated[
            SessionAction,
            Field(description="save (write a snapshot), load (read one) or list (all of them)."),
        ],
        runId: Annotated[
            SafeId | None, Field(description="Run id; required for save and load.")
        ] = None,
        state: Annotated[
            dict[str, Any] | None,
            Field(
                description="For save: the orchestrator's state, a JSON object of at most 1 MB "
                "(runId, planPath, currentPhase, moduleStatuses, retryCounts, "
                "completedModules, startedAt)."
            ),
        ] = None,
    ) -> SessionStateResult:
        result = self.forge.session_state(action, run_id=runId, state=state)
        return SessionStateResult(result)


# --- descriptions -------------------------------------------------------------------

DESCRIPTIONS: dict[str, str] = {
    "validate": """\
Check that a plan module really landed: its files exist, parse (syntax_check), \
honour their import/export contracts (contract_check), and its verify commands \
exit 0 (command). Call it after a worker reports a module done, and again after \
each fix. Records the attempt for (runId, moduleId), so it is not read-only: \
attempt N+1 follows attempt N, and the commands you pass run through the shell \
in the working dir and may change files there.

Returns {passed, score, results[], attempt, stagnant, sameAsPrev, oscillating, \
velocity, recommendation}. Follow recommendation: PROCEED (all passed), RETRY \
(fix the failing results and call again), ESCALATE (stuck: the same failures \
again, A-B-A oscillation, no progress, or the attempt limit reached; change \
approach or ask a person). A cwd that does not exist escalates at once and \
records no attempt. To check a plan rather than a module use validate_plan; to \
record an attempt you judged yourself use iteration_state.

Example: {"moduleId": "m2", "runId": "run-7", "files": ["src/auth.ts"], \
"commands": ["npm test -- auth"]}""",
    "validate_plan": """\
Check a plan before executing it: schema (required fields per module), duplicate \
and unknown ids, dependency cycles (named in order), verify commands whose \
executable is not on PATH, and files two parallel modules both touch (warning). \
Read-only: nothing is executed and only forge's own log is written. Never fails \
for plan problems: they are entries of errors[] and warnings[].

Returns {valid, errors[], warnings[], planPath, layers, criticalPathLength}; \
each entry has type, message, severity, modules, files, field. Call it after \
writing a plan to .forge/plans/ and after editing one; use validate for a \
module's delivered work.

Example: {"planPath": ".forge/plans/auth.json"}""",
    "memory_save": """\
Remember a learning for later runs: a convention, a failure or success pattern, \
the project's test command, an architecture fact, a dependency quirk, a tool \
usage tip. Appends to project memory (.forge/memory/project.jsonl) or global \
memory (shared by all your projects). Idempotent: the same text in the same \
category and scope (case and whitespace ignored) is not saved twice.

Returns {saved, duplicate, scope, category, id, message}; message is "Saved to \
<scope> memory [<category>]: <pattern>" or "Duplicate pattern already in <scope> \
memory, skipped.". Use memory_recall to read memory back.

Example: {"pattern": "Run tests with pnpm vitest --run", "category": \
"test_command", "confidence": 0.9}""",
    "memory_recall": """\
Find what earlier runs learned about a topic: ranks project and global memory by \
relevance of your words to each entry's pattern, category and tags (BM25), keeps \
the best `limit`, and groups them by scope (project first), by confidence within \
each group. Read-only. Call it before planning or before retrying a failing \
module. No match is a normal reply, not an error.

Returns {query, memories[], searched, text}; text has one line per entry: \
"[test_command] 0.9 — pnpm vitest --run". Use memory_save to add entries.

Example: {"query": "how to run the tests", "scope": "all", "limit": 5}""",
    "iteration_state": """\
Read or change the attempt history of one module in one run, the same history \
validate writes. action "get" is read-only and returns {attempts, scores, \
stagnant, lastStatus, lastRootCause, ...} (an unknown module has no attempts). \
action "update" appends an attempt you judged yourself (status, issues, score, \
rootCause) and returns {updated, attempt, stagnant, sameAsPrev, oscillating, \
velocity}, stagnation computed by validate's rules with issues as the failure \
identity. action "reset" deletes the history (destructive: attempt counting \
starts again at 1) and returns a confirmation message.

Use validate instead when forge can run the checks itself.

Example: {"moduleId": "m2", "runId": "run-7", "action": "update", "update": \
{"status": "failed", "issues": ["login test times out"], "score": 0.5}}""",
    "forge_logs": """\
Read the event log of a run: every tool call, validation, plan check, memory \
save and session save, with timestamp, phase, moduleId, event, severity and \
data. Read-only. Filters combine; the latest `limit` matching entries are \
returned, oldest first. Default run: the most recently written log. Use it to \
see what happened before a failure or to audit a run; use iteration_state for \
one module's attempts.

Returns {runId, entries[], total} (total counts matches before the limit).

Example: {"runId": "run-7", "moduleId": "m2", "severity": "error", "limit": 20}""",
    "session_state": """\
Save and restore the orchestrator's own progress so a run can resume after a \
crash or a new conversation. action "save" replaces the run's snapshot \
(.forge/state/<runId>.json) with your state object plus lastUpdatedAt and \
returns {saved, runId, lastUpdatedAt}. "load" returns {found: true, \
...state} or {found: false, runId}. "list" returns {sessions: [{runId, \
lastUpdatedAt, currentPhase, completedCount, totalCount}]}, most recent first. \
load and list are read-only.

Example: {"action": "save", "runId": "run-7", "state": {"currentPhase": \
"execution", "moduleStatuses": {"m1": "passed", "m2": "running"}, \
"completedModules": ["m1"]}}""",
}

ANNOTATIONS: dict[str, ToolAnnotations] = {
    # The verify commands are the caller's shell commands: forge cannot promise
    # they leave the working dir alone, so validate says it may be destructive.
    "validate": ToolAnnotations(
        title="Validate a module",
        readOnlyHint=False,
        destructiveHint=True,
        idempotentHint=False,
        openWorldHint=False,
    ),
    "validate_plan": READ_ONLY.model_copy(update={"title": "Check a plan"}),
    "memory_save": ToolAnnotations(
        title="Save to memory",
        readOnlyHint=False,
        destructiveHint=False,
        idempotentHint=True,
        openWorldHint=False,
    ),
    "memory_recall": READ_ONLY.model_copy(update={"title": "Recall from memory"}),
    "iteration_state": ToolAnnotations(
        title="Module attempt history",
        readOnlyHint=False,
        destructiveHint=True,
        idempotentHint=False,
        openWorldHint=False,
    ),
    "forge_logs": READ_ONLY.model_copy(update={"title": "Read the event log"}),
    "session_state": ToolAnnotations(
        title="Session snapshots",
        readOnlyHint=False,
        destructiveHint=True,
        idempotentHint=True,
        openWorldHint=False,
    ),
}

TOOL_NAMES = tuple(DESCRIPTIONS)


# --- the server ------------------------------------------------------------------------


class ForgeServer(MCPServer):
    """``MCPServer`` plus forge's per-call bookkeeping and one-line errors."""

    def __init__(self, forge: Forge) -> None:
        level = os.environ.get("FORGE_LOG_LEVEL", "WARNING").upper()
        super().__init__(
            name=SERVER_NAME,
            version=__version__,
            instructions=(
                "forge validates modules delivered by coding agents and keeps attempt "
                "history, memory, logs and session state in the project's .forge/ folder."
            ),
            log_level=level if level in _LEVELS else "WARNING",  # type: ignore[arg-type]
        )
        self.forge = forge
        tools = ForgeTools(forge)
        for name in TOOL_NAMES:
            function: Callable[..., Any] = _guarded(getattr(tools, name))
            if name == "validate_plan":
                function = _with_return(function, _plan_report_type())
            self.add_tool(
                function,
                name=name,
                description=DESCRIPTIONS[name],
                annotations=ANNOTATIONS[name],
                structured_output=name != "validate_plan" or _plan_report_type() is not Any,
            )

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Log the call, run the tool, make errors one line, rewrite status.json."""
        run_id = run_of(arguments)
        known = name in DESCRIPTIONS
        if known:
            await anyio.to_thread.run_sync(self.forge.record_call, name, arguments, run_id)
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            message = _one_line(name, exc)
            if known:
                await anyio.to_thread.run_sync(self._after_error, name, message, run_id)
            raise ToolError(message) from exc
        if known:
            await anyio.to_thread.run_sync(self._refresh, name)
        if isinstance(result, CallToolResult) and result.structured_content is not None:
            text = json.dumps(result.structured_content, indent=2, ensure_ascii=False)
            result = result.model_copy(update={"content": [TextContent(type="text", text=text)]})
        return result

    async def run_stdio_async(self) -> None:
        """Serve on stdin/stdout, answering lines the SDK cannot read instead of dropping them."""
        async with stdio_server() as (read_stream, write_stream):
            await self._lowlevel_server.run(
                _AnsweringReadStream(read_stream, write_stream, self._answer_unreadable),
                write_stream,
                self._lowlevel_server.create_initialization_options(),
            )

    async def _answer_unreadable(self, error: Exception) -> SessionMessage | None:
        """The reply to a line the SDK could not read as JSON-RPC; ``None`` for a notification."""
        envelope, detail, code = _diagnose(error)
        if envelope.method is not None and not envelope.is_request:
            return None  # a notification: JSON-RPC forbids answering it
        if envelope.method == "tools/call" and envelope.is_request:
            name = envelope.tool or "?"
            message = f"Error executing tool {name}: {detail}"
            if name in DESCRIPTIONS:
                await anyio.to_thread.run_sync(self._after_error, name, message, None)
            result = CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)
            reply: JSONRPCResponse | JSONRPCError = JSONRPCResponse(
                jsonrpc="2.0",
                id=envelope.id,
                result=result.model_dump(by_alias=True, exclude_none=True, mode="json"),
            )
        else:
            reply = JSONRPCError(
                jsonrpc="2.0", id=envelope.id, error=ErrorData(code=code, message=detail)
            )
        return SessionMessage(reply)

    def _after_error(self, name: str, message: str, run_id: str | None) -> None:
        self.forge.record_error(name, message, run_id)
        self._refresh(name)

    def _refresh(self, name: str) -> None:
        try:
            self.forge.refresh_status(name)
        except Exception:  # status is a courtesy: it must never fail the call
            logger.warning("could not rewrite .forge/status.json", exc_info=True)


_LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}


class _AnsweringReadStream:
    """The SDK's read stream, with the lines it could not read answered and filtered out.

    The SDK's stdio reader passes an unreadable line on as an exception, which
    its dispatcher only logs: the client would wait for a reply that never
    comes. This wrapper turns each into a reply on the write stream.
    """

    def __init__(
        self,
        inner: Any,
        write_stream: Any,
        answer: Callable[[Exception], Any],
    ) -> None:
        self._inner = inner
        self._write_stream = write_stream
        self._answer = answer

    @property
    def last_context(self) -> Any:
        """The sender's context of the last item (the dispatcher restores it)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        """The next readable message; unreadable ones are answered on the way."""
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            try:
                reply = await self._answer(item)
                if reply is not None:
                    await self._write_stream.send(reply)
            except Exception:  # answering is a courtesy: it must never stop the server
                logger.warning("could not answer an unreadable message", exc_info=True)

    async def aclose(self) -> None:
        """Close the SDK's stream."""
        await self._inner.aclose()

    def __aiter__(self) -> _AnsweringReadStream:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _AnsweringReadStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


#: Where the SDK's JSON parser gives up; deeper requests cannot be read at all.
MAX_NESTING = 200


def _diagnose(error: Exception) -> tuple[Envelope, str, int]:
    """What an unreadable line was (its envelope), what was wrong with it, and the error code."""
    if not isinstance(error, ValidationError):
        return (
            Envelope(),
            f"the message could not be read ({describe_exception(error)})",
            PARSE_ERROR,
        )
    problems = error.errors(include_url=False)
    first = problems[0] if problems else {"type": "", "msg": "", "loc": (), "input": None}
    if first["type"] == "json_invalid":
        raw = first["input"]
        envelope = salvage(raw) if isinstance(raw, str) else Envelope()
        reason = str(first["msg"]).removeprefix("Invalid JSON: ")
        return (
            envelope,
            f"the request is not valid JSON ({reason}); send UTF-8 JSON without lone "
            f"surrogates, nested at most {MAX_NESTING} levels deep",
            PARSE_ERROR,
        )
    # Valid JSON of the wrong shape: a "missing field" problem at the top level
    # carries the whole message as its input.
    message = next(
        (p["input"] for p in problems if p["type"] == "missing" and len(p["loc"]) == 2),
        None,
    )
    return (
        envelope_of(message),
        "the message is not a JSON-RPC 2.0 request "
        '(expected {"jsonrpc": "2.0", "id": ..., "method": "...", "params": {...}})',
        INVALID_REQUEST,
    )


def _build(model: type[T], **values: Any) -> T:
    """``model(**values)``, with a validation error as a one-line :class:`ToolError`."""
    try:
        return model(**values)
    except ValidationError as exc:
        raise ToolError(describe_validation_error(exc, subject="arguments")) from None


def _guarded(method: Callable[..., T]) -> Callable[..., T]:
    """The tool method with forge's errors turned into one-line :class:`ToolError` results."""

    @functools.wraps(method)
    def tool(*args: Any, **kwargs: Any) -> T:
        try:
            return method(*args, **kwargs)
        except ToolError:
            raise
        except ForgeError as exc:
            raise ToolError(clip(" ".join(str(exc).split()), MAX_ERROR_CHARS)) from exc
        except ValidationError as exc:
            raise ToolError(describe_validation_error(exc, subject="arguments")) from exc
        except Exception as exc:  # a bug: keep the server up, the traceback on stderr
            logger.exception("tool %s failed", method.__name__)
            raise ToolError(
                f"internal error ({describe_exception(exc)}); the server is still running, "
                "and its stderr has the traceback"
            ) from exc

    return tool


#: Longest error message returned: an error may quote the caller's input
#: (an unknown tool's name, a path), which can be megabytes long.
MAX_ERROR_CHARS = 500


def _one_line(name: str, exc: ToolError) -> str:
    cause = exc.__cause__
    if isinstance(cause, ValidationError):
        # The SDK's message for bad arguments is pydantic's multi-line report.
        return f"Error executing tool {clip(name, 100)}: " + describe_validation_error(
            cause, subject="arguments"
        )
    return clip(" ".join(str(exc).split()), MAX_ERROR_CHARS)


def _plan_report_type() -> Any:
    """``forge.plan.PlanReport`` when the plan engine is installed, else ``Any``."""
    try:
        from forge.plan import PlanReport
    except ImportError:
        return Any
    return PlanReport


def _with_return(function: Callable[..., Any], annotation: Any) -> Callable[..., Any]:
    """``function`` with its signature's return annotation replaced (for the output schema)."""

    @functools.wraps(function)
    def tool(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    signature = inspect.signature(function, eval_str=True)
    tool.__signature__ = signature.replace(return_annotation=annotation)  # type: ignore[attr-defined]
    return tool


def create_server(root: Path | None = None, *, run_id: str | None = None) -> ForgeServer:
    """The server for ``root`` (default: ``FORGE_CWD``, else the working dir), ready to run."""
    return ForgeServer(Forge.for_project(root) if run_id is None else _forge(root, run_id))


def _forge(root: Path | None, run_id: str) -> Forge:
    from forge.engine import Engine

    return Forge(Engine.for_project(root), run_id=run_id)


def serve() -> None:
    """Run the server on stdin/stdout until the client disconnects (``forge serve``)."""
    create_server().run("stdio")


# --- reference ----------------------------------------------------------------------------


def reference_markdown() -> str:
    """``docs/mcp-tools.md``: every tool's description, arguments and result, from the schemas."""
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        server = ForgeServer(_forge(Path(scratch), "reference"))
        tools = anyio.run(server.list_tools)
    lines = [
        "# forge MCP tools reference",
        "",
        "<!-- Generated by `python -m forge.server --print-reference > docs/mcp-tools.md`; "
        "tests fail when this file and the server's schemas differ. -->",
        "",
        f"Server name `{SERVER_NAME}`. Seven tools; arguments are camelCase. Every result is "
        "the result object as JSON text in the first text content and as structured content "
        "matching the output schema. A bad argument gives `isError: true` and one line saying "
        "what to fix.",
        "",
    ]
    for tool in tools:
        lines += [f"## `{tool.name}`", ""]
        hints = tool.annotations
        if hints is not None:
            flags = [
                f"{key}: `{str(getattr(hints, attr)).lower()}`"
                for key, attr in (
                    ("readOnlyHint", "read_only_hint"),
                    ("destructiveHint", "destructive_hint"),
                    ("idempotentHint", "idempotent_hint"),
                    ("openWorldHint", "open_world_hint"),
                )
            ]
            lines += [f"*{hints.title}* — " + ", ".join(flags), ""]
        lines += [tool.description or "", "", "### Arguments", ""]
        lines += _schema_table(tool.input_schema)
        lines += ["", "### Result", ""]
        if tool.output_schema:
            lines += _result_tables(tool.output_schema)
            lines += [
                "",
                "<details><summary>Output schema</summary>",
                "",
                "```json",
                json.dumps(tool.output_schema, indent=2, ensure_ascii=False),
                "```",
                "",
                "</details>",
            ]
        else:
            lines += ["No output schema declared in this build."]
        lines.append("")
    return "\n".join(lines)


def _result_tables(schema: dict[str, Any]) -> list[str]:
    defs = schema.get("$defs", {})
    if "properties" in schema:
        return _schema_table(schema, heading="Field", defs=defs)
    lines: list[str] = []
    for variant in schema.get("anyOf", []):
        name = variant.get("$ref", "").rsplit("/", 1)[-1]
        definition = defs.get(name, {})
        summary = definition.get("description", name).split("\n")[0]
        lines += [f"One of: {summary}", ""]
        lines += _schema_table(definition, heading="Field", defs=defs)
        lines.append("")
    return lines[:-1]


def _schema_table(
    schema: dict[str, Any], *, heading: str = "Argument", defs: dict[str, Any] | None = None
) -> list[str]:
    required = set(schema.get("required", []))
    rows = [f"| {heading} | Type | Required | Default | Description |", "|---|---|---|---|---|"]
    defs = schema.get("$defs", {}) if defs is None else defs
    for name, prop in schema.get("properties", {}).items():
        default = json.dumps(prop["default"]) if "default" in prop else ""
        description = prop.get("description", "").replace("|", "\\|")
        rows.append(
            f"| `{name}` | {_type_of(prop, defs)} | {'yes' if name in required else 'no'} "
            f"| {default and f'`{default}`'} | {description} |"
        )
    return rows


def _type_of(prop: dict[str, Any], defs: dict[str, Any]) -> str:
    if "anyOf" in prop:
        kinds = [_type_of(p, defs) for p in prop["anyOf"] if p.get("type") != "null"]
        return " \\| ".join(kinds) + (" \\| null" if len(kinds) < len(prop["anyOf"]) else "")
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        fields = ", ".join(defs.get(name, {}).get("properties", {}))
        return f"object {{{fields}}}"
    if "enum" in prop:
        return " \\| ".join(f"`{value}`" for value in prop["enum"])
    kind = prop.get("type", "any")
    if kind == "array":
        return f"array of {_type_of(prop.get('items', {}), defs)}"
    return str(kind)


def main(argv: list[str] | None = None) -> int:
    """``python -m forge.server [--print-reference]``."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--print-reference"]:
        sys.stdout.write(reference_markdown())
        return 0
    if args:
        sys.stderr.write("usage: python -m forge.server [--print-reference]\n")
        return 2
    serve()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
