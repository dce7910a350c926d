"""Fixtures of forge ui's tests: the bundled example as a project, one browser per module."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from forge_testing import RunForge, chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_PLAN = REPO / "examples" / "plans" / "valid" / "quickstart.json"
EXAMPLE_PROJECT = REPO / "examples" / "project"
PLAN = ".forge/plans/quickstart.json"


@pytest.fixture
def example(project: Path, run_forge: RunForge) -> Path:
    """The bundled example project with its plan, validated once as run ``demo``:
    greeter passed, farewell failed (no file), cli skipped."""
    for source in EXAMPLE_PROJECT.glob("*.py"):
        shutil.copy(source, project / source.name)
    (project / ".forge" / "plans").mkdir(parents=True)
    shutil.copy(EXAMPLE_PLAN, project / PLAN)
    done = run_forge("validate", "--plan", PLAN, "--all", "--run-id", "demo")
    assert done.returncode == 1, done.stdout + done.stderr
    return project


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for every test of a module (a launch costs about a second)."""
    with chromium() as launched:
        yield launched
