"""Issue 42: the warm checker asked again about files when nothing changed answers from what it
pulled, instead of one pull per file; any change on disk drops that answer. An MCP session
served by forge daemon uses the daemon's warm checker and leaves it running."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forge_testing import live_processes_mentioning
from forge_types.warm import _Pyrefly
from mcp_wire import Wire
from serve_modes import DAEMON
from types_testing import run_forge_in

PYREFLY = Path(sys.executable).parent / "pyrefly"

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="Unix sockets, /proc"),
    pytest.mark.skipif(not PYREFLY.exists(), reason="pyrefly is not installed"),
]


class Pulls:
    """Counts the ``textDocument/diagnostic`` requests the warm checker sends its language server."""

    def __init__(self, server: _Pyrefly) -> None:
        self.count = 0
        request = server.client.request

        def counted(method: str, params: Any, timeout: float) -> Any:
            self.count += method == "textDocument/diagnostic"
            return request(method, params, timeout)

        server.client.request = counted  # type: ignore[method-assign]


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[tuple[_Pyrefly, list[Path]]]:
    """A loaded warm pyrefly over two files, one with a type error."""
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text("def f(x: int) -> int:\n    return x + 1\n", encoding="utf-8")
    bad.write_text("from good import f\n\ny: str = f(1)\n", encoding="utf-8")
    server = _Pyrefly(tmp_path, PYREFLY, None, configured=False)
    server.load()
    try:
        yield server, [good, bad]
    finally:
        server.close()


def test_it_has_its_settings_before_it_holds_a_document(
    warm: tuple[_Pyrefly, list[Path]],
) -> None:
    # A document checked before the settings is checked with errors hidden: a pull answered
    # from that check said a file with a type error had none (seen on a loaded CI machine).
    server, _ = warm
    assert not server.opened
    assert server.client.wait_configured(timeout=0)


def test_asked_again_with_nothing_changed_it_answers_without_pulling(
    warm: tuple[_Pyrefly, list[Path]],
) -> None:
    server, files = warm
    first = server.diagnostics(files)
    assert [(path.name, rule) for path, _, _, rule, _ in first] == [("bad.py", "bad-assignment")]
    pulls = Pulls(server)
    assert server.diagnostics(files) == first
    assert server.diagnostics(files[1:]) == first
    assert pulls.count == 0


def test_a_change_on_disk_is_pulled_afresh(warm: tuple[_Pyrefly, list[Path]]) -> None:
    """The honest twin: a changed file (here one the other imports) drops the answers."""
    server, (good, bad) = warm
    assert server.diagnostics([good, bad])
    pulls = Pulls(server)
    good.write_text("def f(x: int) -> str:\n    return str(x)\n", encoding="utf-8")
    assert server.diagnostics([good, bad]) == []
    assert pulls.count == 2


@pytest.mark.usefixtures("no_daemon_left")
def test_a_session_the_daemon_serves_leaves_the_daemon_s_warm_checker_running(shop: Path) -> None:
    # The daemon's warm checker, by its command line: forge_types.warm pyrefly KEY ROOT ...
    marker = "forge_types.warm pyrefly "
    root = f" {shop.resolve()} "
    started = run_forge_in(shop, "daemon", "start", "--idle", "300")
    assert started.returncode == 0, started.stderr
    try:

        def checkers() -> list[str]:
            return [line for line in live_processes_mentioning(marker) if root in line]

        deadline = time.monotonic() + 60
        while not checkers():
            assert time.monotonic() < deadline, "the daemon started no warm checker"
            time.sleep(0.1)
        wire = Wire(shop, DAEMON)
        try:
            wire.initialize()
            wire.call(1, "memory_recall", {"query": "x"})
            assert "result" in wire.wait_for(1)
            wire.process.stdin.close()  # type: ignore[union-attr]
            assert wire.process.wait(timeout=30) == 0
        finally:
            wire.close()
        time.sleep(1)  # a checker told to stop is gone by now
        assert checkers(), "the session stopped the daemon's warm checker"
    finally:
        stopped = run_forge_in(shop, "daemon", "stop")
        assert stopped.returncode == 0, stopped.stderr
