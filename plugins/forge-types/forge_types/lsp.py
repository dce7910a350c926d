"""A minimal Language Server Protocol client over a child's stdin/stdout (pyrefly lsp).

Only what the warm checker needs: initialize, open and change documents, pull
diagnostics (``textDocument/diagnostic``), answer the server's own requests
(``workspace/configuration`` with the settings given), shut down.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from forge_types.processes import reap

#: Answers the server's ``workspace/configuration`` items: section -> settings.
Settings = Callable[[str | None], Any]


class LspError(Exception):
    """The server died, answered with an error, or did not answer in time."""


class LspClient:
    """One language server process and the requests in flight to it."""

    def __init__(self, argv: list[str], cwd: Path, settings: Settings) -> None:
        self._process = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self._settings = settings
        self._next = 0
        self._waiting: dict[int, tuple[threading.Event, list[Any]]] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        #: Work the server reported begun (``$/progress`` begin) and not yet ended.
        self._active: set[object] = set()
        self._begun = 0
        self._changed = 0.0
        self._progress = threading.Condition()
        #: Set once the server asked for its settings and was answered.
        self._configured = threading.Event()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    @property
    def alive(self) -> bool:
        """Whether the server process still runs."""
        return self._process.poll() is None

    def request(self, method: str, params: Any, timeout: float) -> Any:
        """Send a request and wait for its result; :class:`LspError` otherwise."""
        with self._lock:
            self._next += 1
            ident = self._next
            done = threading.Event()
            box: list[Any] = []
            self._waiting[ident] = (done, box)
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        if not done.wait(timeout) or not box:
            with self._lock:
                self._waiting.pop(ident, None)
            raise LspError(f"{method}: no answer within {timeout:g} s")
        answer = box[0]
        if "error" in answer:
            raise LspError(f"{method}: {answer['error'].get('message', answer['error'])}")
        return answer.get("result")

    @property
    def begun(self) -> int:
        """How many pieces of work the server has reported begun so far."""
        with self._progress:
            return self._begun

    def settle(self, since: int, grace: float, quiet: float, timeout: float) -> bool:
        """Wait until work begun after ``since`` has all ended and none began for ``quiet``.

        When nothing begins within ``grace`` seconds there was nothing to do.
        False on ``timeout`` or when the server died.
        """
        deadline = time.monotonic() + timeout
        started = time.monotonic()
        with self._progress:
            while True:
                now = time.monotonic()
                if self._begun > since and not self._active and now - self._changed >= quiet:
                    return True
                if self._begun == since and now - started >= grace:
                    return True
                left = deadline - now
                if left <= 0 or not self.alive:
                    return False
                self._progress.wait(min(left, 0.02))

    def wait_configured(self, timeout: float) -> bool:
        """Wait until the server has asked for its settings (``workspace/configuration``)
        and the answer is on its way; False if it did not ask within ``timeout``."""
        return self._configured.wait(timeout)

    def notify(self, method: str, params: Any) -> None:
        """Send a notification."""
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def close(self) -> None:
        """Ask the server to exit, then make sure it has."""
        with contextlib.suppress(LspError, OSError, ValueError):
            self.request("shutdown", None, timeout=2)
            self.notify("exit", None)
        reap(self._process)

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        stdin = self._process.stdin
        if stdin is None:
            raise LspError("the server has no input")
        try:
            with self._write_lock:
                stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                stdin.flush()
        except (OSError, ValueError) as exc:
            raise LspError(f"the server is gone: {exc}") from None

    def _read_loop(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        while True:
            message = read_message(stdout)
            if message is None:
                break
            if "method" in message and "id" in message:
                self._answer(message)
            elif message.get("method") == "$/progress":
                self._track(message.get("params") or {})
            elif "id" in message:
                with self._lock:
                    found = self._waiting.pop(message["id"], None)
                if found is not None:
                    found[1].append(message)
                    found[0].set()
        with self._lock:  # the server is gone: nobody waits for it any longer
            for done, _ in self._waiting.values():
                done.set()
            self._waiting.clear()

    def _track(self, params: dict[str, Any]) -> None:
        token = params.get("token")
        kind = (params.get("value") or {}).get("kind")
        with self._progress:
            if kind == "begin":
                self._begun += 1
                self._active.add(token)
            elif kind == "end":
                self._active.discard(token)
            self._changed = time.monotonic()
            self._progress.notify_all()

    def _answer(self, message: dict[str, Any]) -> None:
        result: Any = None
        if message["method"] == "workspace/configuration":
            items = message.get("params", {}).get("items", [])
            result = [self._settings(item.get("section")) for item in items]
        with contextlib.suppress(LspError):
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        if message["method"] == "workspace/configuration":
            self._configured.set()


def read_message(stream: IO[bytes]) -> dict[str, Any] | None:
    """The next ``Content-Length``-framed JSON message (LSP); None at the end."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii", errors="replace").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length is None:
        return None
    body = stream.read(length)
    try:
        message = json.loads(body)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}
