"""Fixtures for forge-types' tests: a throwaway git project, the installed ``forge`` run in it."""

from __future__ import annotations

from pathlib import Path

import pytest
from forge_testing import commit, git
from types_testing import PACKAGE

#: forge's own test-run rules (a private folder, nothing left running): tests/forge_suite.py.
pytest_plugins = ["forge_suite"]


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real forge state; forge-stubs is left out.

    The type check is what these tests are about: forge-stubs, installed beside
    it in the dev environment, is disabled the way a user would.
    """
    monkeypatch.setenv("FORGE_HOME", str(tmp_path_factory.mktemp("forge-home")))
    monkeypatch.setenv("FORGE_DISABLE_PLUGINS", "stubs")
    for name in ("FORGE_CWD", "FORGE_TRACE_PLUGINS", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A git repository holding :data:`PACKAGE`, committed on ``main``."""
    root = tmp_path / "shop"
    root.mkdir()
    git(root, "init", "-q")
    commit(root, PACKAGE, "shop")
    return root
