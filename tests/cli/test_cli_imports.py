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
