"""Fixtures for forge-types' tests: a throwaway git project, the installed ``forge`` run in it."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from forge_testing import commit, forge_executable, git

RunForge = Callable[..., subprocess.CompletedProcess[str]]


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


def run_forge_in(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed ``forge`` run in ``root``."""
    return subprocess.run(
        [forge_executable(), *args],
        cwd=root,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


#: A small package: an exporter, an importer, and one old type error in the importer.
PACKAGE = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "0"\n',
    "shop/__init__.py": "",
    "shop/prices.py": (
        "class Cart:\n"
        "    def __init__(self) -> None:\n"
        "        self.items: list[int] = []\n\n"
        "    def total(self, tax: float = 0.0) -> float:\n"
        "        return sum(self.items) * (1 + tax)\n\n\n"
        "def price(amount: int, currency: str = 'EUR') -> str:\n"
        "    return f'{amount} {currency}'\n"
    ),
    "shop/checkout.py": (
        "from shop.prices import Cart, price\n\n\n"
        "def pay(cart: Cart) -> str:\n"
        "    old: int = 'debt'\n"
        "    return price(int(cart.total()))\n"
    ),
}


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A git repository holding :data:`PACKAGE`, committed on ``main``."""
    root = tmp_path / "shop"
    root.mkdir()
    git(root, "init", "-q")
    commit(root, PACKAGE, "shop")
    return root


__all__ = ["PACKAGE", "RunForge", "commit", "git", "run_forge_in"]
