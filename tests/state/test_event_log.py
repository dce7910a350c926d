"""The event log: appends, filters, limit, corrupt lines, the default run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from forge_testing import RunForge
from mcp_client import call, connect

from forge.state.event_log import (
    CheckRecord,
    log_event,
    query_logs,
    summarize,
    summarize_arguments,
)
from forge.store.forge_dir import ForgeDir


@pytest.fixture
def forge_dir(tmp_path: Path) -> ForgeDir:
    folder = ForgeDir(tmp_path)
    folder.ensure()
    return folder


def fill(forge_dir: ForgeDir, run_id: str = "r1") -> None:
    log_event(forge_dir, run_id, phase="planning", event="plan_written")
    log_event(forge_dir, run_id, phase="execution", event="started", module_id="m1")
    log_event(
        forge_dir, run_id, phase="validation", event="validate", module_id="m1", severity="warn"
    )
    log_event(forge_dir, run_id, phase="validation", event="validate", module_id="m2")
    log_event(forge_dir, run_id, phase="retry", event="retry", module_id="m1", severity="error")


def test_entries_have_the_documented_shape(forge_dir: ForgeDir) -> None:
    log_event(forge_dir, "r1", phase="session", event="session_save", data={"a": 1})
    result = query_logs(forge_dir, run_id="r1")
    (entry,) = [e.to_wire() for e in result.entries]
    assert set(entry) == {"timestamp", "runId", "phase", "moduleId", "event", "severity", "data"}
    assert (entry["runId"], entry["moduleId"], entry["data"]) == ("r1", None, {"a": 1})


def test_filters_combine_and_total_counts_matches(forge_dir: ForgeDir) -> None:
    fill(forge_dir)
    by_module = query_logs(forge_dir, run_id="r1", module_id="m1")
    assert [e.event for e in by_module.entries] == ["started", "validate", "retry"]
    both = query_logs(forge_dir, run_id="r1", module_id="m1", phase="validation")
    assert [(e.event, e.severity) for e in both.entries] == [("validate", "warn")]
    errors = query_logs(forge_dir, run_id="r1", severity="error")
    assert [e.phase for e in errors.entries] == ["retry"]
    assert query_logs(forge_dir, run_id="r1").total == 5


def test_limit_keeps_the_latest_entries(forge_dir: ForgeDir) -> None:
    fill(forge_dir)
    result = query_logs(forge_dir, run_id="r1", limit=2)
    assert [e.phase for e in result.entries] == ["validation", "retry"]
    assert result.total == 5


def test_corrupt_lines_are_skipped(forge_dir: ForgeDir) -> None:
    log_event(forge_dir, "r1", phase="planning", event="one")
    with forge_dir.log("r1").open("ab") as handle:
        handle.write(b'{"timestamp": "x", "runId"\n\xff\xfe\n[]\n{"phase": "planning"}\n')
    log_event(forge_dir, "r1", phase="planning", event="two")
    assert [e.event for e in query_logs(forge_dir, run_id="r1").entries] == ["one", "two"]


def test_default_run_is_the_most_recently_modified_log(forge_dir: ForgeDir) -> None:
    fill(forge_dir, "old")
    fill(forge_dir, "new")
    old = forge_dir.log("old")
    later = forge_dir.log("new").stat().st_mtime_ns + 10_000_000
    os.utime(old, ns=(later, later))
    assert query_logs(forge_dir).run_id == "old"


def test_no_logs_and_unknown_runs_are_empty_answers(forge_dir: ForgeDir) -> None:
    nothing = query_logs(forge_dir)
    assert (nothing.run_id, nothing.entries, nothing.total) == (None, [], 0)
    unknown = query_logs(forge_dir, run_id="nope")
    assert (unknown.run_id, unknown.total) == ("nope", 0)
    assert unknown.message is not None and "nope" in unknown.message


def test_arguments_are_summarised_never_logged_whole() -> None:
    summary = summarize_arguments(
        {
            "moduleId": "m1",
            "files": ["a", "b"],
            "commands": ["x"] * 50,
            "state": {"big": "x" * 10_000},
            "pattern": "p" * 5_000,
            "limit": 5,
        }
    )
    assert summary == {
        "moduleId": "m1",
        "files": ["a", "b"],
        "commands": "[50 items]",
        "state": "{1 keys}",
        "pattern": "p" * 197 + "...",
        "limit": 5,
    }
    assert summarize([["nested"]]) == ["[1 items]"]


@pytest.mark.anyio
async def test_forge_logs_tool_filters_and_limits(project: Path) -> None:
    fill(ForgeDir(project), "r1")
    async with connect(project) as client:
        result = await call(client, "forge_logs", {"runId": "r1", "moduleId": "m1", "limit": 2})
    assert result["runId"] == "r1"
    # The query's own tool_call event is logged first, and names moduleId m1 too.
    assert [e["event"] for e in result["entries"]] == ["retry", "forge_logs"]
    assert result["total"] == 4


def test_a_validate_event_keeps_where_it_failed_and_each_command(
    project: Path, run_forge: RunForge
) -> None:
    (project / "broken.py").write_text("x = 1\ndef f(:\n    pass\n", encoding="utf-8")
    (project / "good.py").write_text("y = 2\n", encoding="utf-8")
    completed = run_forge(
        "validate",
        "--run-id",
        "r1",
        "--module-id",
        "m1",
        "--files",
        "broken.py",
        "good.py",
        "--command",
        "true",
        "--command",
        "echo boom >&2; exit 3",
    )
    assert completed.returncode == 1, completed.stderr
    (event,) = query_logs(ForgeDir(project), run_id="r1", phase="validation").entries
    checks = [CheckRecord.model_validate(record) for record in event.data["checks"]]
    assert [(c.type, c.target, c.passed) for c in checks] == [
        ("syntax_check", "broken.py", False),
        ("command", "true", True),
        ("command", "echo boom >&2; exit 3", False),
    ]
    syntax, passing, failing = checks
    (place,) = syntax.locations
    assert (place.path, place.line, place.column) == ("broken.py", 2, 7)
    assert place.message
    assert (passing.exit_code, passing.output) == (0, None)
    assert (failing.exit_code, failing.output) == (3, "boom")
    assert event.data["reason"]
