"""``forge memory recall|save|list``: the same memory the MCP tools use."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forge_testing import RunForge


def test_save_then_recall(run_forge: RunForge, project: Path) -> None:
    saved = run_forge(
        "memory",
        "save",
        "Tests run with pnpm vitest --run",
        "--category",
        "test_command",
        "--confidence",
        "0.9",
    )
    assert saved.returncode == 0, saved.stderr
    assert (
        saved.stdout == "Saved to project memory [test_command]: Tests run with pnpm vitest --run\n"
    )
    run_forge("memory", "save", "Use ruff", "--category", "convention", "--scope", "global")
    recalled = run_forge("memory", "recall", "how to run tests")
    assert recalled.returncode == 0
    assert recalled.stdout.splitlines() == [
        '1 memory for "how to run tests" (2 searched):',
        "project:",
        "  [test_command] 0.9 — Tests run with pnpm vitest --run",
    ]
    stored = (project / ".forge/memory/project.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(stored[0])["confidence"] == 0.9
    global_file = Path(os.environ["FORGE_HOME"]) / "memory" / "global.jsonl"
    assert "Use ruff" in global_file.read_text(encoding="utf-8")


def test_duplicate_is_skipped(run_forge: RunForge) -> None:
    run_forge("memory", "save", "Use ruff", "--category", "convention")
    again = run_forge("memory", "save", "  use   RUFF ", "--category", "convention", "--json")
    assert again.returncode == 0
    result = json.loads(again.stdout)
    assert (result["saved"], result["duplicate"]) == (False, True)
    assert result["message"] == "Duplicate pattern already in project memory, skipped."


def test_recall_json_and_no_match(run_forge: RunForge) -> None:
    run_forge("memory", "save", "Use ruff", "--category", "convention", "--tag", "python")
    result = json.loads(run_forge("memory", "recall", "python", "--json").stdout)
    assert [m["pattern"] for m in result["memories"]] == ["Use ruff"]
    nothing = run_forge("memory", "recall", "kubernetes")
    assert nothing.returncode == 0
    assert nothing.stdout.startswith(
        'No memories in project memory and global memory match "kubernetes"'
    )


def test_list_newest_first_with_filters(run_forge: RunForge) -> None:
    run_forge("memory", "save", "first", "--category", "convention")
    run_forge("memory", "save", "second", "--category", "failure_pattern", "--scope", "global")
    listed = run_forge("memory", "list")
    lines = listed.stdout.splitlines()
    assert lines[0].split() == ["SCOPE", "CATEGORY", "CONF", "SAVED", "PATTERN"]
    assert [line.split()[-1] for line in lines[1:]] == ["second", "first"]
    only = json.loads(run_forge("memory", "list", "--scope", "project", "--json").stdout)
    assert [(m["pattern"], m["scope"]) for m in only["memories"]] == [("first", "project")]
    by_category = json.loads(
        run_forge("memory", "list", "--category", "failure_pattern", "--json").stdout
    )
    assert [m["pattern"] for m in by_category["memories"]] == ["second"]


def test_errors_exit_2_with_one_line_and_write_nothing(run_forge: RunForge, project: Path) -> None:
    for args in (
        ["save", "x", "--category", "bogus"],
        ["save", "x", "--category", "convention", "--confidence", "1.5"],
        ["save", "   ", "--category", "convention"],
        ["save", "x" * 2000, "--category", "convention"],
        ["recall", "x", "--limit", "0"],
        [],
    ):
        completed = run_forge("memory", *args)
        assert completed.returncode == 2, args
        assert completed.stderr.startswith("forge memory"), completed.stderr
        assert len(completed.stderr.splitlines()) == 1, completed.stderr
    assert not (project / ".forge/memory/project.jsonl").exists()
