"""``forge status``: the table, ``--line``, ``--json``, colours, and ``--watch`` in a pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge_testing import default_signal_dispositions, forge_executable

if TYPE_CHECKING:
    from forge_testing import RunForge


def _stamp(seconds_ago: float) -> str:
    moment = datetime.now(timezone.utc) - timedelta(seconds=seconds_ago)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _module(
    module_id: str, title: str, state: str, attempts: int = 0, score: float | None = None
) -> dict[str, Any]:
    return {
        "id": module_id,
        "title": title,
        "state": state,
        "status": {"done": "passed", "failed": "failed", "running": "running"}.get(state),
        "attempts": attempts,
        "score": score,
        "updatedAt": _stamp(30) if attempts else None,
    }


def write_status(project: Path, *, updated_ago: float = 2, started_ago: float = 199) -> None:
    """A status.json as the server writes it: 2 of 5 done, one running, one failed."""
    modules = [
        _module("db", "database schema", "done", 1, 1.0),
        _module("auth", "login flow", "done", 2, 1.0),
        _module("refresh", "refresh endpoint", "running", 1, 0.5),
        _module("api", "public api", "failed", 3, 0.25),
        _module("docs", "docs", "pending"),
    ]
    status = {
        "updatedAt": _stamp(updated_ago),
        "startedAt": _stamp(started_ago),
        "runId": "run-7",
        "planPath": ".forge/plans/auth.json",
        "objective": "Token refresh",
        "currentPhase": "validate",
        "lastTool": "validate",
        "counts": {"total": 5, "done": 2, "running": 1, "failed": 1, "pending": 1},
        "modules": modules,
    }
    (project / ".forge").mkdir(exist_ok=True)
    (project / ".forge" / "status.json").write_text(json.dumps(status), encoding="utf-8")
    # The failing module's attempt history: three failures, the same each time.
    history = project / ".forge" / "iterations" / "run-7"
    history.mkdir(parents=True, exist_ok=True)
    attempts = [
        {
            "attempt": n,
            "timestamp": _stamp(60 - n),
            "score": 0.25,
            "passed": False,
            "failures": ["command:pytest"],
        }
        for n in (1, 2, 3)
    ]
    (history / "api.json").write_text(
        json.dumps({"moduleId": "api", "runId": "run-7", "attempts": attempts}), encoding="utf-8"
    )


def test_line_for_a_recorded_status(run_forge: RunForge, project: Path) -> None:
    write_status(project)
    completed = run_forge("status", "--line")
    assert completed.returncode == 0
    # The run started 199 s before the status was written; a loaded machine may
    # take a few seconds to start forge, so the elapsed time is 3m19s or a little more.
    assert re.fullmatch(
        r"\[forge\] ####------ 2/5 \(1 failed\) \| VALIDATE \| refresh endpoint \| 3m(19|2\d)s\n",
        completed.stdout,
    ), completed.stdout


def test_line_is_silent_without_a_recent_status(run_forge: RunForge, project: Path) -> None:
    completed = run_forge("status", "--line")
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "", "")
    write_status(project, updated_ago=7200)
    completed = run_forge("status", "--line")
    assert (completed.returncode, completed.stdout) == (0, "")
    assert run_forge("status", "--line", "--max-age", "10000").stdout.startswith("[forge] ####")


def test_table_shows_plan_bar_and_modules(run_forge: RunForge, project: Path) -> None:
    write_status(project)
    completed = run_forge("status")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == "plan  .forge/plans/auth.json — Token refresh"
    assert lines[2].startswith("[############------------------] 2/5 passed, 1 running, 1 failed")
    rows = {line.split()[0]: line.split() for line in lines[4:]}
    assert rows["MODULE"][-1] == "NEXT"
    assert rows["db"][-3:] == ["1", "1.00", "PROCEED"]
    # Three attempts with the same failures: stuck, so escalate (from the attempt history).
    assert rows["api"][-4:] == ["failed", "3", "0.25", "ESCALATE"]
    assert rows["docs"][-3:] == ["0", "-", "-"]
    assert "\033[" not in completed.stdout


def test_json_adds_recommendations(run_forge: RunForge, project: Path) -> None:
    write_status(project)
    status = json.loads(run_forge("status", "--json").stdout)
    assert status["runId"] == "run-7"
    # Done modules proceed; api's history says it is stuck; refresh has no history to judge.
    assert [m["recommendation"] for m in status["modules"]] == [
        "PROCEED",
        "PROCEED",
        None,
        "ESCALATE",
        None,
    ]


def test_no_status_is_exit_1_with_one_line(run_forge: RunForge) -> None:
    completed = run_forge("status")
    assert completed.returncode == 1
    assert completed.stdout == ""
    assert len(completed.stderr.splitlines()) == 1
    assert "no status yet" in completed.stderr


def test_usage_errors(run_forge: RunForge) -> None:
    for args in (["--line", "--json"], ["--interval", "0"], ["--watch", "--line"]):
        completed = run_forge("status", *args)
        assert completed.returncode == 2, args
        assert completed.stderr.startswith("forge status: error:")
        assert len(completed.stderr.splitlines()) == 1


def test_validate_with_a_run_id_writes_the_status(run_forge: RunForge, project: Path) -> None:
    run_forge("validate", "--files", "x.py", "--module-id", "m1", "--run-id", "r1")
    status = json.loads(run_forge("status", "--json").stdout)
    assert status["runId"] == "r1"
    assert [(m["id"], m["state"], m["recommendation"]) for m in status["modules"]] == [
        ("m1", "failed", "RETRY")
    ]


# --- terminal ----------------------------------------------------------------------


def _spawn_in_pty(
    project: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [forge_executable(), *args],
        cwd=project,
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env={**os.environ, "TERM": "xterm", **(env or {})},
        start_new_session=True,
        preexec_fn=default_signal_dispositions,
    )
    os.close(terminal)
    return process, controller


def _read_until(controller: int, needle: bytes, timeout: float = 15) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{needle!r} not seen in {seen[-800:]!r}"
        ready, _, _ = select.select([controller], [], [], left)
        if ready:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the child closed the terminal
                break
            seen += chunk
    return seen


def _pty_output(project: Path, *args: str, env: dict[str, str] | None = None) -> bytes:
    """Everything a command writes to its terminal, until it exits."""
    process, controller = _spawn_in_pty(project, *args, env=env)
    output = b""
    try:
        while True:
            ready, _, _ = select.select([controller], [], [], 15)
            assert ready, f"no output in 15 s: {output[-800:]!r}"
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the child exited and the terminal is drained
                break
            if not chunk:
                break
            output += chunk
        assert process.wait(timeout=15) == 0
    finally:
        os.close(controller)
    return output


def test_colours_on_a_terminal_and_never_with_no_color(project: Path) -> None:
    write_status(project)
    coloured = _pty_output(project, "status")
    assert b"\033[32m" in coloured  # done rows and the bar in green
    plain = _pty_output(project, "status", env={"NO_COLOR": "1"})
    assert b"\033[" not in plain
    assert b"refresh endpoint" in plain


def test_watch_redraws_in_place(project: Path) -> None:
    write_status(project)
    process, controller = _spawn_in_pty(project, "status", "--watch", "--interval", "0.2")
    try:
        first = _read_until(controller, b"refresh endpoint")
        assert b"\033[H" in first  # drawn from the top of the screen, not scrolled
        assert b"2/5 passed" in first
        status_file = project / ".forge" / "status.json"
        status = json.loads(status_file.read_text(encoding="utf-8"))
        status["counts"]["done"] = 3
        status["counts"]["running"] = 0
        status["modules"][2]["state"] = "done"
        status_file.write_text(json.dumps(status), encoding="utf-8")
        refreshed = _read_until(controller, b"3/5 passed")
        screen = refreshed[refreshed.rindex(b"\033[H") :]
        assert b"3/5 passed" in screen and b"2/5 passed" not in screen
        os.killpg(process.pid, signal.SIGINT)
        # Keep reading: a full pty would block forge's last redraw and its exit.
        deadline = time.monotonic() + 15
        while process.poll() is None and time.monotonic() < deadline:
            if select.select([controller], [], [], 0.1)[0]:
                try:
                    os.read(controller, 65536)
                except OSError:
                    break
        assert process.wait(timeout=5) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)


def test_a_plan_title_with_control_characters_is_escaped_in_text_and_real_in_json(
    run_forge: RunForge, project: Path
) -> None:
    """A plan's title and objective reach status.json as written: printed raw, an escape
    sequence in them drove the terminal and a newline split the module's row in two."""
    title, objective = "x\x1b[31mred\ny", "obj\rX\x1b]0;owned\x07\x85"
    plan = {
        "objective": objective,
        "modules": [
            {
                "id": "m1",
                "title": title,
                "objective": "Deliver m1.",
                "files": ["a.py"],
                "verify": ["test -f a.py"],
                "doneWhen": "a.py is there.",
            }
        ],
    }
    (project / ".forge" / "plans").mkdir(parents=True)
    (project / ".forge" / "plans" / "p.json").write_text(json.dumps(plan), encoding="utf-8")
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    ran = run_forge("validate", "--plan", ".forge/plans/p.json", "--all", "--run-id", "r1")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    for args in (("status",), ("status", "--line")):
        shown = run_forge(*args).stdout
        assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", shown), (args, shown)
        assert r"x\x1b[31mred\ny" in shown, (args, shown)
    table = run_forge("status").stdout.splitlines()
    assert table[0] == r"plan  .forge/plans/p.json — obj\rX\x1b]0;owned\x07\x85"
    assert table[-1].split()[:3] == ["m1", r"x\x1b[31mred\ny", "passed"]
    status = json.loads(run_forge("status", "--json").stdout)
    assert (status["objective"], status["modules"][0]["title"]) == (objective, title)
    # On a terminal, validate's progress line names the module by its title too.
    drawn = _pty_output(project, "validate", "--plan", ".forge/plans/p.json", "--all")
    assert rb"validating m1 (x\x1b[31mred\ny)" in drawn
    assert title.encode() not in drawn
