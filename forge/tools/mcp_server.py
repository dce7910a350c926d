"""The MCP adapter: forge's tools over stdio, on the ``mcp`` SDK's ``MCPServer``.

The only module that imports ``mcp`` (with :mod:`forge.tools.jsonrpc`, which it
alone uses). Each tool's signature is derived from its request model
(:mod:`forge.service.arguments`), its prose from :mod:`forge.tools.descriptions`,
and its work is the :class:`forge.service.tools.ToolService` method of its
name, which the CLI uses too. This module only translates: arguments into a
request model, errors into one-line error results, and calls into the
service's bookkeeping (a ``tool_call`` event, ``.forge/status.json``).
"""

from __future__ import annotations

import functools
import gc
import inspect
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp import Client
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.logging import configure_logging
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

from forge import __version__
from forge.errors import ConfigError, clip
from forge.runtime.cancellation import shut_down
from forge.service.arguments import TOOL_REQUESTS, tool_parameters
from forge.service.tools import ToolService
from forge.store.ids import is_valid_id
from forge.tools import session_start
from forge.tools.calls import (
    ToolCall,
    ToolFailure,
    current_call,
    current_progress,
    one_line_error,
    progress_reporter,
    result_text,
    run_tool,
    tool_hints,
)
from forge.tools.descriptions import DESCRIPTIONS, HINTS
from forge.tools.jsonrpc import INVALID_REQUEST, AnsweringReadStream, claimed_stdin, diagnose
from forge.tools.schemas import compact_schema
from forge.tools.workers import Workers
from forge.validate.run import serving

SERVER_NAME = "forge"
TOOL_NAMES = tuple(TOOL_REQUESTS)
logger = logging.getLogger("forge.mcp")


class ForgeServer(MCPServer):
    """``MCPServer`` plus forge's per-call bookkeeping and one-line errors."""

    def __init__(self, service: ToolService | None, *, problem: str = "") -> None:
        """Serve ``service``'s tools; with no service, every call answers ``problem``.

        A server whose project cannot be used (``FORGE_CWD`` names no folder)
        still starts, lists its tools and answers each call with the one-line
        reason, so the agent sees why instead of a dead connection.
        """
        super().__init__(
            name=SERVER_NAME,
            version=__version__,
            instructions=(
                "forge validates modules delivered by coding agents and keeps attempt "
                "history, memory, logs and session state in the project's .forge/ folder."
            ),
            log_level=session_start.log_level(),
            middleware=[_initialize_first],
        )
        self.service = service
        self.problem = problem
        self.workers = Workers()
        for name in TOOL_NAMES:
            self.add_tool(
                _tool_function(self, name),
                name=name,
                title=HINTS[name]["title"],
                description=DESCRIPTIONS[name],
                annotations=ToolAnnotations(**HINTS[name]),
                structured_output=True,
            )
        for tool in self._tool_manager.list_tools():  # the SDK reads its schema live
            tool.fn_metadata.output_schema = compact_schema(tool.fn_metadata.output_schema or {})

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Log the call, run the tool, make errors one line, rewrite status.json."""
        service = self.service
        if service is None:
            raise ToolError(self.problem)
        known = name in TOOL_REQUESTS
        # The tool's worker thread logs the call's start (one thread hop per call,
        # not two); a call the SDK refuses before the tool runs is logged here.
        call = ToolCall(name, arguments)
        tokens = current_progress.set(progress_reporter(context)), current_call.set(call)
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            message = one_line_error(name, exc)
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
            current_progress.reset(tokens[0])
            current_call.reset(tokens[1])
        if isinstance(result, CallToolResult) and result.structured_content is not None:
            text = result_text(name, result.structured_content)
            result = result.model_copy(update={"content": [TextContent(type="text", text=text)]})
        return result

    async def run_stdio_async(self) -> None:
        """Serve on stdin/stdout, answering lines the SDK cannot read instead of dropping them;
        return once stdin closes and the calls read before are answered (for a grace period
        at most), with every call's commands stopped."""
        try:
            async with (
                claimed_stdin() as stdin,
                stdio_server(stdin=stdin) as (read_stream, write_stream),
            ):
                read = AnsweringReadStream(read_stream, write_stream, self._answer_unreadable)
                await self._lowlevel_server.run(
                    read,
                    read.counting(write_stream),
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
    the status from what it returned (:func:`forge.tools.calls.run_tool`).
    """
    model = TOOL_REQUESTS[name]
    returns = tool_hints(name)["return"]

    def work(arguments: dict[str, Any]) -> Any:
        service = server.service
        if service is None:
            raise ToolError(server.problem)
        call = current_call.get()
        if call is not None:
            call.start(service)
            # The SDK drops argument names the tool does not have; the request
            # model refuses them, naming the closest real one.
            unknown = {k: v for k, v in call.arguments.items() if k not in arguments}
            arguments = {**arguments, **unknown}
        try:
            return run_tool(service, name, arguments, current_progress.get())
        except ToolFailure as exc:
            raise ToolError(str(exc)) from exc

    async def tool(**arguments: Any) -> Any:
        return await server.workers.run(name, functools.partial(work, arguments))

    tool.__name__ = name
    tool.__doc__ = model.__doc__
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        tool_parameters(model), return_annotation=returns
    )
    return tool


async def _initialize_first(
    ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> HandlerResult:
    """Say what is wrong with a request sent before ``initialize``.

    The SDK answers such a request with a bare "Invalid request parameters",
    which sends a client looking at its arguments.
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
    finally:
        session_start.started()


def prepare(rehearsal: Path) -> None:
    """Build the server now, for a session this process or a fork of it serves (the daemon's):
    one that served a session over the project ``rehearsal`` through an in-memory client."""
    session_start.keep(lambda: _rehearsed(rehearsal))


def _rehearsed(root: Path) -> ForgeServer:
    server = ForgeServer(ToolService.for_project(root))
    anyio.run(session_start.rehearse, Client(server), root)
    # What the rehearsal's event loop made stays with it: the session makes its own.
    server.service, server.workers = None, Workers()
    return server


def _server(service: ToolService | None, problem: str = "") -> ForgeServer:
    """The prepared server serving ``service``, or a new one when none was prepared."""
    server: ForgeServer | None = session_start.take()
    if server is None:
        return ForgeServer(service, problem=problem)
    server.service, server.problem = service, problem
    server.settings.log_level = session_start.log_level()
    configure_logging(server.settings.log_level)
    return server


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
        return _server(None, problem=str(exc))
    return _server(service)


def serve(then: Callable[[], None] | None = None) -> None:
    """Run the server on stdin/stdout until the client disconnects (``forge serve``).

    ``then`` runs once the session's start is over (:func:`session_start.session`):
    work that must not slow it (``forge serve`` starts a daemon there).
    """
    server = create_server()
    # What start-up built (modules, the SDK, plugins, schemas) lives as long as
    # the process: frozen, the collector stops walking it on every full
    # collection, which cost a large plan check or validate ~20 ms each.
    gc.freeze()
    engine = server.service.engine if server.service is not None else None
    with session_start.session(then), serving(engine):
        server.run("stdio")
