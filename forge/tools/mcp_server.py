"""The MCP adapter: forge's seven tools over stdio, on the ``mcp`` SDK's ``MCPServer``.

The only module that imports ``mcp`` (with :mod:`forge.tools.jsonrpc`, which it
alone uses). Each tool's signature is derived from its request model
(:mod:`forge.tools.requests`), its prose from :mod:`forge.tools.descriptions`,
and its work is the :class:`forge.tools.service.ToolService` method of its
name, which the CLI uses too. This module only translates: arguments into a
request model, errors into one-line error results, and calls into the
service's bookkeeping (a ``tool_call`` event, ``.forge/status.json``).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import gc
import inspect
import io
import logging
import os
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import (
    CallToolResult,
    ErrorData,
    JSONRPCError,
    JSONRPCResponse,
    TextContent,
    ToolAnnotations,
)
from pydantic import ValidationError

from forge import __version__
from forge.cancellation import cancellable, shut_down
from forge.errors import ConfigError, ForgeError, clip, describe_validation_error
from forge.ids import is_valid_id
from forge.plugin_manager import describe_exception
from forge.store import pretty_json
from forge.tools.descriptions import DESCRIPTIONS, HINTS, TEXT_REPLIES
from forge.tools.jsonrpc import INVALID_REQUEST, AnsweringReadStream, OddIdLines, diagnose
from forge.tools.requests import TOOL_REQUESTS, tool_parameters
from forge.tools.service import ToolService, tool_hints
from forge.workspace import ProgressCallback

SERVER_NAME = "forge"
TOOL_NAMES = tuple(TOOL_REQUESTS)
#: Longest error message returned: an error may quote the caller's input
#: (an unknown tool's name, a path), which can be megabytes long.
MAX_ERROR_CHARS = 500
#: Tools whose calls may run verify commands for minutes. They run in their
#: own threads, at most :data:`LONG_CALLS` at once, so that quick calls
#: (memory, logs, state), in the threads anyio lends everything else, never
#: wait behind them.
LONG_TOOLS = frozenset({"validate", "validate_plan"})
LONG_CALLS = 100

T = TypeVar("T")

logger = logging.getLogger("forge.mcp")

_LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}


class ForgeServer(MCPServer):
    """``MCPServer`` plus forge's per-call bookkeeping and one-line errors."""

    def __init__(self, service: ToolService | None, *, problem: str = "") -> None:
        """Serve ``service``'s tools; with no service, every call answers ``problem``.

        A server whose project cannot be used (``FORGE_CWD`` names no folder)
        still starts, lists its tools and answers each call with the one-line
        reason, so the agent sees why instead of a dead connection.
        """
        level = os.environ.get("FORGE_LOG_LEVEL", "WARNING").upper()
        super().__init__(
            name=SERVER_NAME,
            version=__version__,
            instructions=(
                "forge validates modules delivered by coding agents and keeps attempt "
                "history, memory, logs and session state in the project's .forge/ folder."
            ),
            log_level=level if level in _LEVELS else "WARNING",  # type: ignore[arg-type]
            middleware=[_initialize_first],
        )
        self.service = service
        self.problem = problem
        self._long_calls: anyio.CapacityLimiter | None = None  # made on the event loop
        for name in TOOL_NAMES:
            self.add_tool(
                _tool_function(self, name),
                name=name,
                title=HINTS[name]["title"],
                description=DESCRIPTIONS[name],
                annotations=ToolAnnotations(**HINTS[name]),
                structured_output=True,
            )

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Log the call, run the tool, make errors one line, rewrite status.json."""
        service = self.service
        if service is None:
            raise ToolError(self.problem)
        known = name in TOOL_REQUESTS
        # The tool's worker thread logs the call's start (one thread hop per call,
        # not two); a call the SDK refuses before the tool runs is logged here.
        call = _Call(name, arguments)
        tokens = _progress.set(_progress_reporter(context)), _call.set(call)
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            message = _one_line(name, exc)
            if known:
                module_id = arguments.get("moduleId")

                def failed() -> None:
                    call.start(service)
                    service.call_failed(
                        name, message, call.run_id, module_id if is_valid_id(module_id) else None
                    )

                await anyio.to_thread.run_sync(failed)
            raise ToolError(message) from exc
        finally:
            _progress.reset(tokens[0])
            _call.reset(tokens[1])
        if isinstance(result, CallToolResult) and result.structured_content is not None:
            content = result.structured_content
            # Memory replies are sentences a client tests as text ("duplicate" in it
            # means a duplicate); every other tool's text is its result as JSON.
            text_field = TEXT_REPLIES.get(name)
            text = (
                str(content[text_field])
                if text_field is not None and text_field in content
                else pretty_json(content)
            )
            result = result.model_copy(update={"content": [TextContent(type="text", text=text)]})
        return result

    async def in_worker(self, tool: str, work: Callable[[], T]) -> T:
        """Run a tool's ``work`` in a worker thread, stopped if the call is cancelled.

        A cancelled call (``notifications/cancelled``, or stdin closing, which
        cancels every call in flight) returns at once; its thread is told
        through :mod:`forge.cancellation` and kills its command's process group.
        """
        limiter = None
        if tool in LONG_TOOLS:
            if self._long_calls is None:
                self._long_calls = anyio.CapacityLimiter(LONG_CALLS)
            limiter = self._long_calls
        with cancellable() as cancel:
            try:
                return await anyio.to_thread.run_sync(work, limiter=limiter, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                cancel.set()
                raise

    async def run_stdio_async(self) -> None:
        """Serve on stdin/stdout, answering lines the SDK cannot read instead of dropping them.

        Returns once stdin closes, with every call's commands stopped: a
        client that went away is owed nothing more.
        """
        try:
            async with (
                _claimed_stdin() as stdin,
                stdio_server(stdin=stdin) as (
                    read_stream,
                    write_stream,
                ),
            ):
                await self._lowlevel_server.run(
                    AnsweringReadStream(read_stream, write_stream, self._answer_unreadable),
                    write_stream,
                    self._lowlevel_server.create_initialization_options(),
                )
        finally:
            shut_down()

    async def _answer_unreadable(self, error: Exception) -> SessionMessage | None:
        """The reply to a line the SDK could not read as JSON-RPC; ``None`` for a notification."""
        envelope, detail, code = diagnose(error)
        if envelope.method is not None and not envelope.is_request:
            return None  # a notification: JSON-RPC forbids answering it
        if envelope.method == "tools/call" and envelope.id is not None:
            name = envelope.tool or "?"
            message = f"Error executing tool {name}: {detail}"
            if name in TOOL_REQUESTS and self.service is not None:
                await anyio.to_thread.run_sync(self.service.call_failed, name, message, None)
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


def _tool_function(server: ForgeServer, name: str) -> Callable[..., Any]:
    """Tool ``name`` as a function whose signature is its request model's fields.

    The SDK reads the signature for the input schema and the return annotation
    for the output schema; the call builds the request model (its validation
    errors become one-line error results), runs the service method and updates
    the status from what it returned.
    """
    model = TOOL_REQUESTS[name]
    returns = tool_hints(name)["return"]
    takes_progress = "progress" in inspect.signature(getattr(ToolService, name)).parameters

    def work(arguments: dict[str, Any]) -> Any:
        service = server.service
        if service is None:
            raise ToolError(server.problem)
        call = _call.get()
        if call is not None:
            call.start(service)
        method = getattr(service, name)
        try:
            request = model.model_validate(arguments)
            progress = _progress.get() if takes_progress else None
            returned = method(request, progress) if progress is not None else method(request)
        except ForgeError as exc:
            raise ToolError(clip(" ".join(str(exc).split()), MAX_ERROR_CHARS)) from exc
        except ValidationError as exc:
            raise ToolError(describe_validation_error(exc, subject="arguments")) from exc
        except Exception as exc:  # a bug: keep the server up, the traceback on stderr
            logger.exception("tool %s failed", name)
            raise ToolError(
                f"internal error ({describe_exception(exc)}); the server is still running, "
                "and its stderr has the traceback"
            ) from exc
        service.call_finished(name, returned)
        return returned

    async def tool(**arguments: Any) -> Any:
        return await server.in_worker(name, functools.partial(work, arguments))

    tool.__name__ = name
    tool.__doc__ = model.__doc__
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        tool_parameters(model), return_annotation=returns
    )
    return tool


#: The progress reporter of the call running in this context (set per call;
#: anyio copies context variables into the worker thread that runs the tool).
_progress: ContextVar[ProgressCallback | None] = ContextVar("forge_progress", default=None)


class _Call:
    """One tool call's start, logged once: by its worker thread, else when it is refused."""

    def __init__(self, name: str, arguments: dict[str, Any]) -> None:
        self.name = name
        self.arguments = arguments
        self.started = False
        #: The run the call's events go to (:meth:`ToolService.call_started`).
        self.run_id: str | None = None

    def start(self, service: ToolService) -> None:
        """Append the call's ``tool_call`` event, unless that is done."""
        if not self.started:
            self.started = True
            self.run_id = service.call_started(self.name, self.arguments)


#: The call running in this context; the worker thread sees the same object.
_call: ContextVar[_Call | None] = ContextVar("forge_call", default=None)


def _progress_reporter(context: Any) -> ProgressCallback | None:
    """Progress notifications for a call (the SDK sends none unless the client gave a token).

    The tool runs in a worker thread; the notification is sent on the event
    loop, which ``anyio.from_thread`` reaches and waits for.
    """
    try:
        context.request_context  # noqa: B018 - raises outside a request
    except (AttributeError, ValueError):
        return None

    def report(done: int, total: int | None, message: str) -> None:
        anyio.from_thread.run(context.report_progress, float(done), total, message)

    return report


def _one_line(name: str, exc: ToolError) -> str:
    cause = exc.__cause__
    if isinstance(cause, ValidationError):
        # The SDK's message for bad arguments is pydantic's multi-line report.
        return f"Error executing tool {clip(name, 100)}: " + describe_validation_error(
            cause, subject="arguments"
        )
    return clip(" ".join(str(exc).split()), MAX_ERROR_CHARS)


@contextlib.asynccontextmanager
async def _claimed_stdin() -> AsyncIterator[Any]:
    """stdin's lines for the SDK (see :class:`OddIdLines`), with fd 0 pointed at /dev/null.

    The SDK claims fd 0 itself only when it reads stdin itself; as it does, the
    wire moves to a private descriptor so that no child reads the protocol.
    """
    private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    # closefd=False: a worker thread may still be blocked reading it at exit.
    wire = io.TextIOWrapper(
        os.fdopen(private, "rb", closefd=False), encoding="utf-8", errors="replace"
    )
    try:
        yield OddIdLines(anyio.wrap_file(wire))
    finally:
        os.dup2(private, 0)


async def _initialize_first(
    ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> HandlerResult:
    """Say what is wrong with a request sent before ``initialize``.

    The SDK answers it with a bare "Invalid request parameters", which sends a
    client looking at its arguments.
    """
    try:
        return await call_next(ctx)
    except MCPError as exc:
        if (
            exc.error.message == "Invalid request parameters"
            and ctx.request_id is not None
            and ctx.session.client_params is None
        ):
            raise MCPError(
                code=INVALID_REQUEST,
                message=f"{clip(ctx.method, 100)} before initialize: send initialize, "
                "then notifications/initialized, then your requests",
            ) from exc
        raise


def create_server(root: Path | None = None, *, run_id: str | None = None) -> ForgeServer:
    """The server for ``root`` (default: ``FORGE_CWD``, else the working dir), ready to run.

    When the default root cannot be used (see :func:`forge.config.project_root`),
    the server still runs and answers every tool call with that one error;
    nothing is created on disk.
    """
    try:
        service = ToolService.for_project(root, run_id=run_id)
    except ConfigError as exc:
        if root is not None:
            raise
        logger.error("%s", exc)
        return ForgeServer(None, problem=str(exc))
    return ForgeServer(service)


def serve() -> None:
    """Run the server on stdin/stdout until the client disconnects (``forge serve``)."""
    server = create_server()
    # What start-up built (modules, the SDK, plugins, schemas) lives as long as
    # the process: frozen, the collector stops walking it on every full
    # collection, which cost a large plan check or validate ~20 ms each.
    gc.freeze()
    server.run("stdio")
