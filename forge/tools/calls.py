"""One tool call's context, shared by the MCP adapter and the worker thread that runs it.

anyio copies context variables into the worker thread, so the thread sees the
call the adapter set: its start is logged once (:class:`ToolCall`), and its
progress notifications reach the event loop (:func:`progress_reporter`).
"""

from __future__ import annotations

import inspect
import logging
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, get_type_hints

import anyio.from_thread
from pydantic import ValidationError

from forge.errors import ForgeError, clip
from forge.plugin_host.records import describe_exception
from forge.service.arguments import TOOL_REQUESTS
from forge.store.json_files import pretty_json
from forge.tools.descriptions import TEXT_REPLIES
from forge.validation_errors import describe_validation_error

if TYPE_CHECKING:
    from forge.service.tools import ToolService
    from forge.workspace import ProgressCallback

#: Longest error message returned: an error may quote the caller's input
#: (an unknown tool's name, a path), which can be megabytes long.
MAX_ERROR_CHARS = 500

logger = logging.getLogger("forge.mcp")


class ToolFailure(Exception):
    """A tool call that failed; its message is the one line the caller gets."""


def run_tool(
    service: ToolService, name: str, arguments: dict[str, Any], progress: ProgressCallback | None
) -> Any:
    """Run tool ``name`` on the caller's ``arguments``: its request model, its method, its status.

    Every failure is a :class:`ToolFailure` with one line: a bad argument or a
    refused request says what to fix; a bug in forge says the server is still
    running and logs the traceback to stderr.
    """
    method = getattr(service, name)
    model = TOOL_REQUESTS[name]
    try:
        request = model.model_validate(arguments)
        if progress is not None and "progress" in inspect.signature(method).parameters:
            returned = method(request, progress)
        else:
            returned = method(request)
    except ForgeError as exc:
        raise ToolFailure(clip(" ".join(str(exc).split()), MAX_ERROR_CHARS)) from exc
    except ValidationError as exc:
        raise ToolFailure(describe_validation_error(exc, subject="arguments", model=model)) from exc
    except Exception as exc:  # a bug: keep the server up, the traceback on stderr
        logger.exception("tool %s failed", name)
        raise ToolFailure(
            f"internal error ({describe_exception(exc)}); the server is still running, "
            "and its stderr has the traceback"
        ) from exc
    service.call_finished(name, returned)
    return returned


#: The progress reporter of the call running in this context (set per call;
#: anyio copies context variables into the worker thread that runs the tool).
current_progress: ContextVar[ProgressCallback | None] = ContextVar("forge_progress", default=None)


class ToolCall:
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
current_call: ContextVar[ToolCall | None] = ContextVar("forge_call", default=None)


def progress_reporter(context: Any) -> ProgressCallback | None:
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


def one_line_error(name: str, exc: BaseException) -> str:
    """The one line a failed call of tool ``name`` answers, from ``exc`` and its cause."""
    cause = exc.__cause__
    if isinstance(cause, ValidationError):
        # The SDK's message for bad arguments is pydantic's multi-line report.
        return f"Error executing tool {clip(name, 100)}: " + describe_validation_error(
            cause, subject="arguments", model=TOOL_REQUESTS.get(name)
        )
    return clip(" ".join(str(exc).split()), MAX_ERROR_CHARS)


def result_text(name: str, content: dict[str, Any]) -> str:
    """The text content of tool ``name``'s result ``content`` (its structured content).

    Memory replies are sentences a client tests as text ("duplicate" in it
    means a duplicate); every other tool's text is its result as JSON.
    """
    text_field = TEXT_REPLIES.get(name)
    if text_field is not None and text_field in content:
        return str(content[text_field])
    return pretty_json(content)


def tool_hints(name: str) -> dict[str, Any]:
    """``typing.get_type_hints`` of tool ``name``'s method (the MCP adapter's schemas).

    The annotations name models this module imports only when a tool needs
    them (see the ``TYPE_CHECKING`` block): they are imported here.
    """
    from forge.memory import MemoryRecallResult, MemorySaveResult
    from forge.parallel.models import MergeCheckReport
    from forge.plan.check import PlanReport
    from forge.plan.locate import PlanModuleRef
    from forge.service import arguments
    from forge.service.replies import IterationStateResult, SessionStateResult
    from forge.service.tools import ToolService

    names = {
        "IterationStateResult": IterationStateResult,
        "MemoryRecallResult": MemoryRecallResult,
        "MemorySaveResult": MemorySaveResult,
        "MergeCheckReport": MergeCheckReport,
        "PlanModuleRef": PlanModuleRef,
        "PlanReport": PlanReport,
        "SessionStateResult": SessionStateResult,
        **{name: value for name, value in vars(arguments).items() if name.endswith("Request")},
    }
    return get_type_hints(getattr(ToolService, name), localns=names)
