"""Helpers of forge-types' tests (a uniquely named module: the root test run holds
several ``conftest`` modules, so tests never import from ``conftest``)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forge_testing import commit, forge_executable, git

#: The TypeScript the tests install (one npm install per run, shared by every test).
TYPESCRIPT = "typescript@5.9.3"


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


def type_result(report: dict[str, Any]) -> dict[str, Any]:
    """The one ``type_check`` result of a validate report (CLI ``--json`` or MCP)."""
    (found,) = [r for r in report["results"] if r["type"] == "type_check"]
    return dict(found)


def judged_through_cli_and_mcp(
    root: Path, listed: list[str], check: Callable[[dict[str, Any]], None]
) -> None:
    """``check`` the report of ``listed`` validated against ``main`` by the CLI, then over MCP.

    The CLI must fail the module (exit 1); the working tree is restored after.
    """
    import anyio
    from forge_testing import git
    from mcp import Client
    from mcp_client import call, stdio_parameters

    try:
        done = run_forge_in(root, "validate", "--files", *listed, "--base", "main", "--json")
        assert done.returncode == 1, (done.stdout[-1500:], done.stderr[-1500:])
        check(json.loads(done.stdout))

        async def over_mcp() -> None:
            async with Client(stdio_parameters(root, forge_executable(), "serve")) as client:
                arguments = {"moduleId": "m", "files": listed, "baseRef": "main"}
                check(await call(client, "validate", arguments))

        anyio.run(over_mcp)
    finally:
        git(root, "checkout", "-q", "--", ".")


#: (name, file to edit, old, new, file listed, file and text of the broken line, rule),
#: files named relative to a folder of the project.
Mistake = tuple[str, str, str, str, str, str, str, str]


def assert_caught(
    report: dict[str, Any], root: Path, folder: str, mistake: Mistake, checker: str
) -> None:
    """The report fails, and a new diagnostic of the mistake's rule is at its broken line."""
    name, *_, broken_file, broken_text, rule = mistake
    result = type_result(report)
    assert result["checker"].startswith(checker), result
    assert report["passed"] is False and result["passed"] is False, (name, result["message"])
    lines = (root / folder / broken_file).read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if broken_text in text)
    new = [loc for loc in result["locations"] if not loc.get("preExisting")]
    assert any(
        loc["path"] == f"{folder}/{broken_file}" and loc["line"] == line and loc["rule"] == rule
        for loc in new
    ), (name, line, new)


def hook(root: Path, file: str) -> subprocess.CompletedProcess[str]:
    """``forge hook`` told that ``file`` was just edited (Claude Code's PostToolUse)."""
    event = {"hook_event_name": "PostToolUse", "tool_name": "Edit", "cwd": str(root),
             "tool_input": {"file_path": file}}  # fmt: skip
    return subprocess.run(
        [forge_executable(), "hook"], cwd=root, input=json.dumps(event), env=dict(os.environ),
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def typescript_repository(root: Path, installed: Path, files: dict[str, str]) -> Path:
    """``files`` committed in a new git repository at ``root``, its ``node_modules`` a link
    to ``installed``'s (shared, read-only), ignored with ``.forge/``."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    (root / ".git" / "info" / "exclude").write_text("node_modules\n.forge/\n", encoding="utf-8")
    (root / "node_modules").symlink_to(installed / "node_modules", target_is_directory=True)
    commit(root, files, root.name)
    return root


def assert_harmless(root: Path, listed: list[str], old_count: int | None = None) -> None:
    """``listed`` validated against ``main`` passes with nothing new (and ``old_count`` old
    diagnostics, when given); the working tree is restored after."""
    try:
        done = run_forge_in(
            root, "validate", "--files", *dict.fromkeys(listed), "--base", "main", "--json"
        )
        result = type_result(json.loads(done.stdout))
        assert result["newCount"] == 0, result["locations"]
        if old_count is not None:
            assert result["oldCount"] == old_count, result["locations"]
        assert done.returncode == 0, done.stdout[-2000:]
    finally:
        git(root, "checkout", "-q", "--", ".")
