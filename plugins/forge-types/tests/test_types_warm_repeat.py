"""Issue 42: a validate repeated with nothing changed is cheap, and still follows every change.

Through a real MCP server (``forge serve``, its own warm checker): the listed file stays as it
is while the module it imports, or the checker's configuration, changes under it. Each
repeat must answer as a fresh check would.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from forge_testing import forge_executable
from forge_types.checkers import Invocation, socket_path
from forge_types.selection import Missing, python_checker
from mcp import Client
from mcp_client import call, stdio_parameters
from types_testing import type_result

PYREFLY = Path(sys.executable).parent / "pyrefly"

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="Unix sockets, /proc"),
    pytest.mark.skipif(not PYREFLY.exists(), reason="pyrefly is not installed"),
]


def _socket(root: Path) -> Path:
    checker = python_checker(root, None)
    assert not isinstance(checker, Missing)
    configured = checker.source.startswith("configured")
    key = checker.warm_key(Invocation(root=root, configured=configured))
    assert key is not None
    return socket_path(key)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _counted(report: dict[str, Any]) -> list[tuple[str, int, str]]:
    """The type check's counted findings: (path, line, rule)."""
    found = type_result(report)
    assert not found.get("skipped") and not found.get("unjudged"), found["message"]
    return [
        (loc["path"], loc["line"], loc["rule"])
        for loc in found["locations"]
        if not loc.get("informational") and not loc.get("preExisting")
    ][: found["newCount"]]


def test_an_unchanged_file_fails_once_the_module_it_imports_changes(shop: Path) -> None:
    """checkout.py, listed and never edited, calls ``cart.total()``: renaming the method in
    prices.py (not listed) breaks it; renaming it back mends it."""
    sock = _socket(shop.resolve())
    prices = shop / "shop" / "prices.py"
    arguments = {"moduleId": "pay", "files": ["shop/checkout.py"]}

    async def session() -> None:
        async with Client(stdio_parameters(shop, forge_executable(), "serve")) as client:
            first = await call(client, "validate", arguments)
            assert first["passed"], type_result(first)["message"]
            deadline = time.monotonic() + 60
            while not sock.exists():
                assert time.monotonic() < deadline, "no warm checker"
                await anyio.sleep(0.1)
            again = await call(client, "validate", arguments)
            assert again["passed"] and _counted(again) == []
            repeated = await call(client, "validate", arguments)
            assert type_result(repeated)["warm"] and _counted(repeated) == []

            _edit(prices, "def total(self", "def sum_up(self")
            broken = await call(client, "validate", arguments)
            assert not broken["passed"], type_result(broken)
            assert _counted(broken) == [("shop/checkout.py", 6, "missing-attribute")]
            assert _counted(await call(client, "validate", arguments)) == _counted(broken)

            _edit(prices, "def sum_up(self", "def total(self")  # the honest twin: mended
            mended = await call(client, "validate", arguments)
            assert mended["passed"] and _counted(mended) == []

    anyio.run(session)


def test_a_changed_configuration_is_read_before_the_next_answer(shop: Path) -> None:
    """The project configures pyrefly; between two identical calls the configuration turns an
    error off: the next answers, warm ones too, follow it, and follow it back."""
    config = shop / "pyproject.toml"
    configured = config.read_text(encoding="utf-8") + "\n[tool.pyrefly.errors]\nbad-return = true\n"
    config.write_text(configured, encoding="utf-8")
    _edit(shop / "shop" / "checkout.py", "cart.total()", "cart.totl()")
    sock = _socket(shop.resolve())
    arguments = {"moduleId": "pay", "files": ["shop/checkout.py"]}
    broken = [("shop/checkout.py", 6, "missing-attribute")]

    async def session() -> None:
        async with Client(stdio_parameters(shop, forge_executable(), "serve")) as client:
            await call(client, "validate", arguments)
            deadline = time.monotonic() + 60
            while not sock.exists():
                assert time.monotonic() < deadline, "no warm checker"
                await anyio.sleep(0.1)
            warm = await call(client, "validate", arguments)
            assert _counted(warm) == broken and type_result(warm)["warm"]

            config.write_text(configured + "missing-attribute = false\n", encoding="utf-8")
            quiet = await call(client, "validate", arguments)
            assert quiet["passed"] and _counted(quiet) == []
            again = await call(client, "validate", arguments)  # the warm checker, told of it
            assert type_result(again)["warm"] and _counted(again) == []

            config.write_text(configured, encoding="utf-8")  # the honest twin: counted again
            restored = await call(client, "validate", arguments)
            assert _counted(restored) == broken and type_result(restored)["warm"]

    anyio.run(session)
