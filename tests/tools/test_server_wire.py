"""Lines a client library would never send, written raw to ``forge serve``'s stdin.

Invalid UTF-8, lone surrogates, nesting deeper than the SDK's parser allows,
garbage and valid JSON that is no JSON-RPC message: each request gets a
reply with its own id (a tool call gets a one-line error result), nothing
is written for a notification, and the server answers the next call.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forge_testing import forge_executable
from mcp_types import LATEST_PROTOCOL_VERSION, CallToolResult
from serve_modes import MODES, serve_environment, serving

REPLY_TIMEOUT = 20.0


class RawServer:
    """``forge serve`` driven line by line over pipes, with no MCP library in between."""

    def __init__(self, project: Path, home: Path, mode: str) -> None:
        env = {**os.environ, **serve_environment(mode), **own_settings(project, home)}
        self.project = project
        self.process = subprocess.Popen(
            [forge_executable(), "serve"],
            cwd=project,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin = self.process.stdin
        self.stdout = self.process.stdout
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.stdout, selectors.EVENT_READ)

    def send(self, line: bytes) -> None:
        """Write one line (the newline is added) and flush."""
        self.stdin.write(line + b"\n")
        self.stdin.flush()

    def reply(self, timeout: float = REPLY_TIMEOUT) -> dict[str, Any] | None:
        """The next line the server writes, parsed; ``None`` when none comes in ``timeout``."""
        if not self.selector.select(timeout):
            return None
        line = self.stdout.readline()
        assert line.endswith(b"\n"), line[:200]
        message: dict[str, Any] = json.loads(line)
        return message

    def request(self, request_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a well-formed request and return its reply."""
        self.send(
            json.dumps(
                {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
            ).encode()
        )
        reply = self.reply()
        assert reply is not None and reply["id"] == request_id, reply
        return reply

    def close(self) -> None:
        """Close stdin (the server's signal to stop) and wait for the process."""
        self.selector.close()
        self.stdin.close()
        try:
            self.process.wait(timeout=10)
        finally:
            self.stdout.close()
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def own_settings(project: Path, home: Path) -> dict[str, str]:
    """The module's server's project and ``FORGE_HOME``: its own, shared by its tests."""
    return {
        "FORGE_CWD": str(project),
        "FORGE_HOME": str(home),
        "FORGE_DISABLE_PLUGINS": "stubs,types",
    }


@pytest.fixture(scope="module", params=MODES)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RawServer]:
    """A started, initialized ``forge serve`` in a project of its own, shared by this module.

    Sharing it is part of the point: every test leaves it able to answer the next.
    Served directly, then by a daemon (:mod:`serve_modes`).
    """
    project = tmp_path_factory.mktemp("wire-project")
    home = tmp_path_factory.mktemp("wire-home")
    with serving(request.param, project, own_settings(project, home)) as mode:
        yield from _initialized(RawServer(project, home, mode))


def _initialized(raw: RawServer) -> Iterator[RawServer]:
    raw.request(
        0,
        "initialize",
        {
            "protocolVersion": LATEST_PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "1"},
        },
    )
    raw.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    yield raw
    raw.close()


def tool_call(request_id: int, tool: str, arguments: bytes) -> bytes:
    """A ``tools/call`` line whose arguments object is the raw bytes given."""
    head = f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", '
    return (
        head.encode()
        + b'"params": {"name": "'
        + tool.encode()
        + b'", "arguments": '
        + arguments
        + b"}}"
    )


def error_text(reply: dict[str, Any]) -> str:
    """The one-line message of a tool error result."""
    result = reply["result"]
    assert CallToolResult.model_validate(result).is_error, result  # a result the SDK can read
    text: str = result["content"][0]["text"]
    assert "\n" not in text and len(text) < 1_000, text
    return text


UNREADABLE_TOOL_CALLS = {
    "lone surrogate in a pattern": (
        "memory_save",
        rb'{"pattern": "a\ud800b", "category": "convention"}',
        "lone",
    ),
    "lone surrogate in an id": (
        "iteration_state",
        rb'{"moduleId": "\udc00", "action": "get"}',
        "surrogate",
    ),
    "lone surrogate in a path": ("validate", rb'{"moduleId": "m", "files": ["\udc00.py"]}', "lone"),
    "objects nested 5,000 deep": (
        "session_state",
        b'{"action": "save", "runId": "r", "state": '
        + b'{"a": ' * 5_000
        + b"1"
        + b"}" * 5_000
        + b"}",
        "recursion limit",
    ),
    "lists nested 3,000 deep": (
        "validate",
        b'{"moduleId": "m", "files": ' + b"[" * 3_000 + b"]" * 3_000 + b"}",
        "recursion limit",
    ),
    "a truncated object": ("forge_logs", b'{"limit": 5', "not valid JSON"),
}


@pytest.mark.parametrize("case", list(UNREADABLE_TOOL_CALLS), ids=list(UNREADABLE_TOOL_CALLS))
def test_an_unreadable_tool_call_gets_a_one_line_error_result(server: RawServer, case: str) -> None:
    tool, arguments, says = UNREADABLE_TOOL_CALLS[case]
    server.send(tool_call(7, tool, arguments))
    reply = server.reply()
    assert reply is not None, "no reply: the client would wait forever"
    assert reply["id"] == 7
    text = error_text(reply)
    assert text.startswith(f"Error executing tool {tool}: ") and says in text, text
    # The server is still there, and the error is in the log like any tool error.
    logs = server.request(8, "tools/call", {"name": "forge_logs", "arguments": {}})
    events = logs["result"]["structuredContent"]["entries"]
    assert any(e["event"] == f"{tool}_error" for e in events), events
    assert not list(server.project.glob(".forge/**/*.corrupt-*"))


def test_garbage_and_non_jsonrpc_lines_get_jsonrpc_errors(server: RawServer) -> None:
    server.send(b"this is not json")
    reply = server.reply()
    assert reply is not None and reply["id"] is None
    assert reply["error"]["code"] == -32700 and "not valid JSON" in reply["error"]["message"]

    server.send(b'{"jsonrpc": "2.0", "id": 11, "method": 5}')
    reply = server.reply()
    assert reply is not None and reply["id"] == 11
    assert reply["error"]["code"] == -32600 and "JSON-RPC 2.0" in reply["error"]["message"]

    server.send(b'{"jsonrpc": "1.0", "id": "old", "method": "tools/list"}')
    reply = server.reply()
    assert reply is not None and reply["id"] == "old" and reply["error"]["code"] == -32600

    assert server.request(12, "tools/list", {})["result"]["tools"]


def test_an_unreadable_notification_gets_no_reply(server: RawServer) -> None:
    server.send(b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": "\\ud800"}')
    server.send(b'{"jsonrpc": "2.0", "method": "notifications/progress", "params": [')
    # The next reply is the answer to the next request: nothing came in between.
    assert server.request(13, "tools/list", {})["result"]["tools"]


def test_invalid_utf8_is_read_with_replacement_characters(server: RawServer) -> None:
    # The SDK decodes stdin with errors="replace": the bytes become U+FFFD,
    # which no id may contain, so an id made of them is refused by name.
    server.send(tool_call(21, "iteration_state", b'{"moduleId": "m\xff\xfe", "action": "get"}'))
    reply = server.reply()
    assert reply is not None and reply["id"] == 21
    assert "moduleId" in error_text(reply)

    server.send(
        tool_call(22, "memory_save", b'{"pattern": "caf\xe9 au lait", "category": "convention"}')
    )
    reply = server.reply()
    assert reply is not None and reply["result"]["isError"] is False
    saved = (server.project / ".forge" / "memory" / "project.jsonl").read_text(encoding="utf-8")
    assert json.loads(saved)["pattern"] == "caf\ufffd au lait"
