"""The ``command`` check: exit codes, output tails, timeouts, process-group cleanup."""

from __future__ import annotations

import contextvars
import functools
import json
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from forge_testing import forge_executable, live_processes_mentioning, signal_as_soon_as_started

from forge.checks.command_check import CHECK_ID
from forge.models import CommandResult
from forge.runtime.cancellation import cancellable
from forge.runtime.processes import TAIL_BYTES
from forge.test_runs.command_run import run_command

#: The ``command`` check's way of running a verify command.
run_verify = functools.partial(run_command, result_type=CHECK_ID)

if TYPE_CHECKING:
    from forge_testing import RunForge


def survivors(marker: str, patience: float = 5.0) -> list[str]:
    """Live processes mentioning ``marker`` once the kernel has had time to finish killing.

    SIGKILL is delivered at once but a loaded machine may take a moment to
    retire the process, so poll (bounded) instead of sleeping a fixed time.
    """
    deadline = time.monotonic() + patience
    while (alive := live_processes_mentioning(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive


def unique_sleep_seconds() -> int:
    """A sleep duration no other process on the machine is likely using, to find ours."""
    return 3000 + uuid.uuid4().int % 5000


def test_exit_code_and_output_tails(tmp_path: Path) -> None:
    result = run_verify("echo out; echo err >&2; exit 3", tmp_path, timeout=10)
    assert result.passed is False
    assert result.exit_code == 3
    assert result.stdout == "out\n"
    assert result.stderr == "err\n"
    assert result.timed_out is False
    assert result.message.startswith("exit 3 in ")
    assert result.failure_key == "command:echo out; echo err >&2; exit 3"


def test_runs_in_the_working_dir_through_the_shell(tmp_path: Path) -> None:
    (tmp_path / "marker.txt").write_text("here", encoding="utf-8")
    result = run_verify('cat marker.txt && test -n "$HOME"', tmp_path, timeout=10)
    assert result.passed, result.message
    assert result.stdout == "here"


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    seconds = unique_sleep_seconds()
    started = time.monotonic()
    result = run_verify(f"sh -c 'sleep {seconds} & sleep {seconds}'", tmp_path, timeout=2)
    elapsed = time.monotonic() - started
    assert elapsed < 5
    assert result.timed_out is True
    assert result.passed is False
    assert "timed out after 2 s" in result.message
    assert survivors(f"sleep {seconds}") == []


def test_children_that_ignore_sigterm_are_still_killed(tmp_path: Path) -> None:
    seconds = unique_sleep_seconds()
    script = f"trap '' TERM; sleep {seconds} & sleep {seconds}; wait"
    result = run_verify(f'sh -c "{script}"', tmp_path, timeout=1)
    assert result.timed_out
    assert survivors(f"sleep {seconds}") == []


def test_background_leftovers_are_cleaned_up_after_a_normal_exit(tmp_path: Path) -> None:
    seconds = unique_sleep_seconds()
    started = time.monotonic()
    result = run_verify(f"sleep {seconds} & echo started", tmp_path, timeout=30)
    assert time.monotonic() - started < 3
    assert result.passed and result.stdout == "started\n"
    assert survivors(f"sleep {seconds}") == []


def test_a_child_that_starts_its_own_session_is_killed_on_timeout(tmp_path: Path) -> None:
    # Issue 19, item 10: setsid takes the child out of the process group, so
    # killing the group alone left it running for good.
    seconds = unique_sleep_seconds()
    result = run_verify(
        f"setsid sh -c 'sleep {seconds}' > /dev/null 2>&1 & sleep {seconds}", tmp_path, timeout=1
    )
    assert result.timed_out
    assert survivors(f"sleep {seconds}") == []


def test_a_double_forked_daemon_is_cleaned_up_after_a_normal_exit(tmp_path: Path) -> None:
    seconds = unique_sleep_seconds()
    script = f"( setsid sh -c 'sleep {seconds}' > /dev/null 2>&1 & ) ; echo started"
    result = run_verify(script, tmp_path, timeout=30)
    assert result.passed and result.stdout == "started\n"
    assert survivors(f"sleep {seconds}") == []


def test_a_cancelled_call_stops_its_command_and_its_group_at_once(tmp_path: Path) -> None:
    # Issue 19, item 9: notifications/cancelled left the command running to its timeout.
    seconds = unique_sleep_seconds()
    results: list[CommandResult] = []
    with cancellable() as cancel:
        context = contextvars.copy_context()  # what anyio.to_thread hands the worker
    worker = threading.Thread(
        target=context.run,
        args=(
            lambda: results.append(run_verify(f"sleep {seconds} & sleep {seconds}", tmp_path, 600)),
        ),
    )
    worker.start()
    time.sleep(0.5)
    started = time.monotonic()
    cancel.set()
    worker.join(10)
    assert not worker.is_alive() and time.monotonic() - started < 3
    (result,) = results
    assert not result.passed and not result.timed_out
    assert result.message.startswith("cancelled after ")
    assert survivors(f"sleep {seconds}") == []


def test_a_command_that_closes_its_output_is_not_cut_short(tmp_path: Path) -> None:
    result = run_verify("exec >/dev/null 2>&1; sleep 1; exit 4", tmp_path, timeout=10)
    assert result.exit_code == 4
    assert result.timed_out is False
    assert result.duration_ms >= 1000


def test_output_is_capped_to_its_tail(tmp_path: Path) -> None:
    command = "i=0; while [ $i -lt 3000 ]; do echo line-$i; i=$((i+1)); done; echo THE-END"
    result = run_verify(command, tmp_path, timeout=30)
    assert result.passed
    assert len(result.stdout.encode()) <= TAIL_BYTES
    assert result.stdout.endswith("line-2999\nTHE-END\n")
    assert result.stdout_bytes > TAIL_BYTES


def test_fifty_megabytes_of_output_keeps_memory_bounded(run_forge: RunForge, project: Path) -> None:
    """Run the real CLI on a command printing 50 MB; compare its peak memory with a quiet one."""

    def peak_rss_kb(command: str) -> tuple[int, dict[str, object]]:
        probe = (
            "import json, resource, subprocess, sys\n"
            "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
            "print(json.dumps([resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.stdout]))\n"
        )
        forge_bin = str(Path(sys.executable).parent / "forge")
        out = subprocess.run(
            [sys.executable, "-c", probe, forge_bin, "validate", "--command", command, "--json"],
            cwd=project,
            capture_output=True,
            text=True,
            check=True,
        )
        rss, report = json.loads(out.stdout)
        return rss, json.loads(report)

    quiet_rss, _ = peak_rss_kb("echo small")
    loud_rss, report = peak_rss_kb("head -c 52428800 /dev/zero | tr '\\0' 'x'; echo")
    result = report["results"][0]
    assert result["stdoutBytes"] == 52428800 + 1
    assert len(result["stdout"]) <= TAIL_BYTES
    # Holding the output would cost at least 50 MB more than the quiet run.
    assert loud_rss - quiet_rss < 20 * 1024, (quiet_rss, loud_rss)


def test_command_results_through_the_cli(run_forge: RunForge) -> None:
    completed = run_forge("validate", "--command", "true", "--command", "exit 7", "--json")
    assert completed.returncode == 1
    results = json.loads(completed.stdout)["results"]
    assert [(r["target"], r["passed"], r["exitCode"]) for r in results] == [
        ("true", True, 0),
        ("exit 7", False, 7),
    ]


def test_per_call_timeout_and_config_timeout(run_forge: RunForge, project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.forge]\ncommand-timeout = 1\n", encoding="utf-8")
    completed = run_forge("validate", "--command", "sleep 5", "--json")
    assert json.loads(completed.stdout)["results"][0]["timedOut"] is True
    completed = run_forge("validate", "--command", "sleep 1.5", "--timeout", "4", "--json")
    assert json.loads(completed.stdout)["results"][0]["passed"] is True


def test_ctrl_c_in_the_cli_kills_the_running_command(project: Path) -> None:
    """Ctrl-C the moment the command appears, while forge is still setting it up, a few times."""
    for _ in range(6):
        seconds = unique_sleep_seconds()
        forge = signal_as_soon_as_started(
            [forge_executable(), "validate", "--module-id", "m1", "--command", f"sleep {seconds}"],
            f"sleep {seconds}",
            signal.SIGINT,
            project,
        )
        _, stderr = forge.communicate(timeout=30)
        assert forge.returncode == 130, stderr
        assert "Traceback" not in stderr
        assert survivors(f"sleep {seconds}") == []


def test_ctrl_c_stops_a_plan_validated_modules_at_once(project: Path) -> None:
    """``--all --jobs 2``: modules run in threads; Ctrl-C stops theirs commands and forge at once.

    The kernel may hand the signal to any thread: the main thread, waiting for the
    modules, must still see it (it did not, and waited for every command to end).
    """
    for _ in range(3):
        seconds = unique_sleep_seconds()
        modules = [
            {"id": module_id, "title": module_id, "objective": "wait", "files": ["plan.json"],
             "verify": [f"sleep {seconds}"], "doneWhen": "it ran"}
            for module_id in ("a", "b")
        ]  # fmt: skip
        plan = project / "plan.json"
        plan.write_text(json.dumps({"modules": modules}), encoding="utf-8")
        argv = [forge_executable(), "validate", "--plan", str(plan), "--all", "--jobs", "2"]
        forge = signal_as_soon_as_started(argv, f"sleep {seconds}", signal.SIGINT, project)
        _, stderr = forge.communicate(timeout=30)
        assert forge.returncode == 130, stderr
        assert "Traceback" not in stderr
        assert survivors(f"sleep {seconds}") == []
