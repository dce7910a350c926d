"""``forge ui``: where it listens and says so, one-line errors, Ctrl-C ends it with 0."""

from __future__ import annotations

import contextlib
import http.client
import os
import select
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from forge_testing import RunForge, default_signal_dispositions, forge_executable, one_line_error


def test_a_bad_port_or_host_is_one_line_and_exit_2(project: Path, run_forge: RunForge) -> None:
    assert "a port is 0 to 65535" in one_line_error(run_forge("ui", "--port", "70000"))
    assert "not a port number" in one_line_error(run_forge("ui", "--port", "http"))
    line = one_line_error(run_forge("ui", "--port", "0", "--host", "no-such-host.invalid"))
    assert "--host no-such-host.invalid" in line
    line = one_line_error(run_forge("ui", "--port", "0", "--host", "192.0.2.1"))
    assert "not an address of this machine" in line
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_line_error(run_forge("ui", "--port", str(port), timeout=30))
    assert f"port {port} on 127.0.0.1 is in use" in line and "--port 0" in line
    assert not (project / ".forge").exists()


@contextlib.contextmanager
def serving(project: Path, *args: str) -> Iterator[tuple[list[str], list[str]]]:
    """``forge ui`` started; yields its first two lines, and (once it ended) its stderr
    lines and exit code, after a Ctrl-C on leaving."""
    process = subprocess.Popen(
        [forge_executable(), "ui", "--port", "0", *args],
        cwd=project,
        env={**os.environ, "FORGE_CWD": str(project)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signal_dispositions,
    )
    ended: list[str] = []
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, "forge ui said nothing"
        # Both lines are written and flushed together.
        yield [process.stdout.readline(), process.stdout.readline()], ended
    finally:
        process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        ended.extend([str(process.returncode), *err.splitlines()])


def test_it_listens_on_the_loopback_by_default_says_so_and_stops_on_ctrl_c(project: Path) -> None:
    with serving(project) as (lines, ended):
        assert lines[0].startswith("forge ui: http://127.0.0.1:")
        assert str(project / ".forge") in lines[0]
        assert "listening on 127.0.0.1 only" in lines[1] and "--host" in lines[1]
    assert ended == ["0", "forge ui: stopped"]


def test_another_address_needs_the_flag_and_says_who_can_read(project: Path) -> None:
    with serving(project, "--host", "0.0.0.0") as (lines, ended):
        assert lines[0].startswith("forge ui: http://0.0.0.0:")
        assert "anyone who can reach it" in lines[1]
        port = int(lines[0].split(":")[3].split("/")[0])
        # Listening everywhere: a request by another name is answered.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        connection.request("GET", "/api/runs", headers={"Host": "my-machine.lan"})
        assert connection.getresponse().status == 200
        connection.close()
    assert ended[0] == "0"


def test_an_open_event_stream_does_not_hold_the_server_up(project: Path) -> None:
    with serving(project) as (lines, ended):
        port = int(lines[0].split(":")[3].split("/")[0])
        stream = socket.create_connection(("127.0.0.1", port), timeout=20)
        stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = b""
        while b"event: hello" not in received:
            chunk = stream.recv(4096)
            assert chunk, received
            received += chunk
        stopping = time.monotonic()
    # Ctrl-C with the stream open: the server ends by itself (not killed), soon.
    assert ended[0] == "0", ended
    assert time.monotonic() - stopping < 5
    stream.settimeout(5)
    while stream.recv(4096):  # and the stream was closed
        pass
    stream.close()


def test_open_hands_the_address_to_the_users_browser(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = tmp_path / "opened"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n', encoding="utf-8")
    browser.chmod(0o755)
    monkeypatch.setenv("BROWSER", str(browser))  # Python's webbrowser runs it
    with serving(project, "--open") as (lines, _):
        deadline = time.monotonic() + 20
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    assert opened.read_text(encoding="utf-8").strip() == lines[0].split()[2]
