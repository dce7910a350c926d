"""Issue 19, items 9 and 11: the stdio server under cancellation, a closed stdin, load and odd ids.

Raw JSON-RPC lines to the installed ``forge serve``, so the test sees exactly
what a client would: which requests are answered, when, and which processes
are still running afterwards.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forge_testing import live_processes_mentioning, mount_tmpfs, unmount
from mcp_wire import PATIENCE, Wire


@pytest.fixture
def wire(project: Path, serve_mode: str) -> Iterator[Wire]:
    server = Wire(project, serve_mode)
    try:
        yield server
    finally:
        server.close()
        # A failing test may leave its commands behind: only they (and this
        # test, which is not killed) have the project as their working dir.
        for proc in Path("/proc").iterdir():
            try:
                if (
                    proc.name.isdigit()
                    and int(proc.name) != os.getpid()
                    and (proc / "cwd").readlink() == project
                ):
                    os.kill(int(proc.name), signal.SIGKILL)
            except OSError:
                continue


def gone_within(marker: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while live_processes_mentioning(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def long_sleep() -> str:
    """A command that sleeps for a duration no other process is likely to use."""
    return f"sleep {3000 + uuid.uuid4().int % 5000}"


def test_a_cancelled_validate_kills_its_command(wire: Wire) -> None:
    wire.initialize()
    sleep = long_sleep()
    wire.call(1, "validate", {"moduleId": "m1", "commands": [f"{sleep} & {sleep}"]})
    deadline = time.monotonic() + PATIENCE
    while not live_processes_mentioning(sleep):
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    wire.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    assert gone_within(sleep, 5), "the cancelled command is still running"
    wire.call(2, "memory_recall", {"query": "anything"})
    assert "result" in wire.wait_for(2)  # still serving


def test_closing_stdin_stops_the_server_and_its_commands(wire: Wire) -> None:
    wire.initialize()
    sleep = long_sleep()
    wire.call(1, "validate", {"moduleId": "m1", "commands": [sleep]})
    deadline = time.monotonic() + PATIENCE
    while not live_processes_mentioning(sleep):
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    assert wire.process.stdin is not None
    wire.process.stdin.close()
    wire.process.wait(timeout=10)
    assert gone_within(sleep, 5)


def test_what_was_asked_before_stdin_closed_is_answered(wire: Wire) -> None:
    """A client that writes its requests and closes stdin (a pipe from a script) gets an
    answer to each quick one: the end of stdin does not cut off calls already read."""
    wire.initialize()
    wire.request(1, "tools/list")
    wire.call(2, "memory_recall", {"query": "anything"})
    wire.request(3, "ping")
    assert wire.process.stdin is not None
    wire.process.stdin.close()
    for request_id in (1, 2, 3):
        assert "result" in wire.wait_for(request_id), request_id
    assert wire.process.wait(timeout=PATIENCE) == 0


def test_ctrl_c_stops_the_server_and_its_commands(wire: Wire) -> None:
    """A server a person started in a terminal ends on Ctrl-C, as a closed stdin ends it,
    with the status of an interrupted command; its reading of stdin must not hold it."""
    wire.initialize()
    sleep = long_sleep()
    wire.call(1, "validate", {"moduleId": "m1", "commands": [sleep]})
    deadline = time.monotonic() + PATIENCE
    while not live_processes_mentioning(sleep) or not catches_sigint(wire.process.pid):
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    wire.process.send_signal(signal.SIGINT)
    assert wire.process.wait(timeout=10) == 130
    assert gone_within(sleep, 5)


def catches_sigint(pid: int) -> bool:
    """Whether ``pid`` handles SIGINT yet (Python, or the daemon-served session's shell)."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signal.SIGINT - 1) & 1)


def test_forty_long_validates_do_not_starve_a_quick_call(wire: Wire) -> None:
    wire.initialize()
    for n in range(40):
        wire.call(n, "validate", {"moduleId": f"m{n}", "commands": ["sleep 4"]})
    time.sleep(1.0)
    asked = time.monotonic()
    wire.call("quick", "memory_recall", {"query": "anything"})
    assert "result" in wire.wait_for("quick")
    assert time.monotonic() - asked < 2.0, "a quick call waited behind long ones"
    for n in range(40):
        reply = wire.wait_for(n)
        assert reply["result"]["structuredContent"]["passed"] is True
    # One wave: 40 x 4 s in about 4 s, not two waves of 8 s.
    assert time.monotonic() - asked < 7.5


@pytest.mark.parametrize("request_id", [1.5, {"a": 1}, None, [1]], ids=repr)
def test_a_request_with_an_odd_id_is_answered(wire: Wire, request_id: Any) -> None:
    wire.initialize()
    wire.call(request_id, "memory_recall", {"query": "x"})
    reply = wire.next_reply()
    assert reply["jsonrpc"] == "2.0" and reply["id"] in (request_id, None)
    assert "id" in reply["error"]["message"], reply
    wire.call(7, "memory_recall", {"query": "x"})
    assert "result" in wire.wait_for(7)


def test_a_call_before_initialize_is_told_to_initialize(wire: Wire) -> None:
    wire.call(1, "memory_recall", {"query": "x"})
    reply = wire.wait_for(1)
    assert "initialize" in json.dumps(reply), reply


def test_serve_in_an_unwritable_project_answers(tmp_path: Path, serve_mode: str) -> None:
    # It used to die with a traceback before answering initialize.
    project = tmp_path / "ro"
    mount_tmpfs(project, "size=1m,ro")
    server = Wire(project, serve_mode)
    try:
        server.initialize()
        server.call(1, "memory_recall", {"query": "x"})
        assert server.wait_for(1)["result"]["isError"] is False
        server.call(2, "validate", {"moduleId": "m1", "commands": ["true"]})
        reply = server.wait_for(2)["result"]
        assert reply["isError"] is True
        assert "Read-only file system" in reply["content"][0]["text"]
    finally:
        server.close()
        unmount(project)


def test_a_cancelled_validate_kills_its_type_checker(
    project: Path, monkeypatch: pytest.MonkeyPatch, serve_mode: str
) -> None:
    """The type checker runs in a thread of its own, beside the other checks: a cancel reaches it."""
    pytest.importorskip("forge_types")
    monkeypatch.setenv("FORGE_DISABLE_PLUGINS", "stubs")  # forge-types on, for this server
    sleep = long_sleep() + ".5"
    (project / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n", encoding="utf-8")
    (project / "app.py").write_text("x: int = 1\n", encoding="utf-8")
    fake = project / ".venv" / "bin" / "mypy"  # the project's own mypy, which never ends
    fake.parent.mkdir(parents=True)
    fake.write_text(
        f'#!/bin/sh\n[ "$1" = --version ] && {{ echo "mypy 1.0.0"; exit 0; }}\nexec {sleep}\n',
        encoding="utf-8",
    )
    fake.chmod(0o755)
    with contextlib.closing(Wire(project, serve_mode)) as wire:
        wire.initialize()
        wire.call(1, "validate", {"moduleId": "m1", "files": ["app.py"]})
        deadline = time.monotonic() + PATIENCE
        while not live_processes_mentioning(sleep):
            assert time.monotonic() < deadline, "the checker never started"
            time.sleep(0.05)
        cancel = {"requestId": 1}
        wire.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        assert gone_within(sleep, 5), "the cancelled call's checker is still running"
        wire.call(2, "memory_recall", {"query": "anything"})
        assert "result" in wire.wait_for(2)  # still serving
