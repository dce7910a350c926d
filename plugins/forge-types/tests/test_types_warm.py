"""The warm checker: kept by the MCP server and forge daemon (forge_engine_started/stopped),
used by forge validate and by forge hook's PostToolUse, never outliving its engine."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import anyio
import pytest
from forge_testing import forge_executable, live_processes_mentioning
from forge_types.checkers import Invocation
from forge_types.selection import python_checker
from forge_types.warm import socket_path
from mcp import Client
from mcp_client import call, stdio_parameters
from types_testing import hook, run_forge_in

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Unix sockets, /proc")


def _key(root: Path) -> str:
    checker = python_checker(root, None)
    assert not isinstance(checker, type(None))
    key = checker.warm_key(Invocation(root=root))  # type: ignore[union-attr]
    assert key is not None
    return key


def _wait_for(predicate: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def _break(root: Path) -> None:
    path = root / "shop" / "checkout.py"
    path.write_text(
        path.read_text(encoding="utf-8").replace("cart.total()", "cart.totl()"), encoding="utf-8"
    )


def test_the_mcp_server_keeps_a_warm_checker_that_validate_and_the_hook_use(shop: Path) -> None:
    key = _key(shop.resolve())
    sock = socket_path(key)
    # No long-lived process: the hook does not run a cold checker, so it says nothing.
    _break(shop)
    assert hook(shop, "shop/checkout.py").stdout == ""

    async def session() -> None:
        async with Client(stdio_parameters(shop, forge_executable(), "serve")) as client:
            await anyio.to_thread.run_sync(lambda: _wait_for(sock.exists))
            report = await call(
                client, "validate", {"moduleId": "m", "files": ["shop/checkout.py"]}
            )
            (types,) = [r for r in report["results"] if r["type"] == "type_check"]
            assert types["newCount"] == 1 and types["locations"][0]["line"] == 6
            done = await anyio.to_thread.run_sync(hook, shop, "shop/checkout.py")
            decision = json.loads(done.stdout)
            assert decision["decision"] == "block"
            assert (
                "shop/checkout.py:6:22: Object of class `Cart` has no attribute `totl`"
                in decision["reason"]
            )
            # The old error in the same file is not what blocks: it does not stop the code.
            assert "debt" not in decision["reason"]

    anyio.run(session)
    _wait_for(lambda: not sock.exists() and not live_processes_mentioning(key[:40]), 30)


@pytest.mark.usefixtures("no_daemon_left")
def test_forge_daemon_keeps_one_for_the_project_it_started_in(shop: Path) -> None:
    key = _key(shop.resolve())
    sock = socket_path(key)
    started = run_forge_in(shop, "daemon", "start", "--idle", "300")
    assert started.returncode == 0, started.stderr
    try:
        _wait_for(sock.exists)
        _break(shop)
        decision = json.loads(hook(shop, "shop/checkout.py").stdout)
        assert "has no attribute `totl`" in decision["reason"]
    finally:
        stopped = run_forge_in(shop, "daemon", "stop")
        assert stopped.returncode == 0, stopped.stderr
    _wait_for(lambda: not sock.exists() and not live_processes_mentioning(key[:40]), 30)


def test_warm_answers_follow_edits_of_other_files(shop: Path) -> None:
    """A signature changed on disk reaches the warm checker's answer about its importer."""
    from forge_types import plugin

    root = shop.resolve()
    key = _key(root)
    plugin.forge_engine_started(project_root=root)
    try:
        _wait_for(socket_path(key).exists)
        files = [root / "shop" / "prices.py", root / "shop" / "checkout.py"]
        before = run_forge_in(shop, "validate", "--files", "shop/prices.py", "--json")
        assert before.returncode == 0, before.stdout
        prices = files[0]
        prices.write_text(
            prices.read_text(encoding="utf-8").replace(
                "amount: int, currency", "amount: int, rounding: int, currency"
            ),
            encoding="utf-8",
        )
        after = run_forge_in(shop, "validate", "--files", "shop/prices.py", "--json")
        (types,) = [r for r in json.loads(after.stdout)["results"] if r["type"] == "type_check"]
        assert [
            (loc["path"], loc["rule"]) for loc in types["locations"] if not loc.get("informational")
        ] == [("shop/checkout.py", "missing-argument")]
        del files
    finally:
        plugin.forge_engine_stopped(project_root=root)
    assert not socket_path(key).exists()
