"""Issue 19, item 8: what the system refuses is a one-line error with exit 2, never a traceback.

Exit 1 means "the check failed"; a project forge cannot write, a full disk or
an argument that is not UTF-8 are usage errors (exit 2), said in one line.
Read-only and full filesystems are small tmpfs mounts (root only; skipped
otherwise).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from forge_testing import forge_executable, mount_tmpfs, one_line_error, unmount

if TYPE_CHECKING:
    from forge_testing import RunForge


@pytest.fixture
def read_only_project(tmp_path: Path) -> Iterator[Path]:
    """A project on a read-only filesystem, with FORGE_CWD pointing at it."""
    root = tmp_path / "ro"
    mount_tmpfs(root, "size=1m,ro")
    try:
        yield root
    finally:
        unmount(root)


def test_an_argument_that_is_not_utf8_is_a_usage_error(project: Path) -> None:
    completed = subprocess.run(
        [
            forge_executable().encode(),
            b"memory",
            b"save",
            b"bad \xff",
            b"--category",
            b"convention",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "is not UTF-8" in one_line_error(completed)
    assert not (project / ".forge").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "--module-id", "m1", "--command", "true"),
        ("validate", "--module-id", "m1", "--run-id", "r1", "--command", "true"),
        ("memory", "save", "use ruff", "--category", "convention"),
    ],
)
def test_an_unwritable_project_is_one_line(
    run_forge: RunForge, read_only_project: Path, args: tuple[str, ...]
) -> None:
    completed = run_forge(*args, cwd=read_only_project, env={"FORGE_CWD": str(read_only_project)})
    assert "Read-only file system" in one_line_error(completed)


def test_read_only_commands_work_in_an_unwritable_project(
    run_forge: RunForge, read_only_project: Path
) -> None:
    env = {"FORGE_CWD": str(read_only_project)}
    for args in (("memory", "recall", "ruff"), ("sessions", "list"), ("logs",)):
        completed = run_forge(*args, cwd=read_only_project, env=env)
        assert completed.returncode == 0, (args, completed.stderr)


def test_no_command_runs_when_its_attempt_could_not_be_recorded(
    run_forge: RunForge, project: Path
) -> None:
    # Only .forge/iterations is read-only: the verify command used to run and
    # its result to be lost when the attempt history could not be written.
    iterations = project / ".forge/iterations"
    iterations.mkdir(parents=True)
    mount_tmpfs(iterations, "size=1m,ro")
    try:
        completed = run_forge(
            "validate", "--module-id", "m1", "--run-id", "r1", "--command", "touch ran"
        )
        assert "Read-only file system" in one_line_error(completed)
        assert not (project / "ran").exists()
    finally:
        unmount(iterations)


def test_a_full_disk_is_one_line(run_forge: RunForge, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    mount_tmpfs(disk)
    try:
        project = disk / "p"
        project.mkdir()
        env = {"FORGE_CWD": str(project)}
        args = ("validate", "--module-id", "m1", "--run-id", "r1", "--command", "true")
        assert run_forge(*args, cwd=project, env=env).returncode == 0
        filler = disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError:
            pass
        finally:
            os.close(fd)
        completed = run_forge(*args, cwd=project, env=env)
        assert "No space left on device" in one_line_error(completed)
        assert run_forge("memory", "recall", "x", cwd=project, env=env).returncode == 0
    finally:
        unmount(disk)
