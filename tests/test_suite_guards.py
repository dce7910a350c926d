"""The suite holds however it is started, and leaves nothing running (``forge_suite``).

Each test runs pytest itself, in a child, the way a developer or a CI script would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from forge_testing import RUN_VARIABLE

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

#: The tests that send SIGINT to a forge they started (issue 32).
SIGNALLING = (
    "tests/checks/test_command_check.py::test_ctrl_c_in_the_cli_kills_the_running_command",
    "tests/test_new_user.py::test_ctrl_c_during_validate_says_so",
    "tests/cli/test_cli_status.py::test_watch_redraws_in_place",
)


def pytest_in_child(
    args: list[str], cwd: Path, *, ignore_sigint: bool = False
) -> subprocess.CompletedProcess[str]:
    """``python -m pytest ARGS`` in ``cwd``, as a script would start it; its output."""

    def as_started() -> None:
        if ignore_sigint:  # what a shell does for 'cmd &' in a script, and nohup inherits
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGQUIT, signal.SIG_IGN)

    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTEST_", "FORGE_")) and name != RUN_VARIABLE
    }
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env={**env, "PYTHONPATH": str(TESTS)},
        preexec_fn=as_started,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_tests_that_signal_a_child_pass_when_the_suite_ignores_sigint(tmp_path: Path) -> None:
    """Started as 'cmd &' (SIGINT ignored, and inherited by every child), Ctrl-C still reaches forge."""
    done = pytest_in_child(
        ["-q", "-n", "0", "--basetemp", str(tmp_path / "run"), *SIGNALLING],
        REPO,
        ignore_sigint=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert f"{len(SIGNALLING)} passed" in done.stdout


LEAKY_TESTS = """
import os
import subprocess
import sys
from pathlib import Path

FORGE = str(Path(sys.executable).parent / "forge")


def run_forge(*args, home):
    env = {**os.environ, "FORGE_HOME": str(home)}
    return subprocess.run([FORGE, *args], env=env, capture_output=True, text=True, check=True)


def test_forgets_its_daemon(tmp_path):
    Path("RECORD").write_text(os.environ["VARIABLE"] + "\\n" + str(tmp_path / "leaky"))
    run_forge("daemon", "start", home=tmp_path / "leaky")


def test_stops_its_daemon(tmp_path):
    run_forge("daemon", "start", home=tmp_path / "tidy")
    run_forge("daemon", "stop", home=tmp_path / "tidy")
"""


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_daemon_left_running_fails_the_run_naming_its_test(tmp_path: Path, workers: str) -> None:
    """The run ends the daemon, says which test started it, and exits 1; nothing else is named.

    With pytest-xdist too: the daemon's test ran in a worker, the check runs in the controller.
    """
    suite = tmp_path / "suite"
    suite.mkdir()
    record = tmp_path / "record.txt"
    (suite / "pytest.ini").write_text(
        f"[pytest]\naddopts = -p forge_suite -n {workers}\n", encoding="utf-8"
    )
    (suite / "test_leaky.py").write_text(
        LEAKY_TESTS.replace("RECORD", str(record)).replace("VARIABLE", RUN_VARIABLE),
        encoding="utf-8",
    )
    done = pytest_in_child(["-q", "--basetemp", str(tmp_path / "run")], suite)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 passed" in done.stdout
    report = done.stdout.split("processes tests left running (ended now)", 1)[1]
    named = [line for line in report.splitlines() if "started by" in line]
    # The daemon, and what its plugins keep warm in it (forge-types' checker), all its test's.
    assert all(
        line.endswith("started by test_leaky.py::test_forgets_its_daemon (call)") for line in named
    ), report
    assert len([line for line in named if line.startswith("forge daemon pid ")]) == 1, report
    run, home = record.read_text(encoding="utf-8").splitlines()
    assert not Path(run).exists()  # its sockets and lock files went with it
    assert _processes_with(f"FORGE_HOME={home}") == []


def _processes_with(entry: str) -> list[int]:
    """Live processes whose environment holds ``entry``."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            environ = (proc / "environ").read_bytes().split(b"\0") if proc.name.isdigit() else []
        except OSError:
            continue
        if entry.encode() in environ:
            found.append(int(proc.name))
    return found
