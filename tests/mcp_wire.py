"""``forge serve`` on pipes, driven by raw JSON-RPC lines: what a client sees, and when."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from pathlib import Path
from typing import IO, Any

from forge_testing import forge_executable
from serve_modes import serve_environment

#: How long a reply may take on a loaded machine before the test gives up.
PATIENCE = 30.0


class Wire:
    """``forge serve`` on pipes: send JSON-RPC lines, read the replies by id."""

    def __init__(
        self,
        project: Path,
        mode: str,
        *,
        argv: list[str] | None = None,
        stderr: int | IO[bytes] = subprocess.DEVNULL,
    ) -> None:
        """Start ``argv`` (default: the installed ``forge serve``) served in ``mode``."""
        env = {**os.environ, **serve_environment(mode), "FORGE_CWD": str(project)}
        self.process = subprocess.Popen(
            argv or [forge_executable(), "serve"],
            cwd=project,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
        self.replies: dict[str, dict[str, Any]] = {}
        self._buffer = b""

    def send(self, message: dict[str, Any] | str) -> None:
        assert self.process.stdin is not None
        line = message if isinstance(message, str) else json.dumps(message)
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def request(self, request_id: Any, method: str, params: dict[str, Any] | None = None) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}})

    def call(self, request_id: Any, tool: str, arguments: dict[str, Any]) -> None:
        self.request(request_id, "tools/call", {"name": tool, "arguments": arguments})

    def initialize(self) -> None:
        self.request(
            "init",
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "wire", "version": "0"},
            },
        )
        self.wait_for("init")
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self, timeout: float) -> None:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise EOFError("the server closed stdout")
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            if line.strip():
                reply = json.loads(line)
                self.replies[json.dumps(reply.get("id"))] = reply

    def wait_for(self, request_id: Any, timeout: float = PATIENCE) -> dict[str, Any]:
        key = json.dumps(request_id)
        deadline = time.monotonic() + timeout
        while key not in self.replies:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no reply to {request_id!r} within {timeout} s")
            self._read(min(remaining, 0.1))
        return self.replies.pop(key)

    def next_reply(self, timeout: float = PATIENCE) -> dict[str, Any]:
        """The next reply, whatever its id."""
        deadline = time.monotonic() + timeout
        while not self.replies:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no reply within {timeout} s")
            self._read(min(remaining, 0.1))
        return self.replies.pop(next(iter(self.replies)))

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
