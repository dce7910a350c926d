"""Serving the page: a socket bound here (so a busy port is a one-line error), uvicorn on it.

The socket is bound before uvicorn starts, so the address printed is the one
really listened on (``--port 0`` picks a free port and prints it), and a
port in use, an address not of this machine or an unknown host name is a
usage error rather than a traceback.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys
import threading
import warnings
import webbrowser
from typing import TYPE_CHECKING, TextIO

from forge.errors import UsageError

if TYPE_CHECKING:
    from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def is_loopback(host: str) -> bool:
    """True when every address ``host`` names is a loopback address (only this machine)."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(
        ipaddress.ip_address(str(address).split("%", 1)[0]).is_loopback for address in addresses
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``; :class:`UsageError` saying why when it cannot be."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"--host {host}: not an address or a known host name ({exc})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(
                f"port {port} on {host} is in use: choose another with --port N "
                "(--port 0 takes any free one)"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise UsageError(f"--host {host} is not an address of this machine") from None
        if exc.errno == errno.EACCES:
            raise UsageError(f"port {port} needs privileges: use one above 1023") from None
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    """The page's address on the socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(root: Path, *, host: str, port: int, open_page: bool, out: TextIO) -> None:
    """Serve ``root``'s page until interrupted (Ctrl-C ends it as ``KeyboardInterrupt``)."""
    import uvicorn

    from forge.ui.app import create_app

    sock = bind(host, port)
    url = url_of(sock)
    loopback = is_loopback(host)
    print(f"forge ui: {url}  (read-only view of {root / '.forge'})", file=out)
    if loopback:
        print(
            f"forge ui: listening on {host} only: no other machine can connect "
            "(--host ADDR to listen elsewhere). Ctrl-C to stop.",
            file=out,
        )
    else:
        print(
            f"forge ui: listening on {host}: anyone who can reach it on port "
            f"{sock.getsockname()[1]} can read this project's plans, logs and memory. "
            "Ctrl-C to stop.",
            file=out,
        )
    out.flush()
    server: uvicorn.Server | None = None
    app = create_app(
        root, loopback_only=loopback, stopping=lambda: server is not None and server.should_exit
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        # An open page's event stream ends within a look of shutdown; this bounds the rest.
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    if open_page:
        threading.Timer(0.2, _open, args=(url,)).start()
    # A Ctrl-C right after the lines above, before uvicorn's loop starts, leaves its serve()
    # coroutine unstarted: Python's warning about it would follow "forge ui: stopped".
    warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


def _open(url: str) -> None:
    """Open the page in the user's browser (``BROWSER`` is honoured); say so when none opens."""
    try:
        opened = webbrowser.open(url)
    except Exception:  # a broken browser setting is no reason to stop serving
        opened = False
    if not opened:
        print(f"forge ui: no browser could be opened: open {url} yourself", file=sys.stderr)
