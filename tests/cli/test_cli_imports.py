"""Commands that need no MCP never import it; what each fresh command may import is in
tests/test_startup.py (the start-up budget)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import contextlib, io, sys
from forge.cli import main
for argv in ARGVS:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(argv)
        except SystemExit:
            pass
loaded = sorted(name for name in sys.modules if name == "mcp" or name.startswith("mcp."))
print(loaded)
"""


def test_cli_commands_do_not_import_mcp(project: Path) -> None:
    argvs = [
        ["status", "--line"],
        ["status"],
        ["logs"],
        ["memory", "save", "x y", "--category", "convention"],
        ["memory", "recall", "x"],
        ["memory", "list"],
        ["sessions"],
        ["validate", "--command", "true", "--format", "sarif"],
        ["validate", "--command", "true", "--format", "junit"],
        ["plugins"],
        ["--help"],
    ]
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT.replace("ARGVS", repr(argvs))],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert completed.stdout.strip() == "[]", completed.stdout


def test_every_subcommand_has_help_with_examples(project: Path) -> None:
    from forge.cli import SUBCOMMANDS

    for name in SUBCOMMANDS:
        completed = subprocess.run(
            [sys.executable, "-m", "forge", name, "--help"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert completed.returncode == 0, name
        assert "example" in completed.stdout, name


def test_what_every_command_imports_before_the_daemon_leaves_typing_out() -> None:
    # Every ``forge`` process imports these before it knows whether a daemon runs the
    # command; ``typing`` there is a tenth of a daemon-handed command's time.
    script = (
        "import sys, forge.cli, forge.daemon.address, forge.daemon.client\n"
        "print(sorted(name for name in ('typing', 'pydantic') if name in sys.modules))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == "[]"
