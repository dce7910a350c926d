"""``forge daemon``: commands handed to a warm daemon behave exactly as in their own process.

Every test starts a real daemon (``forge daemon start``) for its own
``FORGE_HOME``, so its socket is its own, and stops it at the end; whatever a
failing test could not stop, ``no_daemon_left`` (tests/forge_suite.py) does.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from forge_testing import (
    RunForge,
    default_signal_dispositions,
    forge_executable,
    live_processes_mentioning,
    signal_as_soon_as_started,
)

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="the daemon runs on Linux only"),
    pytest.mark.usefixtures("no_daemon_left"),
]

OWN_PROCESS = {"FORGE_DAEMON": "0"}


def connections(run_forge: RunForge, which: str = "served") -> int:
    """How many commands the running daemon served, or callers it refused."""
    done = run_forge("daemon", "status")
    assert done.returncode == 0, done.stdout + done.stderr
    pattern = r"(\d+) connections served" if which == "served" else r"(\d+) callers refused"
    found = re.search(pattern, done.stdout)
    assert found is not None, done.stdout
    return int(found.group(1))


@pytest.fixture
def daemon(run_forge: RunForge) -> Iterator[None]:
    """A running daemon for this test's FORGE_HOME, stopped afterwards."""
    started = run_forge("daemon", "start", "--idle", "300")
    assert started.returncode == 0, started.stderr
    assert "forge daemon: running" in started.stdout
    yield
    stopped = run_forge("daemon", "stop")
    assert stopped.returncode == 0, stopped.stderr


def write_project(root: Path) -> None:
    """A small project: a good Python file, a good and a broken JavaScript file."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "app.py").write_text("def f(x):\n    return x + 1\n", encoding="utf-8")
    (root / "ok.js").write_text("export const g = (x) => x * 2;\n", encoding="utf-8")
    (root / "bad.ts").write_text("export const = ;\n", encoding="utf-8")


def test_a_command_run_by_the_daemon_matches_its_own_process(
    daemon: None, run_forge: RunForge, tmp_path: Path
) -> None:
    """Same stdout, stderr and exit code, and the daemon really ran it."""
    args = (
        "validate",
        "--files",
        "app.py",
        "ok.js",
        "bad.ts",
        "--command",
        "echo $MARK $(pwd) $(umask) > seen.txt",
    )
    for name in ("by-daemon", "own-process"):
        write_project(tmp_path / name)
    before = connections(run_forge)
    env = {"MARK": "from-the-caller", "FORGE_CWD": ""}
    warm = run_forge(*args, cwd=tmp_path / "by-daemon", env=env)
    assert connections(run_forge) == before + 1  # asking is not a command
    cold = run_forge(*args, cwd=tmp_path / "own-process", env={**env, **OWN_PROCESS})
    assert connections(run_forge) == before + 1  # FORGE_DAEMON=0 did not connect
    assert connections(run_forge, "refused") == 0
    assert warm.returncode == cold.returncode == 1
    assert "FAIL syntax_check  bad.ts" in warm.stdout
    # The verify command saw the caller's environment, working dir and umask.
    seen = {
        name: (tmp_path / name / "seen.txt").read_text() for name in ("by-daemon", "own-process")
    }
    assert seen["by-daemon"].startswith(f"from-the-caller {tmp_path / 'by-daemon'} ")
    assert seen["by-daemon"].replace("by-daemon", "X") == seen["own-process"].replace(
        "own-process", "X"
    )
    assert same_output(warm.stdout, "by-daemon") == same_output(cold.stdout, "own-process")
    assert warm.stderr == cold.stderr


def same_output(text: str, folder: str) -> str:
    """``text`` with what differs between two runs (the folder, durations) made equal."""
    return re.sub(r"\b\d+ ms\b", "N ms", text.replace(folder, "FOLDER"))


def test_stdin_goes_to_the_command(daemon: None, run_forge: RunForge, project: Path) -> None:
    """``forge hook`` reads its event from stdin: the daemon's child reads the caller's."""
    write_project(project)
    event = (
        '{"hook_event_name": "PostToolUse", "tool_name": "Write", "cwd": ".",'
        ' "tool_input": {"file_path": "bad.ts"}}'
    )
    done = subprocess.run(
        [forge_executable(), "hook"], input=event, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert '"decision": "block"' in done.stdout
    assert "bad.ts:1:" in done.stdout


def test_ctrl_c_reaches_the_command(daemon: None, project: Path) -> None:
    """SIGINT to the caller interrupts the command in the daemon, which kills its verify command."""
    write_project(project)
    marker = f"sleep {4000 + uuid.uuid4().int % 5000}"
    caller = subprocess.Popen(
        [forge_executable(), "validate", "--files", "app.py", "--command", marker],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signal_dispositions,
    )
    _wait_for(lambda: bool(_verify_commands(marker)))
    caller.send_signal(signal.SIGINT)
    _, stderr = caller.communicate(timeout=30)
    assert caller.returncode == 130
    assert "forge validate: interrupted" in stderr
    _wait_for(lambda: not _verify_commands(marker))


def test_a_killed_caller_cancels_its_command(daemon: None, project: Path) -> None:
    """SIGKILL leaves the caller no chance to forward anything: the closed socket cancels.

    Killed the moment the command appears, while the daemon's child is still
    setting it up, a few times over.
    """
    write_project(project)
    for _ in range(6):
        marker = f"sleep {4000 + uuid.uuid4().int % 5000}"
        caller = signal_as_soon_as_started(
            [forge_executable(), "validate", "--files", "app.py", "--command", marker],
            marker,
            signal.SIGKILL,
            project,
        )
        caller.communicate(timeout=30)
        _wait_for(lambda marker=marker: not _verify_commands(marker))


def test_a_stalled_daemon_is_left_behind_and_the_command_runs_once(
    daemon: None, run_forge: RunForge, project: Path
) -> None:
    """A daemon that does not answer (stopped): the caller runs the command itself, once."""
    write_project(project)
    pid = int(_pid(run_forge("daemon", "status").stdout) or 0)
    os.kill(pid, signal.SIGSTOP)
    try:
        done = run_forge("validate", "--files", "app.py", "--command", "echo ran >> runs.txt")
    finally:
        os.kill(pid, signal.SIGCONT)
    assert done.returncode == 0, done.stderr
    time.sleep(1.5)  # a child the daemon forks now must not run it again
    assert (project / "runs.txt").read_text() == "ran\n"
    assert run_forge("validate", "--files", "app.py").returncode == 0  # and it serves again


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs util-linux setpriv")
def test_a_confined_caller_runs_in_its_own_process(
    daemon: None, run_forge: RunForge, project: Path
) -> None:
    """A caller under no_new_privs (as sandboxes put it) is refused, and runs the command itself."""
    write_project(project)
    before = connections(run_forge, "refused")
    done = subprocess.run(
        ["setpriv", "--no-new-privs", forge_executable(), "validate", "--files", "app.py"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "PASS syntax_check  app.py" in done.stdout
    assert connections(run_forge, "refused") == before + 1


@pytest.fixture
def another_cgroup(tmp_path: Path) -> Iterator[Path]:
    """A new control group below this process's own (needs root and a writable cgroupfs)."""
    candidates = []
    for line in Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers == "":
            candidates += [f"/sys/fs/cgroup{path}", f"/sys/fs/cgroup/unified{path}"]
        elif controllers in ("memory", "pids"):
            candidates.append(f"/sys/fs/cgroup/{controllers}{path}")
    for parent in map(Path, candidates):
        group = parent / f"forge-test-{tmp_path.name}-{os.getpid()}"
        if not (parent / "cgroup.procs").is_file():
            continue
        try:
            group.mkdir()
        except OSError:
            continue
        try:
            yield group
        finally:
            _wait_for(lambda group=group: not (group / "cgroup.procs").read_text().strip())
            group.rmdir()
        return
    pytest.skip("no control group can be made here (needs root and a writable cgroupfs)")


def test_a_caller_in_another_cgroup_runs_in_its_own_process(
    daemon: None, run_forge: RunForge, project: Path, another_cgroup: Path
) -> None:
    """Resource limits hold: a caller in another cgroup is refused, and runs the command itself."""
    write_project(project)
    before = connections(run_forge, "refused")
    done = subprocess.run(
        [
            "sh",
            "-c",
            f'echo $$ > "{another_cgroup}/cgroup.procs" && exec "$0" validate --files app.py',
            forge_executable(),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "PASS syntax_check  app.py" in done.stdout
    assert connections(run_forge, "refused") == before + 1


def test_a_malformed_request_is_refused_and_the_daemon_goes_on(
    daemon: None, run_forge: RunForge, project: Path
) -> None:
    """Garbage on the socket gets a refusal; the next command is served."""
    from forge.daemon.address import socket_path

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as raw:
        raw.connect(socket_path())
        raw.sendall(b"\x00\x00\x00\x05hello")
        raw.settimeout(10)
        assert raw.recv(100).startswith(b"R")
    write_project(project)
    before = connections(run_forge)
    done = run_forge("validate", "--files", "app.py")
    assert done.returncode == 0
    assert connections(run_forge) == before + 1


@pytest.mark.parametrize("switched_off", [False, True])
def test_a_session_start_hook_starts_the_daemon(
    run_forge: RunForge, project: Path, switched_off: bool
) -> None:
    """Claude Code's SessionStart runs ``forge hook``: it starts a daemon, saying nothing."""
    env = OWN_PROCESS if switched_off else {}
    event = '{"hook_event_name": "SessionStart", "source": "startup", "cwd": "."}'
    done = subprocess.run(
        [forge_executable(), "hook"],
        input=event,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **env},
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    try:
        if switched_off:
            time.sleep(1)
            assert run_forge("daemon", "status").returncode == 1
        else:
            _wait_for(lambda: run_forge("daemon", "status").returncode == 0)
    finally:
        run_forge("daemon", "stop")


def test_start_stop_status(run_forge: RunForge) -> None:
    """status says so (exit 1 when none runs); a second start finds the first; stop stops."""
    assert run_forge("daemon", "status").returncode == 1
    assert run_forge("daemon", "start").returncode == 0
    try:
        again = run_forge("daemon", "start")
        assert again.returncode == 0
        assert "already running" in again.stdout
        assert run_forge("daemon", "status").returncode == 0
    finally:
        assert "stopped" in run_forge("daemon", "stop").stdout
    assert run_forge("daemon", "status").returncode == 1
    assert "not running" in run_forge("daemon", "stop").stdout


def test_the_daemon_exits_when_idle(run_forge: RunForge) -> None:
    """``--idle`` seconds without a command, and it is gone (its socket too)."""
    from forge.daemon.address import socket_path

    assert run_forge("daemon", "start", "--idle", "1").returncode == 0
    _wait_for(lambda: run_forge("daemon", "status").returncode == 1)
    _wait_for(lambda: not Path(socket_path()).exists())


def test_an_installed_distribution_makes_the_daemon_stale(
    run_forge: RunForge, project: Path, tmp_path: Path
) -> None:
    """A new distribution on sys.path: the next caller runs itself, and a fresh daemon takes over."""
    site = tmp_path / "site"
    site.mkdir()
    env = {"PYTHONPATH": str(site)}
    assert run_forge("daemon", "start", env=env).returncode == 0
    try:
        first = run_forge("daemon", "status", env=env).stdout
        (site / "newly_installed-1.0.dist-info").mkdir()
        write_project(project)
        done = run_forge("validate", "--files", "app.py", env=env)
        assert done.returncode == 0
        assert "PASS syntax_check  app.py" in done.stdout
        _wait_for(
            lambda: _pid(run_forge("daemon", "status", env=env).stdout) not in {None, _pid(first)}
        )
    finally:
        run_forge("daemon", "stop", env=env)


def test_a_folder_others_can_write_is_not_used(run_forge: RunForge, tmp_path: Path) -> None:
    """The socket's folder must be private: else start fails in one line, and commands run themselves."""
    runtime = tmp_path / "runtime"
    (runtime / "forge").mkdir(parents=True)
    (runtime / "forge").chmod(0o777)
    env = {"XDG_RUNTIME_DIR": str(runtime)}
    done = run_forge("daemon", "start", "--foreground", env=env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "not a private folder" in done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("daemon", "start", "--idle", "0"), "must be more than 0"),
        (("daemon", "start", "--idle", "soon"), "not a number of seconds"),
        (("daemon",), "required"),
    ],
)
def test_usage_errors(run_forge: RunForge, args: tuple[str, ...], message: str) -> None:
    """Bad arguments: one line, exit 2."""
    done = run_forge(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stderr.count("\n") == 1


def test_switched_off_start_says_why(run_forge: RunForge) -> None:
    """FORGE_DAEMON=0 and ``forge daemon start``: one line naming the variable, exit 2."""
    done = run_forge("daemon", "start", env=OWN_PROCESS)
    assert done.returncode == 2
    assert "FORGE_DAEMON" in done.stderr


def _verify_commands(marker: str) -> list[str]:
    """Running processes of the verify command ``marker`` (not the forge caller naming it)."""
    return [line for line in live_processes_mentioning(marker) if "validate" not in line]


def _pid(status: str) -> str | None:
    return status.split("(pid ", 1)[1].split(")", 1)[0] if "(pid " in status else None


def _wait_for(condition: object, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail("timed out waiting for a condition")
        time.sleep(0.1)


def test_a_caller_with_other_python_settings_runs_in_its_own_process(
    daemon: None, run_forge: RunForge, tmp_path: Path
) -> None:
    """PYTHONPATH and the other PYTHON* variables shape an interpreter when it starts: a
    daemon started without them cannot run the command as the caller's own process would."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "forge_env_probe.py").write_text('"""A plugin with no hooks."""\n', "utf-8")
    meta = site / "forge_env_probe-1.0.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: forge-env-probe\nVersion: 1.0\n", encoding="utf-8"
    )
    (meta / "entry_points.txt").write_text("[forge]\nenv_probe = forge_env_probe\n", "utf-8")
    before = connections(run_forge)
    done = run_forge("plugins", env={"PYTHONPATH": str(site)})
    assert done.returncode == 0, done.stderr
    assert "env_probe" in done.stdout
    assert connections(run_forge) == before  # the daemon's child refused it
    assert "env_probe" not in run_forge("plugins").stdout  # and went on serving the others
    assert connections(run_forge) == before + 1
