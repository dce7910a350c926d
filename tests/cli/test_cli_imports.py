"""Commands that need no MCP never import it (``forge plan check`` runs once per commit)."""

from __future__ import annotations

import json
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


MODULES_SCRIPT = """
import contextlib, io, json, sys
from forge.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(ARGV)
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def imported_by(argv: list[str], cwd: Path, scratch: Path) -> set[str]:
    """The modules a fresh ``forge`` process has imported after running ``argv``.

    The script lives in a folder of its own: it is ``sys.path[0]``, and a
    folder that changes (the project's, as ``.forge`` appears) would make
    every run read the entry points and import every plugin again.
    """
    script = scratch / "imports_probe.py"
    script.write_text(MODULES_SCRIPT.replace("ARGV", repr(argv)), encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, str(script)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found = json.loads(completed.stdout.splitlines()[-1])
    assert found["code"] in (0, 1), completed.stderr
    return set(found["modules"])


def loaded(modules: set[str], *prefixes: str) -> list[str]:
    return sorted(
        m for m in modules if m in prefixes or m.startswith(tuple(f"{p}." for p in prefixes))
    )


def test_plan_check_imports_no_check_language_or_tool(project: Path, tmp_path: Path) -> None:
    """Not even to know which checks an acceptance criterion may name: the entry-point
    cache remembers what each check plugin declares."""
    criteria = [{"check": "syntax_check"}, {"check": "contract_chek"}]
    plan = {"modules": [{"id": "m", "title": "M", "objective": "o", "files": ["a.py"],
                         "verify": ["true"], "doneWhen": "done",
                         "acceptance_criteria": criteria}]}  # fmt: skip
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    scratch = tmp_path / "probe"
    scratch.mkdir()
    imported_by(["plan", "check", "plan.json"], project, scratch)  # learns the plugins' hooks
    modules = imported_by(["plan", "check", "plan.json"], project, scratch)
    assert "forge.plan.rules.cycle" in modules  # the probe sees the rules it needs
    assert (
        loaded(
            modules,
            "forge.checks",
            "forge.languages",
            "forge.contracts",
            "forge.contracts",
            "forge.test_runs",
            "forge.memory",
            "forge.tools",
            "forge.validate",
            "forge.models.results",
            "tree_sitter",
            "mcp",
            "importlib.metadata",  # pydantic's plugin scan, answered from the entry-point cache
        )
        == []
    )


def test_validate_of_one_file_imports_only_what_it_uses(project: Path, tmp_path: Path) -> None:
    (project / "one.py").write_text("def f(x):\n    return x + 1\n", encoding="utf-8")
    scratch = tmp_path / "probe"
    scratch.mkdir()
    argv = ["validate", "--files", "one.py"]
    imported_by(argv, project, scratch)  # learns the plugins' hooks
    modules = imported_by(argv, project, scratch)
    assert "forge.checks.syntax_check" in modules  # the probe sees the checks it runs
    assert (
        loaded(
            modules,
            "forge.plan",
            "forge.plan.rules",
            "forge.memory",
            "forge.memory.index",
            "forge.service.arguments",
            "forge.test_runs",
            "forge.git",
            "forge.test_runs",
            "forge.contracts.ecmascript.exports",
            "forge.contracts.ecmascript.resolution",
            "forge.state.sessions",  # session_state's models
            "forge.state.status_file",  # status.json follows named runs only
            "forge.service.replies",  # iteration_state's and session_state's results
            "forge.validate.iteration",  # iteration_state's models
            "forge.daemon.client",  # no daemon's socket: not even the client is imported
            "forge.daemon.server",
            "mcp",
        )
        == []
    )


def test_validate_of_one_file_reads_no_distribution_metadata(project: Path, tmp_path: Path) -> None:
    """Neither pydantic's plugin scan, the language pack's version nor the python extractor
    imports importlib.metadata (~15 ms) while nothing installed changes."""
    (project / "one.py").write_text("import os\n\n\ndef f(x):\n    return x + 1\n", "utf-8")
    scratch = tmp_path / "probe"
    scratch.mkdir()
    argv = ["validate", "--files", "one.py"]
    imported_by(argv, project, scratch)  # learns the plugins' hooks and pydantic's plugins
    modules = imported_by(argv, project, scratch)
    assert "forge.contracts.python.packages" in modules  # the probe sees the import resolved
    assert "forge.languages.language_pack" in modules
    # (importlib.resources itself comes with the grammar wheels; its readers need not.)
    assert loaded(modules, "importlib.metadata", "importlib.readers", "zipfile", "email") == []
