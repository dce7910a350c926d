"""Issue 42: ``forge serve`` handed to a warm daemon, and a daemon started by a cold one.

Real ``forge serve`` processes over pipes and real daemons, each for its
test's own ``FORGE_HOME`` (so its own socket); ``no_daemon_left`` stops what a
failing test could not.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from forge_testing import RunForge
from mcp_wire import PATIENCE, Wire
from serve_modes import DAEMON, DIRECT

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="the daemon runs on Linux only"),
    pytest.mark.usefixtures("no_daemon_left"),
]


def daemon_pid(run_forge: RunForge) -> int | None:
    """The running daemon's pid, or ``None`` when none runs."""
    done = run_forge("daemon", "status")
    found = re.search(r"running \(pid (\d+)\)", done.stdout)
    return int(found.group(1)) if found else None


def served_count(run_forge: RunForge) -> int:
    """How many connections the running daemon has served."""
    found = re.search(r"(\d+) connections served", run_forge("daemon", "status").stdout)
    assert found is not None
    return int(found.group(1))


@pytest.fixture
def daemon(run_forge: RunForge) -> Iterator[int]:
    """A running daemon for this test's FORGE_HOME (its pid), stopped afterwards."""
    started = run_forge("daemon", "start", "--idle", "300")
    assert started.returncode == 0, started.stderr
    pid = daemon_pid(run_forge)
    assert pid is not None
    yield pid
    run_forge("daemon", "stop")


@contextlib.contextmanager
def session(project: Path, mode: str, **options: object) -> Iterator[Wire]:
    """An initialized ``forge serve`` on pipes, killed on the way out if still running."""
    wire = Wire(project, mode, **options)  # type: ignore[arg-type]
    try:
        wire.initialize()
        yield wire
    finally:
        wire.close()


def recall_answers(wire: Wire, request_id: int) -> bool:
    """Whether the session answers a quick call."""
    wire.call(request_id, "memory_recall", {"query": "anything"})
    return "result" in wire.wait_for(request_id)


def session_child(daemon: int, project: Path) -> int:
    """The daemon's child serving the session whose working dir is ``project``."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        children = Path(f"/proc/{daemon}/task/{daemon}/children").read_text(encoding="utf-8")
        for pid in children.split():
            with contextlib.suppress(OSError):
                if Path(f"/proc/{pid}/cwd").resolve() == project.resolve():
                    return int(pid)
        time.sleep(0.05)
    raise AssertionError(f"no child of the daemon serves {project}")


def imported_modules(importtime: str) -> set[str]:
    """The top-level packages named in ``-X importtime`` output."""
    return {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in importtime.splitlines()
        if line.startswith("import time:") and "|" in line
    }


@pytest.mark.parametrize("mode", [DAEMON, DIRECT])
def test_a_session_handed_to_the_daemon_imports_neither_mcp_nor_pydantic(
    run_forge: RunForge, project: Path, tmp_path: Path, mode: str
) -> None:
    """The ``forge serve`` process of a daemon-served session only relays; served directly, it
    imports both (the probe sees them)."""
    if mode == DAEMON:
        assert run_forge("daemon", "start", "--idle", "300").returncode == 0
    errors = tmp_path / "importtime.txt"
    with errors.open("wb") as stderr:
        argv = [sys.executable, "-X", "importtime", "-m", "forge", "serve"]
        with session(project, mode, argv=argv, stderr=stderr) as wire:
            wire.request(1, "tools/list")
            assert len(wire.wait_for(1)["result"]["tools"]) >= 7
    modules = imported_modules(errors.read_text(encoding="utf-8"))
    assert "forge" in modules  # the probe sees the process's imports
    if mode == DAEMON:
        assert served_count(run_forge) == 1
        assert {"mcp", "mcp_types", "pydantic", "pydantic_core"} & modules == set()
    else:
        assert {"mcp", "pydantic"} <= modules


def test_serve_with_no_daemon_starts_one_and_the_next_session_is_served_by_it(
    run_forge: RunForge, project: Path
) -> None:
    with session(project, DAEMON) as first:
        assert recall_answers(first, 1)
        deadline = time.monotonic() + 120
        while daemon_pid(run_forge) is None:
            assert time.monotonic() < deadline, "serve started no daemon"
            time.sleep(0.2)
    assert served_count(run_forge) == 0  # the first session was served by its own process
    with session(project, DAEMON) as second:
        assert recall_answers(second, 1)
    assert served_count(run_forge) == 1


def test_serve_with_the_daemon_switched_off_starts_none(run_forge: RunForge, project: Path) -> None:
    with session(project, DIRECT) as wire:
        assert recall_answers(wire, 1)
        time.sleep(2)  # a daemon started after the first answer would be listening by now
        wire.process.stdin.close()  # type: ignore[union-attr]
        assert wire.process.wait(timeout=PATIENCE) == 0
    assert daemon_pid(run_forge) is None


def test_a_hang_or_crash_in_one_session_reaches_no_other(daemon: int, tmp_path: Path) -> None:
    projects = [tmp_path / "one", tmp_path / "two"]
    for folder in projects:
        folder.mkdir()
    errors = tmp_path / "stderr.txt"
    with (
        errors.open("wb") as stderr,
        session(projects[0], DAEMON, stderr=stderr) as one,
        session(projects[1], DAEMON) as two,
    ):
        assert recall_answers(one, 1) and recall_answers(two, 1)
        child = session_child(daemon, projects[0])
        os.kill(child, signal.SIGSTOP)  # one session hangs
        assert recall_answers(two, 2)
        os.kill(child, signal.SIGKILL)  # and then crashes
        assert one.process.wait(timeout=PATIENCE) == 2  # its client sees it end, as an error
        assert "worker ended without an answer" in errors.read_text(encoding="utf-8")
        assert recall_answers(two, 3)
        two.process.stdin.close()  # type: ignore[union-attr]
        assert two.process.wait(timeout=PATIENCE) == 0


def test_a_daemon_is_not_idle_while_a_session_it_serves_lives(
    run_forge: RunForge, project: Path
) -> None:
    assert run_forge("daemon", "start", "--idle", "1").returncode == 0
    pid = daemon_pid(run_forge)
    with session(project, DAEMON) as wire:
        time.sleep(3)  # three idle periods
        assert daemon_pid(run_forge) == pid
        assert recall_answers(wire, 1)
        wire.process.stdin.close()  # type: ignore[union-attr]
        assert wire.process.wait(timeout=PATIENCE) == 0
    deadline = time.monotonic() + PATIENCE
    while daemon_pid(run_forge) is not None:
        assert time.monotonic() < deadline, "the daemon stayed once its session ended"
        time.sleep(0.2)


@pytest.mark.parametrize("level", ["INFO", "WARNING"])
def test_a_session_logs_to_its_own_stderr_at_its_own_level(
    serve_mode: str, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    """The session's FORGE_LOG_LEVEL and stderr, not the daemon's, whichever way it is served."""
    monkeypatch.setenv("FORGE_LOG_LEVEL", level)
    errors = tmp_path / "stderr.txt"
    with errors.open("wb") as stderr, session(project, serve_mode, stderr=stderr) as wire:
        wire.call(1, "validate", {"moduleId": "../x"})
        assert wire.wait_for(1)["result"]["isError"] is True
        wire.process.stdin.close()  # type: ignore[union-attr]
        wire.process.wait(timeout=PATIENCE)
    logged = "Tool 'validate' failed" in errors.read_text(encoding="utf-8")
    assert logged == (level == "INFO")


def unique_kib(pid: int) -> int:
    """``pid``'s unique memory (private pages), in KiB."""
    rollup = Path(f"/proc/{pid}/smaps_rollup").read_text(encoding="utf-8")
    return sum(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Private_"))


def catches(pid: int, signum: int) -> bool:
    """Whether ``pid`` has a handler for ``signum``."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    caught = int(re.search(r"SigCgt:\s*([0-9a-f]+)", status).group(1), 16)  # type: ignore[union-attr]
    return bool(caught >> (signum - 1) & 1)


def test_a_daemon_served_sessions_own_process_waits_as_a_shell(daemon: int, project: Path) -> None:
    """Eight sessions, eight of these: each waits as a POSIX shell, under half of the smallest
    interpreter (issue 42: 0.1-0.3 MiB of unique memory against 2.8)."""
    bare = subprocess.Popen([sys.executable, "-I", "-S", "-c", "import sys; sys.stdin.read()"],
                            stdin=subprocess.PIPE)  # fmt: skip
    with session(project, DAEMON) as wire:
        assert recall_answers(wire, 1)
        relay = wire.process.pid
        assert (
            "forge serve"
            in Path(f"/proc/{relay}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        )
        assert unique_kib(relay) <= unique_kib(bare.pid) // 2
        assert recall_answers(wire, 2)
    bare.communicate(b"")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_a_daemon_served_sessions_process_ends_its_child(
    daemon: int, project: Path, signum: int
) -> None:
    with session(project, DAEMON) as wire:
        assert recall_answers(wire, 1)
        child = session_child(daemon, project)
        deadline = time.monotonic() + PATIENCE
        while not catches(wire.process.pid, signum):
            assert time.monotonic() < deadline, "the session's process never handles the signal"
            time.sleep(0.05)
        wire.process.send_signal(signum)
        assert wire.process.wait(timeout=PATIENCE) == 128 + signum
        while Path(f"/proc/{child}").exists():
            assert time.monotonic() < deadline, "the session's child outlived its signal"
            time.sleep(0.05)


def write_plan(project: Path, criterion: str) -> None:
    """A plan of one module, ``m``, whose one acceptance criterion is the command ``criterion``."""
    plans = project / ".forge" / "plans"
    plans.mkdir(parents=True, exist_ok=True)
    module = {"id": "m", "title": "M", "objective": "o", "files": ["a.py"], "verify": ["true"],
              "doneWhen": "d", "acceptanceCriteria": [{"check": criterion}]}  # fmt: skip
    (plans / "plan.json").write_text(json.dumps({"modules": [module]}), encoding="utf-8")


def criteria_judged(project: Path) -> list[str]:
    """The acceptance criteria a daemon-served session's validate of module ``m`` judged."""
    with session(project, DAEMON) as wire:
        wire.call(1, "validate", {"moduleId": "m", "files": ["a.py"]})
        results = wire.wait_for(1)["result"]["structuredContent"]["results"]
    return [result["target"] for result in results if result["type"] == "acceptance"]


def test_a_session_follows_the_plan_the_daemon_read_at_start_and_then_its_rewrite(
    run_forge: RunForge, project: Path
) -> None:
    """The daemon reads the project's plan once for all its sessions (issue 42: each child held
    its own copy, 3 MiB at 1,000 modules); a plan rewritten since is read again."""
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    write_plan(project, "echo one")
    assert run_forge("daemon", "start", "--idle", "300").returncode == 0
    assert criteria_judged(project) == ["echo one"]
    write_plan(project, "echo three")
    assert criteria_judged(project) == ["echo three"]
    assert served_count(run_forge) == 2
