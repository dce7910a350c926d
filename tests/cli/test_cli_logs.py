"""``forge logs``: filters, text and JSON output, ``--follow``."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

from forge_testing import forge_executable

if TYPE_CHECKING:
    from forge_testing import RunForge


def _entry(event: str, **fields: object) -> str:
    record = {
        "timestamp": "2026-11-21T09:44:00.123Z",
        "runId": "run-1",
        "phase": "validation",
        "moduleId": None,
        "event": event,
        "severity": "info",
        "data": {},
        **fields,
    }
    return json.dumps(record) + "\n"


def write_log(project: Path, run_id: str = "run-1") -> Path:
    logs = project / ".forge" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    path = logs / f"{run_id}.jsonl"
    path.write_text(
        _entry("validate", moduleId="auth", severity="warn", data={"passed": False, "score": 0.5})
        + "not json at all\n"
        + _entry("validate", moduleId="api", data={"passed": True})
        + _entry("session_save", phase="session")
        + _entry("validate_error", moduleId="auth", severity="error", phase="tool_call"),
        encoding="utf-8",
    )
    return path


def test_text_output_one_line_per_event(run_forge: RunForge, project: Path) -> None:
    write_log(project)
    completed = run_forge("logs")
    assert completed.returncode == 0
    lines = completed.stdout.splitlines()
    assert len(lines) == 4  # the corrupt line is skipped
    assert lines[0] == "09:44:00.123 WARN  validation validate auth passed=false score=0.5"
    assert "\033[" not in completed.stdout


def test_filters_and_json(run_forge: RunForge, project: Path) -> None:
    write_log(project)
    result = json.loads(run_forge("logs", "--module", "auth", "--json").stdout)
    assert (result["runId"], result["total"]) == ("run-1", 2)
    assert [e["event"] for e in result["entries"]] == ["validate", "validate_error"]
    result = json.loads(run_forge("logs", "--severity", "error", "--json").stdout)
    assert [e["event"] for e in result["entries"]] == ["validate_error"]
    result = json.loads(run_forge("logs", "--phase", "session", "--json").stdout)
    assert [e["event"] for e in result["entries"]] == ["session_save"]
    limited = run_forge("logs", "--limit", "2")
    assert len(limited.stdout.splitlines()) == 3
    assert limited.stdout.splitlines()[-1] == "(2 of 4 shown; --limit for more)"


def test_run_id_picks_the_log(run_forge: RunForge, project: Path) -> None:
    write_log(project, "older")
    write_log(project, "newer")
    assert json.loads(run_forge("logs", "--json").stdout)["runId"] == "newer"
    assert json.loads(run_forge("logs", "--run-id", "older", "--json").stdout)["runId"] == "older"
    completed = run_forge("logs", "--run-id", "nope")
    assert (completed.returncode, completed.stdout) == (0, "")
    assert completed.stderr == "No log for runId 'nope'.\n"


def test_errors_exit_2_with_one_line(run_forge: RunForge) -> None:
    for args in (["--limit", "0"], ["--run-id", "../x"], ["--phase", "nap"]):
        completed = run_forge("logs", *args)
        assert completed.returncode == 2, args
        assert completed.stderr.startswith("forge logs: error:")
        assert len(completed.stderr.splitlines()) == 1


def test_no_logs_yet(run_forge: RunForge) -> None:
    completed = run_forge("logs")
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "", "No logs yet.\n")


def test_follow_prints_new_events_as_json_lines(project: Path) -> None:
    path = write_log(project)
    with subprocess.Popen(
        [forge_executable(), "logs", "--follow", "--json", "--module", "auth"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=os.environ.copy(),
    ) as process:
        try:
            assert process.stdout is not None
            assert json.loads(process.stdout.readline())["event"] == "validate"
            assert json.loads(process.stdout.readline())["event"] == "validate_error"
            time.sleep(0.3)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(_entry("not_for_auth", moduleId="api"))
                handle.write(_entry("iteration_update", moduleId="auth", phase="retry"))
            assert json.loads(process.stdout.readline())["event"] == "iteration_update"
        finally:
            process.terminate()


def test_control_characters_in_an_event_are_escaped_in_text_and_real_in_json(
    run_forge: RunForge, project: Path
) -> None:
    """A value without spaces was printed raw, and JSON encoding leaves C1 controls as they are."""
    raw = {"reason": "x\x1b[31mred\ny", "title": "a b\x85c", "plan\x1bPath": "p"}
    logs = project / ".forge" / "logs"
    logs.mkdir(parents=True)
    (logs / "run-1.jsonl").write_text(
        _entry("validate\x07", moduleId="auth", data=raw), encoding="utf-8"
    )
    shown = run_forge("logs").stdout
    assert shown.splitlines() == [
        r"09:44:00.123 INFO  validation validate\x07 auth reason=x\x1b[31mred\ny "
        r'title="a b\x85c" plan\x1bPath=p'
    ]
    entry = json.loads(run_forge("logs", "--json").stdout)["entries"][0]
    assert (entry["event"], entry["data"]) == ("validate\x07", raw)
