"""The state store: id validation, atomic replace, whole-line appends, locks, corrupt files."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from forge.errors import CorruptFileError, StateError, UsageError
from forge.store.forge_dir import ForgeDir
from forge.store.json_files import read_json, update_json, write_json
from forge.store.jsonl import append_line, numbered_lines
from forge.store.writes import SWAP_MIN_BYTES, write_bytes_atomic

if TYPE_CHECKING:
    from forge_testing import RunForge

BAD_IDS = ["../x", "a/b", "..", ".", "", "x" * 129, "a\\b", "a b", "/etc/passwd", "a\0b"]


@pytest.mark.parametrize("bad", BAD_IDS, ids=repr)
def test_bad_ids_are_rejected_before_touching_a_path(project: Path, bad: str) -> None:
    forge_dir = ForgeDir(project)
    for make_path in (
        lambda: forge_dir.iteration(bad, None),
        lambda: forge_dir.iteration("ok", bad),
        lambda: forge_dir.log(bad),
        lambda: forge_dir.session(bad),
    ):
        with pytest.raises(UsageError, match="not a valid id"):
            make_path()
    assert list(project.iterdir()) == []


def test_good_ids_become_paths_inside_forge_dir(project: Path) -> None:
    forge_dir = ForgeDir(project)
    assert forge_dir.iteration("mod-1", "run.2") == project / ".forge/iterations/run.2/mod-1.json"
    assert forge_dir.iteration("mod_1", None) == project / ".forge/iterations/mod_1.json"
    assert forge_dir.log("x" * 128).parent == project / ".forge/logs"


@pytest.mark.parametrize("bad", ["../x", "a/b", "..", "x" * 129])
def test_cli_rejects_bad_ids_and_writes_nothing(
    run_forge: RunForge, project: Path, bad: str
) -> None:
    for flag in ("--module-id", "--run-id"):
        completed = run_forge("validate", "--command", "true", flag, bad)
        assert completed.returncode == 2
        assert "not a valid id" in completed.stderr
        assert len(completed.stderr.strip().splitlines()) == 1
    assert list(project.iterdir()) == []


def test_write_json_replaces_atomically_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "state" / "s.json"
    write_json(target, {"v": 1})
    write_json(target, {"v": 2})
    assert json.loads(target.read_text(encoding="utf-8")) == {"v": 2}
    assert [p.name for p in target.parent.iterdir()] == ["s.json"]


@pytest.mark.parametrize("size", [100, SWAP_MIN_BYTES + 1])
def test_a_write_that_need_not_be_durable_replaces_atomically_too(
    tmp_path: Path, size: int
) -> None:
    """Big ones swap the new file in (renameat2): the same outcome as a rename."""
    target = tmp_path / "status.json"
    write_bytes_atomic(target, b"old", durable=False)
    old = target.stat()
    write_bytes_atomic(target, b"n" * size, durable=False)
    assert target.read_bytes() == b"n" * size
    assert target.stat().st_ino != old.st_ino and target.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["status.json"]
    # Neither a link nor a folder in the way is written through or moved.
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(b"theirs")
    target.unlink()
    target.symlink_to(elsewhere)
    write_bytes_atomic(target, b"n" * size, durable=False)
    assert not target.is_symlink() and target.read_bytes() == b"n" * size
    assert elsewhere.read_bytes() == b"theirs"
    target.unlink()
    target.mkdir()
    with pytest.raises(StateError, match="a folder is in the way"):
        write_bytes_atomic(target, b"n" * size, durable=False)
    assert target.is_dir() and sorted(p.name for p in tmp_path.iterdir()) == [
        "elsewhere.json",
        "status.json",
    ]


def test_corrupt_json_is_moved_aside_not_deleted(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_text('{"half": ', encoding="utf-8")
    with pytest.raises(CorruptFileError, match=r"moved aside to s\.json\.corrupt-"):
        read_json(target)
    assert not target.exists()
    (moved,) = tmp_path.glob("s.json.corrupt-*")
    assert moved.read_text(encoding="utf-8") == '{"half": '


def test_update_json_starts_fresh_after_corruption_and_says_so(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_bytes(b"\xff\xfe garbage")
    value, notices = update_json(target, lambda current: {"was": current})
    assert value == {"was": None}
    assert len(notices) == 1 and "corrupt" in notices[0]
    assert len(list(tmp_path.glob("s.json.corrupt-*"))) == 1


def test_numbered_lines_marks_corrupt_and_partial_lines(tmp_path: Path) -> None:
    log = tmp_path / "l.jsonl"
    append_line(log, {"n": 1})
    with log.open("ab") as handle:
        handle.write(b'{"n": 2\nnot json\n[1, 2]\n')
    append_line(log, {"n": 3})
    assert list(numbered_lines(log)) == [
        (1, {"n": 1}),
        (2, None),
        (3, None),
        (4, None),
        (5, {"n": 3}),
    ]
    assert list(numbered_lines(tmp_path / "missing.jsonl")) == []


WORKER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from forge.store.json_files import update_json
    from forge.store.jsonl import append_line

    mode, path, worker, count = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    for i in range(count):
        if mode == "append":
            append_line(path, {"worker": worker, "i": i, "pad": "x" * (50 + i % 700)})
        else:
            update_json(path, lambda value: {"n": (value or {"n": 0})["n"] + 1})
    """
)


def run_workers(mode: str, path: Path, processes: int, count: int) -> None:
    workers = [
        subprocess.Popen([sys.executable, "-c", WORKER, mode, str(path), str(n), str(count)])
        for n in range(processes)
    ]
    assert [worker.wait(timeout=120) for worker in workers] == [0] * processes


def test_eight_processes_appending_never_tear_a_line(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    run_workers("append", log, processes=8, count=500)
    lines = log.read_bytes().splitlines()
    assert len(lines) == 4000
    records = [json.loads(line) for line in lines]
    for worker in range(8):
        assert sorted(r["i"] for r in records if r["worker"] == worker) == list(range(500))


def test_locked_read_modify_write_loses_no_update(tmp_path: Path) -> None:
    counter = tmp_path / "counter.json"
    run_workers("update", counter, processes=4, count=50)
    assert json.loads(counter.read_text(encoding="utf-8")) == {"n": 200}


def test_state_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    write_json(tmp_path / "state.json", {"command": "TOKEN=secret npm test"})
    append_line(tmp_path / "log.jsonl", {"command": "TOKEN=secret npm test"})
    for name in ("state.json", "log.jsonl"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name


def test_removing_a_held_lock_file_keeps_writers_apart(tmp_path: Path) -> None:
    """remove() deletes the lock file it holds; a waiter must not then share a lock."""
    import threading
    import time

    from forge.store.json_files import write_json
    from forge.store.locks import locked, remove

    target = tmp_path / ".forge" / "iterations" / "m1.json"
    inside = 0
    most = 0
    guard = threading.Lock()

    def work(removes: bool) -> None:
        nonlocal inside, most
        for _ in range(30):
            with locked(target):
                with guard:
                    inside += 1
                    most = max(most, inside)
                time.sleep(0.001)
                write_json(target, {"attempts": []})
                with guard:
                    inside -= 1
                if removes:
                    remove(target)

    threads = [threading.Thread(target=work, args=(n % 2 == 0,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert most == 1
    remove(target)
    assert not target.with_name("m1.json.lock").exists()


def test_state_folders_lists_folders_not_links_files_or_hidden_ones(tmp_path: Path) -> None:
    from forge.store.safe_open import state_folders

    folder = tmp_path / ".forge" / "iterations"
    (folder / "run-1").mkdir(parents=True)
    (folder / ".tmp").mkdir()
    (folder / "legacy.json").write_text("{}", encoding="utf-8")
    (folder / "linked").symlink_to(tmp_path)
    assert [name for name, _ in state_folders(folder)] == ["run-1"]
    assert state_folders(tmp_path / ".forge" / "missing") == []
