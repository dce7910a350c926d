"""Helpers of forge-types' tests (a uniquely named module: the root test run holds
several ``conftest`` modules, so tests never import from ``conftest``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from forge_testing import forge_executable


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
