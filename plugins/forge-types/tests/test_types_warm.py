"""The warm checker: kept by the MCP server and forge daemon (forge_engine_started/stopped),
used by forge validate and by forge hook's PostToolUse, never outliving its engine."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from forge_testing import forge_executable, live_processes_mentioning, npm_installed
from forge_types.checkers import Invocation, socket_path
from forge_types.selection import Missing, python_checker, typescript_checker
from forge_types.tsbuilder import SCRIPT
from mcp import Client
from mcp_client import call, stdio_parameters
from types_testing import TYPESCRIPT, hook, run_forge_in, type_result, typescript_repository

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
        # Without a base an importer's error is shown, not counted: it is there all the same.
        assert [
            (loc["path"], loc["rule"])
            for loc in types["locations"]
            if loc["rule"] != "bad-assignment"
        ] == [("shop/checkout.py", "missing-argument")]
        del files
    finally:
        plugin.forge_engine_stopped(project_root=root)
    assert not socket_path(key).exists()


# --- TypeScript: the project's own TypeScript, its program kept by the builder ---------

COMPILER = {
    "strict": True,
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
}
#: A TypeScript project: an exporter, and an importer whose call and object the
#: exporter's edits break (one of them with a chained message).
TILL = {
    "package.json": json.dumps({"name": "till", "private": True, "type": "module"}),
    "tsconfig.json": json.dumps({"compilerOptions": COMPILER, "include": ["src/**/*.ts"]}),
    "src/prices.ts": (
        "export interface Money {\n"
        "  amount: number;\n"
        "  currency: string;\n"
        "}\n\n"
        "export function price(amount: number, currency = 'EUR'): string {\n"
        "  return `${amount} ${currency}`;\n"
        "}\n\n"
        "export function format(money: Money): string {\n"
        "  return price(money.amount, money.currency);\n"
        "}\n"
    ),
    "src/checkout.ts": (
        "import { format, price } from './prices.js';\n\n"
        "export function pay(total: number, code: string): string {\n"
        "  const money = { amount: total, currency: code };\n"
        "  return price(total) + format(money);\n"
        "}\n"
    ),
}


@pytest.fixture
def till(tmp_path: Path) -> Path:
    """:data:`TILL` committed on ``main``, TypeScript in its ``node_modules`` (shared, read-only)."""
    return typescript_repository(tmp_path / "till", npm_installed(TYPESCRIPT), TILL)


def _edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / "src" / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _new(report: dict[str, Any]) -> list[tuple[str, int, int, str, str]]:
    (types,) = [r for r in report["results"] if r["type"] == "type_check"]
    return [
        (loc["path"], loc["line"], loc["column"], loc["rule"], loc["message"])
        for loc in types["locations"]
        if not loc.get("preExisting")
    ]


@pytest.mark.slow
def test_the_mcp_server_keeps_typescript_warm_and_answers_as_tsc_does(till: Path) -> None:
    """``forge serve`` starts the project's TypeScript builder; its answers are tsc's, never stale.

    The exporter changes twice (a required parameter, a narrower property type):
    the importer breaks where tsc says, with tsc's codes and messages (one of them
    chained over three lines), first judged cold by the CLI, then warm over MCP.
    """
    root = till.resolve()
    tsc = typescript_checker(root, root)
    assert not isinstance(tsc, Missing)
    key = tsc.warm_key(Invocation(root=root, project_file=root / "tsconfig.json"))
    assert key is not None
    sock = socket_path(key)
    _edit(till, "prices.ts", "amount: number, currency = 'EUR'", "amount: number, currency: string")
    _edit(till, "prices.ts", "  currency: string;\n", "  currency: 'EUR' | 'USD';\n")
    cold = run_forge_in(till, "validate", "--files", "src/prices.ts", "--base", "main", "--json")
    assert cold.returncode == 1, cold.stdout[-2000:]
    cold_report = json.loads(cold.stdout)
    assert type_result(cold_report)["warm"] is False
    expected = _new(cold_report)
    assert [(path, rule) for path, _, _, rule, _ in expected] == [
        ("src/checkout.ts", "TS2554"),
        ("src/checkout.ts", "TS2345"),
    ], expected
    assert "Types of property 'currency' are incompatible." in expected[1][4]

    async def session() -> None:
        async with Client(stdio_parameters(till, forge_executable(), "serve")) as client:
            await anyio.to_thread.run_sync(lambda: _wait_for(sock.exists, 120))
            arguments = {"moduleId": "m", "files": ["src/prices.ts"], "baseRef": "main"}
            report = await call(client, "validate", arguments)
            assert type_result(report)["warm"] is True, type_result(report)
            assert _new(report) == expected
            # The importer mended, on disk only: the next answer sees it.
            _edit(till, "checkout.ts", "price(total)", "price(total, code)")
            _edit(till, "checkout.ts", "currency: code }", "currency: 'EUR' as const }")
            report = await call(client, "validate", arguments)
            assert type_result(report)["warm"] is True and report["passed"] is True, report
            # The exporter loses a function its importer calls: found at once.
            _edit(till, "prices.ts", "export function format(", "function format(")
            report = await call(client, "validate", arguments)
            assert type_result(report)["warm"] is True and report["passed"] is False
            assert [(path, line, rule) for path, line, _, rule, _ in _new(report)] == [
                ("src/checkout.ts", 1, "TS2459")
            ], _new(report)

    anyio.run(session)
    _wait_for(lambda: not sock.exists() and not live_processes_mentioning(key[:40]), 30)
    assert not [line for line in live_processes_mentioning(str(SCRIPT)) if str(root) in line]


def test_a_socket_in_a_temp_folder_others_can_write_is_never_asked(shop: Path) -> None:
    """Another user who makes ``forge-types-<uid>`` first could answer "no error" for anyone."""
    _break(shop)
    with tempfile.TemporaryDirectory(prefix="ft-") as temp:
        folder = Path(temp) / f"forge-types-{os.getuid()}"
        folder.mkdir()
        folder.chmod(0o777)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(folder / f"{_key(shop)[:24]}.sock"))
        listener.listen()
        asked: list[bytes] = []

        def impostor() -> None:
            with contextlib.suppress(OSError):  # closed: the test is over
                while True:
                    connection, _ = listener.accept()
                    with connection:
                        asked.append(connection.recv(1 << 16))
                        connection.sendall(b'{"diagnostics": []}\n')

        thread = threading.Thread(target=impostor, daemon=True)
        thread.start()
        try:
            done = run_forge_in(
                shop, "validate", "--files", "shop/checkout.py", "--json", env={"TMPDIR": temp}
            )
        finally:
            listener.shutdown(socket.SHUT_RDWR)
            listener.close()
            thread.join(5)
    result = type_result(json.loads(done.stdout))
    assert (result["warm"], result["newCount"], asked) == (False, 1, [])


def test_the_warm_checkers_process_imports_neither_pydantic_nor_the_grammars() -> None:
    """Issue 42: the warm checker runs for half an hour beside every served session; importing
    forge's models and grammars for a helper made it twice the size it needs to be."""
    imported = subprocess.run(
        [sys.executable, "-c", "import sys, forge_types.warm; print(*sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert "forge_types.warm" in imported
    heavy = [name for name in imported if name.split(".")[0] in {"pydantic", "tree_sitter"}]
    assert heavy == [] and "forge.workspace" not in imported
