"""How a ``forge`` process ends: its code and output as Python's exit gives them, without the teardown.

:func:`forge.cli.console` skips the freeing of every module's objects once
everything else Python does on exit has run. These tests start real processes
and look at what is observable: the exit code, output read through a pipe in
full, callbacks that must still run, and a teardown that no longer happens.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from forge_testing import forge_executable, python_repo

#: An object whose finaliser prints: it runs when Python tears the heap down at exit.
NOISY = """
import os, sys
class Noisy:
    def __del__(self, write=os.write):
        write(1, b"torn down\\n")
kept = Noisy()
"""


def _console(code: str, argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``code``, then ``forge ARGV`` run by the console entry point, in a fresh interpreter."""
    script = f"{code}\nsys.argv = {['forge', *argv]!r}\nfrom forge.cli import console\nconsole()\n"
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "FORGE_DAEMON": "0"},
        timeout=120,
    )


def test_the_heap_is_not_torn_down_and_the_exit_code_is_the_commands(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def f(:\n", encoding="utf-8")
    done = _console(NOISY, ["validate", "--files", "broken.py"], tmp_path)
    assert done.returncode == 1, done.stderr
    assert "broken.py" in done.stdout
    assert "torn down" not in done.stdout


def test_a_callback_registered_before_forge_starts_still_runs(tmp_path: Path) -> None:
    # A .pth file's callback (a coverage tool saving its data) is registered before
    # forge's: skipping the teardown would skip it, so forge leaves the exit to Python.
    before = NOISY + "import atexit\natexit.register(lambda: print('saved', flush=True))\n"
    (tmp_path / "fine.py").write_text("X = 1\n", encoding="utf-8")
    done = _console(before, ["validate", "--files", "fine.py"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["saved", "torn down"]


def test_a_command_that_raises_ends_as_python_ends_it(tmp_path: Path) -> None:
    done = _console(NOISY, ["--version"], tmp_path)  # argparse's action exits by raising
    assert done.returncode == 0
    assert done.stdout.startswith("forge ")
    assert "torn down" in done.stdout


def test_long_output_reaches_a_pipe_in_full(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    python_repo(project)
    names = []
    for index in range(400):
        name = f"pkg/module_{index:03}.py"
        (project / name).parent.mkdir(exist_ok=True)
        (project / name).write_text(f"VALUE_{index} = {index}\n", encoding="utf-8")
        names.append(name)
    done = subprocess.run(
        [forge_executable(), "validate", "--json", "--files", *names],
        cwd=project,
        capture_output=True,
        env={**os.environ, "FORGE_DAEMON": "0"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) > 1 << 16  # more than a pipe holds: the last writes were flushed
    report = json.loads(done.stdout)
    assert report["passed"] is True
