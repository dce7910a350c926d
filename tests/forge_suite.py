"""The test run's own rules, a pytest plugin every suite's conftest loads (``pytest_plugins``).

- **A private folder per run** (:data:`forge_testing.RUN_VARIABLE`), made by the
  process that runs the session (under pytest-xdist, the controller; its workers
  inherit it). It is also the run's ``XDG_RUNTIME_DIR``, so the sockets and lock
  files of every forge daemon a test starts live there, never in the user's
  ``/tmp/forge-UID``, and a run never meets another run's daemons. Downloads
  (:func:`forge_testing.built_once`) are kept there too. It is removed at the end.
- **Nothing left running.** When the session ends, every process a test started
  that is still alive (a forge daemon, a verify command, a server) is ended,
  listed with the test that started it, and the run fails.
- The ``no_daemon_left`` fixture, for tests that can start a forge daemon: after
  the test, any daemon it started is stopped.
- Under pytest-xdist, tests marked ``slow`` are handed out first.
- The warm ``node`` an in-process JavaScript syntax check starts
  (:mod:`forge.languages.v8`) ends with the session, before the check above.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from forge_testing import RUN_VARIABLE, run_folder

_RUN = pytest.StashKey[Path]()
_SAVED_ENV = pytest.StashKey[dict[str, "str | None"]]()
_LEFT_RUNNING = pytest.StashKey[list["Started"]]()
#: How long processes that are already on their way out get before they count as left running.
EXIT_PATIENCE_S = 5.0


@pytest.fixture(scope="session", autouse=True)
def warm_node_released() -> Iterator[None]:
    """End the JavaScript authority's warm node this process may have started."""
    yield
    from forge.languages import v8

    v8.release()


def _runs_the_session(config: pytest.Config) -> bool:
    """Whether this process owns the session (not a pytest-xdist worker)."""
    return not hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    """Make the run's folder and hand it down through the environment."""
    if not _runs_the_session(config):
        return
    base = tempfile.gettempdir()
    # A Unix socket's path holds at most 107 bytes, and the daemon's adds 33 to this.
    if len(base) > 40 and Path("/tmp").is_dir():
        base = "/tmp"
    run = Path(tempfile.mkdtemp(prefix="forge-tests-", dir=base))
    config.stash[_RUN] = run
    config.stash[_SAVED_ENV] = {
        name: os.environ.get(name) for name in (RUN_VARIABLE, "XDG_RUNTIME_DIR")
    }
    os.environ[RUN_VARIABLE] = str(run)
    os.environ["XDG_RUNTIME_DIR"] = str(run)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """End what the tests left running (failing the run if anything), then remove the folder."""
    config = session.config
    if not _runs_the_session(config) or _RUN not in config.stash:
        return
    run = config.stash[_RUN]
    deadline = time.monotonic() + EXIT_PATIENCE_S
    while (left := started_by_tests(run)) and time.monotonic() < deadline:
        time.sleep(0.1)
    if left:
        end_processes(left)
        config.stash[_LEFT_RUNNING] = left
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    shutil.rmtree(run, ignore_errors=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Give the environment back as it was (pytest may run again in this process)."""
    for name, value in config.stash.get(_SAVED_ENV, {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Name every process a test left running, and the test."""
    left = config.stash.get(_LEFT_RUNNING, [])
    if not left:
        return
    terminalreporter.write_sep("=", "processes tests left running (ended now)", red=True)
    for process in left:
        terminalreporter.write_line(
            f"{'forge daemon ' if process.is_forge_daemon else ''}{process}"
        )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, ``slow`` tests first: one started last would end the run alone."""
    if not _runs_the_session(config):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # a stable sort


@pytest.fixture
def no_daemon_left(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the test, stop every forge daemon it started (in the background too) that still runs."""
    yield
    stop_daemons_started_by(request.node.nodeid)


# --- what a test run left running ---------------------------------------------------


class Started:
    """A live process that a test of this run started (the run's folder and a test in its environment)."""

    def __init__(self, pid: int, argv: list[str], test: str) -> None:
        self.pid = pid
        self.argv = argv
        #: PYTEST_CURRENT_TEST as the process inherited it: ``nodeid (setup|call|teardown)``.
        self.test = test

    @property
    def is_forge_daemon(self) -> bool:
        """``forge daemon start`` (``python -m forge daemon start`` when started in the background)."""
        return any(
            self.argv[i : i + 3] == ["forge", "daemon", "start"]
            or (self.argv[i].endswith("/forge") and self.argv[i + 1 : i + 3] == ["daemon", "start"])
            for i in range(len(self.argv))
        )

    def __str__(self) -> str:
        return f"pid {self.pid} ({' '.join(self.argv)[:200]}), started by {self.test}"


def started_by_tests(run: Path | None = None) -> list[Started]:
    """Live processes (zombies aside) started by a test of the run whose folder is ``run``.

    Read from each process's environment as it started: the run's folder
    (:data:`RUN_VARIABLE`) and the test that was running (``PYTEST_CURRENT_TEST``),
    both inherited from the test that started it, however far down. pytest and
    its xdist workers are not started by a test.
    """
    marker = f"{RUN_VARIABLE}={run or run_folder()}".encode()
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            environ = (proc / "environ").read_bytes().split(b"\0")
            if marker not in environ:
                continue
            state = (proc / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
            argv = (proc / "cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
        except (OSError, IndexError):  # gone meanwhile, or not ours to read
            continue
        test = next((e[20:] for e in environ if e.startswith(b"PYTEST_CURRENT_TEST=")), None)
        if test is not None and state != "Z":
            found.append(Started(int(proc.name), argv, test.decode(errors="replace")))
    return found


def end_processes(processes: Sequence[Started], patience: float = 10.0) -> None:
    """SIGTERM each (a daemon then removes its sockets), SIGKILL what is left after ``patience``."""

    def alive() -> list[Started]:
        return [process for process in processes if _status(process) is not None]

    for number in (signal.SIGTERM, signal.SIGKILL):
        for process in alive():
            try:
                os.kill(process.pid, number)
            except OSError:
                continue
        deadline = time.monotonic() + patience
        while alive() and time.monotonic() < deadline:
            time.sleep(0.05)


def stop_daemons_started_by(nodeid: str) -> list[Started]:
    """End every forge daemon the test ``nodeid`` started (warming up or serving); what it found.

    A daemon started in the background (``forge hook`` on SessionStart) may not
    answer ``forge daemon stop`` yet, so it is found by its environment instead.
    """
    daemons = [
        process
        for process in started_by_tests()
        if process.is_forge_daemon and process.test.rsplit(" (", 1)[0] == nodeid
    ]
    # A daemon still warming up dies of SIGTERM without cleaning up (its warm-up
    # folder stays in /tmp): wait until it has set its handler, or has gone.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(map(_catches_sigterm, daemons)):
        time.sleep(0.05)
    end_processes(daemons)
    return daemons


def _status(process: Started) -> str | None:
    """``/proc/PID/status`` of ``process``; ``None`` once it has ended (a zombie has)."""
    try:
        status = Path(f"/proc/{process.pid}/status").read_text(encoding="utf-8")
    except OSError:
        return None
    return None if "\nState:\tZ" in status else status


def _catches_sigterm(process: Started) -> bool:
    """Whether ``process`` has a handler for SIGTERM (``SigCgt``), or has ended."""
    status = _status(process)
    if status is None:
        return True
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught, 16) >> (signal.SIGTERM - 1) & 1)
