"""Issue 19: forge's state is written only inside ``.forge/``, never hangs it, survives a full disk.

Each test reproduces one finding of the hostile probe against the real CLI,
the real MCP server or forge's own state code, on real files: symlinks
planted in ``.forge/`` (one arriving with a ``git clone``), FIFOs and
``/dev/zero`` where state or config belongs, a full disk (a small tmpfs,
mounted when the tests run as root), colliding ids, lone surrogates, the
umask, orphaned temp files and a lock held too long.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from forge_testing import forge_executable, mount_tmpfs, one_line_error, unmount
from mcp import Client
from mcp_client import call, call_error, connect, stdio_parameters

from forge.errors import CorruptFileError, StateError, UsageError
from forge.memory import Memory
from forge.state.sessions import save_session
from forge.state.status_file import refresh_status
from forge.store import json_files, locks, writes
from forge.store.forge_dir import ForgeDir
from forge.store.json_files import update_json, write_json
from forge.store.jsonl import append_line, numbered_lines

if TYPE_CHECKING:
    from forge_testing import RunForge

VALIDATE = ("validate", "--module-id", "m1", "--run-id", "r1", "--command", "true")
SAVE = ("memory", "save", "use ruff", "--category", "convention")
#: Longest a command refusing a FIFO may take, on a loaded machine.
QUICK = 20.0


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` with its content."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# --- 1. links planted in .forge/ ------------------------------------------------


def test_a_linked_log_file_is_never_written_through(
    run_forge: RunForge, project: Path, tmp_path: Path
) -> None:
    bashrc = tmp_path / "bashrc"
    bashrc.write_text("export PATH\n", encoding="utf-8")
    (project / ".forge/logs").mkdir(parents=True)
    (project / ".forge/logs/cli.jsonl").symlink_to(bashrc)
    completed = run_forge("validate", "--module-id", "m1", "--command", "true")
    # The event is lost (with a warning); the validation is not.
    assert completed.returncode == 0, completed.stderr
    assert bashrc.read_text(encoding="utf-8") == "export PATH\n"


@pytest.mark.parametrize(
    "link",
    [".forge", ".forge/iterations/r1", ".forge/memory", ".forge/iterations"],
)
def test_a_linked_state_folder_is_refused_with_one_line(
    run_forge: RunForge, project: Path, tmp_path: Path, link: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    (project / link).symlink_to(elsewhere, target_is_directory=True)
    for args in (VALIDATE, SAVE):
        completed = run_forge(*args)
        if completed.returncode != 0:
            assert "is a symbolic link" in one_line_error(completed)
    assert tree(elsewhere) == {}


def test_a_linked_lock_file_is_refused_and_its_target_left_whole(
    run_forge: RunForge, project: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me\n", encoding="utf-8")
    (project / ".forge/iterations/r1").mkdir(parents=True)
    (project / ".forge/iterations/r1/m1.json.lock").symlink_to(victim)
    error = one_line_error(run_forge(*VALIDATE))
    assert "m1.json.lock is a symbolic link" in error
    # The lock is never opened through the link: its target keeps its content.
    assert victim.read_text(encoding="utf-8") == "keep me\n"


def test_links_arriving_with_a_git_clone_are_not_followed(
    run_forge: RunForge, tmp_path: Path
) -> None:
    def git(*args: str, cwd: Path) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
            cwd=cwd,
            check=True,
            capture_output=True,
        )

    origin = tmp_path / "origin"
    (origin / ".forge/logs").mkdir(parents=True)
    # Relative links: from the clone's .forge/ they lead beside the clone.
    (origin / ".forge/logs/cli.jsonl").symlink_to("../../../bashrc")
    (origin / ".forge/memory").symlink_to("../../outside", target_is_directory=True)
    git("init", "-q", cwd=origin)
    git("add", "-A", cwd=origin)
    git("commit", "-qm", "plant links", cwd=origin)
    clone = tmp_path / "clone"
    git("clone", "-q", str(origin), str(clone), cwd=tmp_path)
    assert (clone / ".forge/logs/cli.jsonl").is_symlink()
    bashrc = tmp_path / "bashrc"
    bashrc.write_text("alias ls=ls\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    env = {"FORGE_CWD": str(clone)}
    # validate needs neither the log (its events are lost, with a warning) nor memory.
    assert run_forge("validate", "--module-id", "m1", "--command", "true", env=env).returncode == 0
    assert "memory is a symbolic link" in one_line_error(run_forge(*SAVE, env=env))
    assert bashrc.read_text(encoding="utf-8") == "alias ls=ls\n"
    assert tree(outside) == {}


# --- 2. FIFOs and /dev/zero where state or config belongs --------------------------

PLAN = {
    "objective": "o",
    "modules": [
        {
            "id": "a",
            "title": "A",
            "objective": "o",
            "files": ["a.py"],
            "verify": ["true"],
            "doneWhen": "d",
        }
    ],
}


@pytest.mark.parametrize(
    ("slot", "args", "code"),
    [
        (".forge/memory/project.jsonl", ("memory", "recall", "ruff"), 2),
        (".forge/memory/project.jsonl", SAVE, 2),
        (".forge/state/r1.json", ("sessions", "show", "r1"), 2),
        (".forge/state/r1.json", ("sessions", "list"), 0),
        # A FIFO where the history belongs is moved aside and the attempt recorded.
        (".forge/iterations/r1/m1.json", VALIDATE, 0),
        (".forge/logs/cli.jsonl", ("validate", "--module-id", "m1", "--command", "true"), 0),
        (".forge/status.json", ("status", "--json"), 1),
        ("pyproject.toml", ("plan", "check", "plan.json"), 2),
    ],
)
def test_a_fifo_in_a_state_or_config_slot_is_refused_at_once(
    run_forge: RunForge, project: Path, slot: str, args: tuple[str, ...], code: int
) -> None:
    (project / "plan.json").write_text(json.dumps(PLAN), encoding="utf-8")
    fifo = project / slot
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    started = time.monotonic()
    completed = run_forge(*args, timeout=QUICK * 3)
    assert time.monotonic() - started < QUICK
    assert "Traceback" not in completed.stderr
    assert completed.returncode == code, completed.stderr
    if code == 2:
        assert "not a regular file" in one_line_error(completed)


@pytest.mark.parametrize(
    "args",
    [("plan", "check", "plan.json"), ("status",), ("memory", "recall", "x"), ("plugins",)],
)
def test_a_pyproject_linked_to_dev_zero_is_refused_at_once(
    run_forge: RunForge, project: Path, args: tuple[str, ...]
) -> None:
    (project / "plan.json").write_text(json.dumps(PLAN), encoding="utf-8")
    (project / "pyproject.toml").symlink_to("/dev/zero")
    started = time.monotonic()
    completed = run_forge(*args, timeout=QUICK * 3)
    assert time.monotonic() - started < QUICK
    assert "Traceback" not in completed.stderr
    if completed.returncode != 0:  # commands that read no config may not notice
        assert "pyproject.toml is not a regular file" in one_line_error(completed)


@pytest.mark.anyio
async def test_a_fifo_at_a_state_file_leaves_the_server_answering(project: Path) -> None:
    (project / ".forge/state").mkdir(parents=True)
    os.mkfifo(project / ".forge/state/r1.json")
    started = time.monotonic()
    async with connect(project) as client:
        listed = await call(client, "session_state", {"action": "list"})
        assert listed["sessions"] == []  # only regular files are sessions
        result = await client.call_tool("session_state", {"action": "load", "runId": "r1"})
        text = result.content[0].text  # type: ignore[union-attr]
        assert result.is_error and "not a regular file" in text and "moved aside" in text
        loaded = await call(client, "session_state", {"action": "load", "runId": "r1"})
        assert loaded == {"found": False, "runId": "r1"}
    assert time.monotonic() - started < QUICK


# --- 3. status never reads a huge plan ------------------------------------------


def test_status_after_each_call_does_not_read_a_huge_plan(project: Path, tmp_path: Path) -> None:
    forge_dir = ForgeDir(project)
    forge_dir.ensure()
    huge = forge_dir.plans / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(1 << 30)  # a sparse 1 GiB: costs no disk
    elsewhere = tmp_path / "outside-plan.json"
    with elsewhere.open("wb") as handle:
        handle.truncate(1 << 30)
    # planPath outside the project: MCP input alone once made every call read it.
    save_session(forge_dir, "r1", {"planPath": str(elsewhere)})
    tracemalloc.start()
    started = time.monotonic()
    try:
        newest = refresh_status(forge_dir)
        named = refresh_status(forge_dir, run_id="r1")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 2
    assert peak < 20 * 1024 * 1024
    assert named.plan_path == str(elsewhere) and named.objective is None
    assert newest.modules == [] and named.modules == []


# --- 5. a full disk -----------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs, to fill up; skipped unless the tests run as root where mounting works."""
    mount = tmp_path / "disk"
    mount_tmpfs(mount)
    try:
        yield mount
    finally:
        unmount(mount)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte; returns the filler file to delete."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def test_an_append_on_a_full_disk_is_whole_or_nothing(small_disk: Path) -> None:
    log = ForgeDir(small_disk / "p").log("r")
    append_line(log, {"n": 1})
    filler = fill(small_disk)
    before = log.read_bytes()
    with pytest.raises(StateError, match="No space left"):
        append_line(log, {"n": 2, "pad": "x" * 64_000})  # more than the page left
    assert log.read_bytes() == before  # no fragment for the next line to fuse onto
    filler.unlink()
    append_line(log, {"n": 3})
    assert [record for _, record in numbered_lines(log)] == [{"n": 1}, {"n": 3}]


@pytest.mark.anyio
async def test_read_only_tools_keep_working_on_a_full_disk(small_disk: Path) -> None:
    project = small_disk / "p"
    project.mkdir()
    Memory(ForgeDir(project).project_memory, small_disk / "global.jsonl").save(
        pattern="run the tests with pytest -q", category="test_command"
    )
    async with connect(project) as client:
        filler = fill(small_disk)
        recalled = await call(client, "memory_recall", {"query": "pytest"})
        assert len(recalled["memories"]) == 1
        await call(client, "session_state", {"action": "list"})
        await call(client, "iteration_state", {"action": "get", "moduleId": "m1"})
        await call(client, "forge_logs", {})
        saved = await client.call_tool(
            "session_state", {"action": "save", "runId": "r1", "state": {"pad": "x" * 500_000}}
        )
        assert saved.is_error and "No space left" in saved.content[0].text  # type: ignore[union-attr]
        filler.unlink()


# --- 6. runs and run-less modules apart on disk -------------------------------------


def test_a_run_id_ending_in_json_is_refused_and_the_seed_paths_kept(
    run_forge: RunForge, project: Path
) -> None:
    """The seed's paths are the contract: ``iterations/<moduleId>.json`` without a run,
    ``iterations/<runId>/<moduleId>.json`` with one; a run id that could stand where a
    run-less history stands (``x.json``) is refused instead."""
    as_module = run_forge("validate", "--module-id", "x", "--command", "true")
    assert as_module.returncode == 0, as_module.stderr
    as_run = run_forge("validate", "--module-id", "m1", "--run-id", "x.json", "--command", "true")
    assert as_run.returncode == 2, as_run
    (line,) = as_run.stderr.strip().splitlines()
    assert "'x.json'" in line and ".json" in line, line
    assert (project / ".forge/iterations/x.json").is_file()
    assert not (project / ".forge/modules").exists()
    in_run = run_forge("validate", "--module-id", "m1", "--run-id", "x", "--command", "true")
    assert in_run.returncode == 0, in_run.stderr
    assert (project / ".forge/iterations/x/m1.json").is_file()


@pytest.mark.anyio
async def test_every_tool_refuses_a_run_id_ending_in_json(project: Path) -> None:
    calls = [
        ("validate", {"moduleId": "m1", "runId": "r.json", "commands": ["true"]}),
        ("iteration_state", {"moduleId": "m1", "action": "get", "runId": "r.json"}),
        ("forge_logs", {"runId": "r.json"}),
        ("session_state", {"action": "save", "runId": "r.json", "state": {}}),
    ]
    async with Client(stdio_parameters(project, forge_executable(), "serve")) as client:
        for tool, arguments in calls:
            message = await call_error(client, tool, arguments)
            assert "'r.json'" in message and "cannot end in .json" in message, (tool, message)
    assert not list((project / ".forge").rglob("r.json*"))


def test_a_run_less_history_under_modules_is_moved_back_to_the_seed_place(
    run_forge: RunForge, project: Path
) -> None:
    """Histories written to ``.forge/modules/`` by an earlier forge go back where the seed
    (and every tool written for it) looks, on first touch, read-only touches too."""
    moved_from = project / ".forge/modules"
    moved_from.mkdir(parents=True)
    record = {"moduleId": "x", "attempts": [{"attempt": 1, "timestamp": "t", "score": 0}]}
    (moved_from / "x.json").write_text(json.dumps(record), encoding="utf-8")
    (moved_from / "x.json.lock").write_text("", encoding="utf-8")
    (moved_from / "y.json").write_text(json.dumps({**record, "moduleId": "y"}), encoding="utf-8")
    done = run_forge("validate", "--module-id", "x", "--command", "true", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["attempt"] == 2
    history = json.loads((project / ".forge/iterations/x.json").read_text(encoding="utf-8"))
    assert [a["attempt"] for a in history["attempts"]] == [1, 2]
    assert sorted(p.name for p in moved_from.iterdir()) == ["y.json"]
    # A read-only look moves it too; the emptied folder goes.
    assert ForgeDir(project).iteration("y", None) == project / ".forge/iterations/y.json"
    assert (project / ".forge/iterations/y.json").is_file()
    assert not moved_from.exists()


def test_a_history_under_modules_is_never_moved_through_a_link(project: Path) -> None:
    forge = project / ".forge"
    (forge / "iterations").mkdir(parents=True)
    (forge / "modules").mkdir()
    outside = project / "outside.json"
    outside.write_text("{}", encoding="utf-8")
    (forge / "modules" / "x.json").symlink_to(outside)
    # The seed's place already holds a history: it wins, the old copy stays put.
    (forge / "modules" / "y.json").write_text('{"old": true}', encoding="utf-8")
    (forge / "iterations" / "y.json").write_text('{"new": true}', encoding="utf-8")
    ForgeDir(project).iteration("x", None)
    ForgeDir(project).iteration("y", None)
    assert (forge / "modules" / "x.json").is_symlink()
    assert not (forge / "iterations" / "x.json").exists()
    assert outside.read_text(encoding="utf-8") == "{}"
    assert json.loads((forge / "iterations" / "y.json").read_text(encoding="utf-8")) == {
        "new": True
    }


# --- 7. lone surrogates ---------------------------------------------------------------

LONE = '"bad \\ud800 text"'  # valid JSON whose text cannot be encoded again
PAIR = '"an emoji \\ud83d\\ude00"'  # a proper pair: fine


def test_a_lone_surrogate_in_memory_is_an_unreadable_line(project: Path) -> None:
    path = ForgeDir(project).project_memory
    path.parent.mkdir(parents=True)
    good = '{"id": "mem_1", "pattern": "use pytest", "category": "test_command"}\n'
    paired = f'{{"id": "mem_2", "pattern": {PAIR}, "category": "convention"}}\n'
    bad = f'{{"id": "mem_3", "pattern": {LONE}, "category": "convention"}}\n'
    path.write_text(good + bad + paired, encoding="utf-8")
    memory = Memory(path, project / "global.jsonl")
    recalled = memory.recall("pytest emoji bad")
    assert sorted(m.id for m in recalled.memories) == ["mem_1", "mem_2"]
    assert "1 unreadable line (2)" in recalled.notices[0]
    json.dumps(recalled.to_wire(), ensure_ascii=False).encode("utf-8")  # the reply encodes
    saved = memory.save(pattern="new", category="convention")
    assert "moved aside" in saved.notices[0]
    assert [record["id"] for _, record in numbered_lines(path) if record] == [
        "mem_1",
        "mem_2",
        saved.id,
    ]


def test_a_lone_surrogate_in_a_history_is_moved_aside_and_validate_works(
    run_forge: RunForge, project: Path
) -> None:
    history = project / ".forge/iterations/r1/m1.json"
    history.parent.mkdir(parents=True)
    history.write_text(
        f'{{"moduleId": "m1", "attempts": [], "lastStatus": {LONE}}}', encoding="utf-8"
    )
    completed = run_forge(*VALIDATE, "--json")
    assert completed.returncode == 0, completed.stderr
    assert len(list(history.parent.glob("m1.json.corrupt-*"))) == 1
    assert json.loads(history.read_text(encoding="utf-8"))["attempts"][0]["attempt"] == 1


def test_a_lone_surrogate_in_a_session_is_reported_not_crashed_on(
    run_forge: RunForge, project: Path
) -> None:
    session = project / ".forge/state/r1.json"
    session.parent.mkdir(parents=True)
    session.write_text(f'{{"planPath": {LONE}}}', encoding="utf-8")
    listed = run_forge("sessions", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    assert "corrupt" in listed.stdout
    assert "moved aside" in one_line_error(run_forge("sessions", "show", "r1"))
    assert len(list(session.parent.glob("r1.json.corrupt-*"))) == 1


# --- 11. owner-only state, orphaned temp files, a lock held too long --------------------


def test_state_is_owner_only_whatever_the_umask(project: Path) -> None:
    forge = Path(sys.executable).parent / "forge"
    for args in (VALIDATE, SAVE):
        script = "umask 000; exec " + " ".join(f"'{a}'" for a in (str(forge), *args))
        subprocess.run(["sh", "-c", script], cwd=project, check=True, capture_output=True)
    modes = {
        str(p.relative_to(project)): p.stat().st_mode & 0o777
        for p in [project / ".forge", *(project / ".forge").rglob("*")]
    }
    assert any(name.endswith(".lock") for name in modes)
    wrong = {
        name: oct(mode)
        for name, mode in modes.items()
        if mode != (0o700 if (project / name).is_dir() else 0o600)
    }
    assert wrong == {}


def test_temp_files_orphaned_by_killed_writers_are_swept(tmp_path: Path) -> None:
    folder = tmp_path / ".forge" / "state"
    folder.mkdir(parents=True)
    dead = subprocess.Popen(["true"])
    dead.wait()
    an_hour_ago = time.time() - 2 * writes.ORPHAN_MAX_AGE
    a_minute_ago = time.time() - 6 * writes.ORPHAN_MIN_AGE

    def temp(name: str, age: float | None) -> Path:
        path = folder / name
        path.write_bytes(b"x" * 115_000)
        if age is not None:
            os.utime(path, (age, age))
        return path

    orphan = temp(f".r1.json.{dead.pid}.0badc0de.tmp", a_minute_ago)
    unnamed = temp(".r1.json.k2j4h5g6.tmp", an_hour_ago)  # mkstemp's names carried no pid
    in_flight = temp(f".r1.json.{dead.pid}.feedf00d.tmp", None)  # too young to judge
    mine = temp(f".r1.json.{os.getpid()}.c0ffee00.tmp", a_minute_ago)
    other = temp(f".r2.json.{dead.pid}.0badc0de.tmp", a_minute_ago)  # another file's
    write_json(folder / "r1.json", {"ok": True})
    assert not orphan.exists() and not unnamed.exists()
    assert in_flight.exists() and mine.exists() and other.exists()


def test_sigkilled_writers_leave_no_temp_file_behind(tmp_path: Path) -> None:
    writer = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from forge.store.json_files import write_json
        target = Path(sys.argv[1]) / ".forge" / "state" / "r1.json"
        print("ready", flush=True)
        while True:
            write_json(target, {"pad": "x" * 100_000})
        """
    )
    for _ in range(10):
        process = subprocess.Popen(
            [sys.executable, "-c", writer, str(tmp_path)], stdout=subprocess.PIPE, text=True
        )
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        time.sleep(0.05)
        process.kill()
        process.wait()
        process.stdout.close()
    state = tmp_path / ".forge" / "state"
    for leftover in state.glob(".*.tmp"):
        os.utime(leftover, (time.time() - 60, time.time() - 60))
    write_json(state / "r1.json", {"done": True})
    assert sorted(p.name for p in state.iterdir()) == ["r1.json"]


def test_a_lock_held_too_long_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / ".forge" / "state" / "r1.json"
    holder = textwrap.dedent(
        """
        import fcntl, os, sys, time
        fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        print("held", flush=True)
        time.sleep(60)
        """
    )
    target.parent.mkdir(parents=True)
    process = subprocess.Popen(
        [sys.executable, "-c", holder, f"{target}.lock"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == "held\n"
        monkeypatch.setattr(locks, "LOCK_TIMEOUT_SECONDS", 0.5)
        with pytest.raises(
            StateError, match=r"r1\.json\.lock is held by another process"
        ) as caught:
            update_json(target, lambda current: {"v": 1})
        assert "\n" not in str(caught.value)
    finally:
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
    update_json(target, lambda current: {"v": 2})  # free again once the holder is gone


def test_a_state_file_over_its_cap_is_moved_aside_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / ".forge" / "iterations" / "r" / "m.json"
    target.parent.mkdir(parents=True)
    with target.open("wb") as handle:
        handle.truncate(json_files.MAX_STATE_BYTES + 1)
    with pytest.raises(CorruptFileError, match="over forge's limit"):
        json_files.read_json(target)
    assert len(list(target.parent.glob("m.json.corrupt-*"))) == 1


def test_text_that_is_not_utf8_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    log = tmp_path / ".forge" / "logs" / "r.jsonl"
    append_line(log, {"n": 1})
    with pytest.raises(UsageError, match="not valid UTF-8"):
        append_line(log, {"command": "echo \udcff"})  # a non-UTF-8 CLI argument
    with pytest.raises(UsageError, match="not valid UTF-8"):
        write_json(tmp_path / ".forge" / "state" / "r.json", {"x": "\ud800"})
    assert log.read_bytes() == b'{"n":1}\n'
    assert not (tmp_path / ".forge" / "state" / "r.json").exists()
