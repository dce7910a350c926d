"""Fixtures of forge ui's tests: the bundled example as a project, one browser per module."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from forge_testing import chromium, forge_executable

if TYPE_CHECKING:
    from playwright.sync_api import Browser

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_PLAN = REPO / "examples" / "plans" / "valid" / "quickstart.json"
EXAMPLE_PROJECT = REPO / "examples" / "project"
PLAN = ".forge/plans/quickstart.json"


@pytest.fixture(scope="session")
def validated_example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled example project with its plan, validated once per test run."""
    root = tmp_path_factory.mktemp("example")
    for source in EXAMPLE_PROJECT.glob("*.py"):
        shutil.copy(source, root / source.name)
    (root / ".forge" / "plans").mkdir(parents=True)
    shutil.copy(EXAMPLE_PLAN, root / PLAN)
    done = subprocess.run(
        [forge_executable(), "validate", "--plan", PLAN, "--all", "--run-id", "demo"],
        cwd=root,
        env={**os.environ, "FORGE_CWD": str(root), "FORGE_DISABLE_PLUGINS": "stubs"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    return root


@pytest.fixture
def example(project: Path, validated_example: Path) -> Path:
    """The bundled example, as run ``demo`` left it: greeter passed, farewell failed
    (no file), cli skipped; the test's own copy, in ``project``."""
    shutil.copytree(validated_example, project, dirs_exist_ok=True, symlinks=True)
    return project


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for every test of a module (a launch costs about a second)."""
    with chromium() as launched:
        yield launched
