"""The Starlette application: the page, its static files, JSON views and one event stream.

Every route is a ``GET``. JSON answers are the models of :mod:`forge.ui.models`;
a bad query parameter is a 400 with one line saying what was wrong, and a
failure of forge's own is a 500 with one line and a traceback on stderr:
the server goes on either way. Views are plain functions run in worker
threads (they read files); the event stream is async and looks at the files
every :data:`POLL_SECONDS`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
from starlette.applications import Starlette
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from forge.errors import ForgeError, UsageError, clip
from forge.store.forge_dir import valid_id, valid_run_id
from forge.ui.models import ENDPOINT_MODELS, Problem
from forge.ui.reading import PeekingForgeDir, run_argument
from forge.ui.watch import Watcher

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from forge.models import WireModel

logger = logging.getLogger("forge.ui")

#: Seconds between looks at the watched files, and between keep-alive comments.
POLL_SECONDS = 0.5
KEEPALIVE_SECONDS = 15.0
#: Host names a server bound to the loopback answers to (a DNS-rebinding page
#: that points another name at 127.0.0.1 is refused).
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
#: No script, style or connection but the page's own; no inline script at all.
_SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def create_app(
    root: Path,
    *,
    loopback_only: bool = True,
    stopping: Callable[[], bool] = lambda: False,
    poll_seconds: float = POLL_SECONDS,
) -> ASGIApp:
    """The ``forge ui`` application over project ``root``.

    :param loopback_only: answer only requests addressed to a loopback name.
    :param stopping: true once the server is shutting down: event streams end.
    """
    from forge.memory import Memory
    from forge.store.home import global_memory_file

    forge_dir = PeekingForgeDir(root)
    memory = Memory(forge_dir.project_memory, global_memory_file(), index_files=False)
    static = _static_files()

    def page(request: Request) -> Response:
        return _file(static["index.html"], "index.html")

    def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static or name == "index.html":
            return _problem(404, f"no static file {clip(name, 80)!r}")
        return _file(static[name], name)

    def runs(request: Request) -> Response:
        from forge.ui.reading import runs_view

        return _answer(lambda q: runs_view(forge_dir), request)

    def graph(request: Request) -> Response:
        from forge.ui.graph import graph_view

        return _answer(lambda q: graph_view(forge_dir, _run(q), _max_attempts(root)), request)

    def module(request: Request) -> Response:
        from forge.ui.module import module_view

        def view(q: dict[str, str]) -> WireModel:
            module_id = valid_id(_required(q, "id"), "id")
            return module_view(forge_dir, _run(q), module_id, _max_attempts(root))

        return _answer(view, request)

    def log(request: Request) -> Response:
        from forge.ui.panels import DEFAULT_EVENTS, log_view

        def view(q: dict[str, str]) -> WireModel:
            module_id = q.get("module") or None
            return log_view(
                forge_dir,
                _run(q),
                module_id=valid_id(module_id, "module") if module_id else None,
                phase=q.get("phase") or None,
                severity=q.get("severity") or None,
                limit=_int(q, "limit", DEFAULT_EVENTS),
            )

        return _answer(view, request)

    def sessions(request: Request) -> Response:
        from forge.ui.panels import sessions_view

        def view(q: dict[str, str]) -> WireModel:
            session = q.get("session")
            return sessions_view(forge_dir, valid_run_id(session, "session") if session else None)

        return _answer(view, request)

    def memories(request: Request) -> Response:
        from forge.ui.panels import DEFAULT_MEMORIES, memory_view

        return _answer(
            lambda q: memory_view(
                memory,
                q.get("q", ""),
                scope=q.get("scope") or "all",
                category=q.get("category") or None,
                limit=_int(q, "limit", DEFAULT_MEMORIES),
            ),
            request,
        )

    def schema(request: Request) -> Response:
        schemas = {
            path: model.model_json_schema(by_alias=True) for path, model in ENDPOINT_MODELS.items()
        }
        return Response(json.dumps(schemas), media_type="application/json")

    async def events(request: Request) -> Response:
        try:
            run = _run(dict(request.query_params))
        except UsageError as exc:
            return _problem(400, str(exc))
        watcher = Watcher(forge_dir, run, list(memory.files.values()))
        return StreamingResponse(
            _stream(watcher, stopping, poll_seconds),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/static/{name}", asset),
            Route("/api/runs", runs),
            Route("/api/graph", graph),
            Route("/api/module", module),
            Route("/api/log", log),
            Route("/api/sessions", sessions),
            Route("/api/memory", memories),
            Route("/api/schema", schema),
            Route("/api/events", events),
        ]
    )
    return _Guard(app, loopback_only=loopback_only)


async def _stream(
    watcher: Watcher, stopping: Callable[[], bool], poll_seconds: float
) -> AsyncIterator[str]:
    """Server-sent events: ``hello`` with the run shown, then ``change`` with topics."""
    yield "retry: 2000\n\n"
    await anyio.to_thread.run_sync(watcher.changes)  # the first look sets the baseline
    yield f"event: hello\ndata: {json.dumps({'run': watcher.run})}\n\n"
    quiet = 0.0
    while not stopping():
        await anyio.sleep(poll_seconds)
        try:
            topics = await anyio.to_thread.run_sync(watcher.changes)
        except Exception:  # a look that failed is no reason to end the page's stream
            logger.warning("watching .forge failed", exc_info=True)
            continue
        if topics:
            quiet = 0.0
            yield f"event: change\ndata: {json.dumps({'topics': sorted(topics)})}\n\n"
        else:
            quiet += poll_seconds
            if quiet >= KEEPALIVE_SECONDS:
                quiet = 0.0
                yield ": still here\n\n"


def _answer(view: Callable[[dict[str, str]], WireModel], request: Request) -> Response:
    """Run a view on the query parameters; its model as JSON, or a one-line problem."""
    try:
        model = view(dict(request.query_params))
    except UsageError as exc:
        return _problem(400, str(exc))
    except ForgeError as exc:
        return _problem(500, str(exc))
    except Exception as exc:
        logger.exception("forge ui: %s failed", request.url.path)
        return _problem(500, f"internal error: {type(exc).__name__}: {clip(str(exc), 200)}")
    return Response(
        model.model_dump_json(by_alias=True),
        media_type="application/json",
        headers={"cache-control": "no-store"},
    )


def _problem(status: int, message: str) -> Response:
    return Response(
        Problem(error=message).model_dump_json(by_alias=True),
        status_code=status,
        media_type="application/json",
        headers={"cache-control": "no-store"},
    )


def _run(query: dict[str, str]) -> str | None:
    return run_argument(query.get("run"))


def _required(query: dict[str, str], name: str) -> str:
    value = query.get(name)
    if not value:
        raise UsageError(f"the query needs {name}=")
    return value


def _int(query: dict[str, str], name: str, default: int) -> int:
    text = query.get(name)
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{name} must be a whole number, not {clip(text, 40)!r}") from None


def _max_attempts(root: Path) -> int:
    """The project's attempt limit (``[tool.forge]``); forge's default when it cannot be read."""
    from forge.config import ForgeConfig, load_config

    try:
        return load_config(root).max_attempts
    except ForgeError:
        return ForgeConfig().max_attempts


def _static_files() -> dict[str, bytes]:
    """The page's files, read once from the package (wherever it is installed)."""
    folder = resources.files("forge.ui").joinpath("static")
    return {
        item.name: item.read_bytes()
        for item in folder.iterdir()
        if item.is_file() and Path(item.name).suffix in _TYPES
    }


def _file(data: bytes, name: str) -> Response:
    return Response(
        data,
        media_type=_TYPES[Path(name).suffix],
        headers={"cache-control": "no-cache"},
    )


class _Guard:
    """Around the app: requests to another host name refused, security headers on every answer."""

    def __init__(self, app: ASGIApp, *, loopback_only: bool) -> None:
        self.app = app
        self.loopback_only = loopback_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.loopback_only and _host_name(scope) not in LOOPBACK_NAMES:
            await _problem(421, "this server answers only to 127.0.0.1, localhost and [::1]")(
                scope, receive, send
            )
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def _host_name(scope: Scope) -> str:
    """The host name a request was addressed to, without its port or IPv6 brackets."""
    host = next(
        (value.decode("latin-1") for key, value in scope["headers"] if key == b"host"), ""
    ).lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host
