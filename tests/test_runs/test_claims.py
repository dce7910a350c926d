"""Claims against evidence (issue 39): the Stop hook reads the worker's last message from a
real Claude Code transcript (JSONL) and compares its claim with forge's recorded run.

The installed ``forge hook`` gets a real Stop / SubagentStop event; the verify
command is real pytest over the issue's calc module.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from forge_testing import forge_executable
from run_evidence_testing import BROKEN_CALC, CALC, PLAN, PLAN_PATH, TESTS, environment

from forge.test_runs.claims import claim_in, last_message

SESSION = "5f1c0a3e-8f0b-4c52-9d0e-1a2b3c4d5e6f"


def transcript(path: Path, last: str) -> Path:
    """A Claude Code session transcript: a prompt, a tool call and its result, a last message."""

    def line(kind: str, message: dict[str, Any], n: int) -> str:
        return json.dumps(
            {
                "parentUuid": f"u{n - 1}" if n else None,
                "isSidechain": False,
                "userType": "external",
                "cwd": str(path.parent),
                "sessionId": SESSION,
                "version": "2.0.14",
                "type": kind,
                "message": message,
                "uuid": f"u{n}",
                "timestamp": f"2026-11-28T09:00:0{n}.000Z",
            }
        )

    entries = [
        line("user", {"role": "user", "content": "Implement mul in src/calc.py."}, 0),
        line(
            "assistant",
            {
                "id": "msg_01",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "text", "text": "I'll run the tests first; all tests pass, I hope."},
                    {"type": "tool_use", "id": "toolu_1", "name": "Bash",
                     "input": {"command": "python -m pytest -q tests"}},
                ],
            },
            1,
        ),
        line(
            "user",
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "2 passed in 0.01s"}
            ]},
            2,
        ),
        line(
            "assistant",
            {
                "id": "msg_02",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": last}],
                "stop_reason": "end_turn",
            },
            3,
        ),
    ]  # fmt: skip
    path.write_text("\n".join(entries) + "\n", encoding="utf-8")
    return path


def project_with(project: Path, code: str) -> None:
    for name, text in {
        PLAN_PATH: json.dumps(PLAN),
        "src/calc.py": code,
        "tests/test_calc.py": TESTS,
    }.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")


def stop(project: Path, last: str, event: str = "Stop") -> dict[str, Any] | None:
    """``forge hook`` on a stop event whose transcript ends with ``last``; its decision."""
    path = transcript(project / "transcript.jsonl", last)
    payload = {
        "session_id": SESSION,
        "transcript_path": str(path),
        "cwd": str(project),
        "permission_mode": "default",
        "hook_event_name": event,
        "stop_hook_active": False,
    }
    done = subprocess.run(
        [forge_executable(), "hook"],
        input=json.dumps(payload),
        cwd=project,
        env={**environment(), "FORGE_MODULE_ID": "calc", "FORGE_RUN_ID": "run-1"},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def test_all_tests_pass_over_a_failing_run_is_blocked_with_the_counts(project: Path) -> None:
    project_with(project, BROKEN_CALC)
    decision = stop(project, "Done: mul is implemented and all tests pass.")
    assert decision is not None and decision["decision"] == "block"
    assert 'your last message says "all tests pass"' in decision["reason"]
    assert "python -m pytest -q tests: 1 passed, 1 failed (pytest)" in decision["reason"]


def test_a_count_that_is_not_the_recorded_one_blocks_a_passing_module(project: Path) -> None:
    project_with(project, CALC)
    decision = stop(project, "All 20 tests pass.", event="SubagentStop")
    assert decision is not None and decision["decision"] == "block"
    assert 'says "All 20 tests pass"' in decision["reason"]
    assert "2 passed (pytest)" in decision["reason"]


@pytest.mark.parametrize(
    "last", ["All 2 tests pass.", "Implemented mul; all tests pass.", "mul is done."]
)
def test_honest_twins_a_true_claim_or_none_is_allowed(project: Path, last: str) -> None:
    project_with(project, CALC)
    assert stop(project, last) is None


def test_an_honest_report_of_failure_is_blocked_without_a_claim_line(project: Path) -> None:
    project_with(project, BROKEN_CALC)
    decision = stop(project, "mul is not right yet: not all tests pass.")
    assert decision is not None and decision["decision"] == "block"
    assert "your last message says" not in decision["reason"]


@pytest.mark.parametrize(
    ("text", "claim", "count"),
    [
        ("All tests pass.", "All tests pass", None),
        ("Summary:\n- all 20 tests pass", "all 20 tests pass", 20),
        ("20/20 tests passed!", "20/20 tests passed", 20),
        ("The tests are green now.", "tests are green", None),
        ("ALL PASSED", "ALL PASSED", None),
        ("12 unit tests passing", "12 unit tests passing", 12),
        ("All tests pass after fixing mul.", "All tests pass", None),
        ("Not all tests pass.", None, None),
        ("All tests pass except test_mul.", None, None),
        ("3 tests failed, 2 tests passed", None, None),
        ("Once this lands all tests should pass.", None, None),
        ("I wrote 3 tests.", None, None),
    ],
)
def test_claims_are_the_plain_shapes_only(text: str, claim: str | None, count: int | None) -> None:
    found = claim_in(text)
    assert (found.text if found else None, found.count if found else None) == (claim, count)


def test_the_last_message_is_the_last_assistant_text(tmp_path: Path) -> None:
    path = transcript(tmp_path / "t.jsonl", "Finished.")
    assert last_message({"transcript_path": str(path)}) == "Finished."
    with path.open("a", encoding="utf-8") as handle:
        handle.write("{not json\n")
    assert last_message({"transcript_path": str(path)}) == "Finished."
    assert last_message({"transcript_path": str(tmp_path / "missing.jsonl")}) is None
    assert last_message({}) is None
    link = tmp_path / "link.jsonl"
    link.symlink_to(path)
    assert last_message({"transcript_path": str(link)}) is None
