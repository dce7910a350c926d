"""Nothing unjudged passes: a file forge could not judge escalates, and is not the worker's.

A file over ``[tool.forge] max-parse-bytes`` (or one forge cannot read) is a
result that is not a pass, raises no score, and makes the verdict ESCALATE
("fix the environment"), whatever else passed; such an attempt does not count
toward stagnation or the attempt limit.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from forge_testing import RunForge, forge_executable

#: About 5.5 MB of valid Python: over the default 5 MB parse limit.
BIG_BODY = "x = 1\n" * 916_667


def big_file(project: Path, tail: str) -> Path:
    """``big.py``: 5.5 MB of assignments, then ``tail``."""
    path = project / "big.py"
    path.write_text(BIG_BODY + tail, encoding="utf-8")
    assert path.stat().st_size > 5_500_000
    return path


def validate(run_forge: RunForge, *args: str) -> tuple[int, dict[str, Any]]:
    done = run_forge("validate", *args, "--json")
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def syntax_of(report: dict[str, Any], target: str) -> dict[str, Any]:
    found = [r for r in report["results"] if r["type"] == "syntax_check" and r["target"] == target]
    assert len(found) == 1, report["results"]
    return found[0]


def test_a_broken_file_over_the_parse_limit_escalates_rather_than_passes(
    project: Path, run_forge: RunForge
) -> None:
    big_file(project, "def broken(:\n")
    code, report = validate(run_forge, "--files", "big.py")
    assert code == 1
    assert report["passed"] is False and report["recommendation"] == "ESCALATE"
    syntax = syntax_of(report, "big.py")
    assert syntax["passed"] is False and syntax["unjudged"] is True
    assert "[tool.forge] max-parse-bytes" in syntax["message"]
    assert report["score"] == 0.5  # file_check passed; the unjudged file raised nothing
    assert "fix the environment" in report["reason"]
    assert "[tool.forge] max-parse-bytes" in report["reason"]
    text = run_forge("validate", "--files", "big.py")
    assert text.returncode == 1
    assert "PASSED" not in text.stdout and "PASS syntax_check" not in text.stdout
    assert "ESCALATE" in text.stdout and "max-parse-bytes" in text.stdout


def limit(project: Path, max_parse_bytes: int) -> None:
    (project / "pyproject.toml").write_text(
        f"[tool.forge]\nmax-parse-bytes = {max_parse_bytes}\n", encoding="utf-8"
    )


#: About 2 KB of Python whose last line does not parse.
SMALL_BROKEN = "x = 1\n" * 350 + "def broken(:\n"


def test_within_a_raised_limit_the_same_file_is_judged(project: Path, run_forge: RunForge) -> None:
    """The honest twins, at a configured limit (parsing 5.5 MB takes a loaded machine a
    minute): over it, ESCALATE; the limit raised, the broken file fails as the worker's
    (RETRY) and the mended one passes."""
    (project / "small.py").write_text(SMALL_BROKEN, encoding="utf-8")
    limit(project, 1000)
    code, report = validate(run_forge, "--files", "small.py", "--module", "over")
    assert code == 1 and report["recommendation"] == "ESCALATE"
    assert "over the 1,000-byte parse limit" in syntax_of(report, "small.py")["message"]
    limit(project, 3000)
    code, report = validate(run_forge, "--files", "small.py", "--module", "within")
    assert code == 1 and report["recommendation"] == "RETRY"
    syntax = syntax_of(report, "small.py")
    assert syntax["passed"] is False and "unjudged" not in syntax
    assert syntax["locations"][0]["line"] == 351
    (project / "small.py").write_text(SMALL_BROKEN.replace("(:", "():\n    pass"), encoding="utf-8")
    code, report = validate(run_forge, "--files", "small.py", "--module", "within")
    assert code == 0 and report["recommendation"] == "PROCEED"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_file_escalates(project: Path, run_forge: RunForge) -> None:
    secret = project / "secret.py"
    secret.write_text("x = 1\n", encoding="utf-8")
    secret.chmod(0)
    try:
        code, report = validate(run_forge, "--files", "secret.py")
    finally:
        secret.chmod(0o644)
    assert code == 1 and report["recommendation"] == "ESCALATE"
    assert syntax_of(report, "secret.py")["unjudged"] is True


def test_a_folder_listed_as_a_file_is_the_workers_failure(
    project: Path, run_forge: RunForge
) -> None:
    """The twin of the unreadable file: a folder where a file should be is something the
    worker can fix (file_check fails it), not forge's environment."""
    (project / "pkg.py").mkdir()
    code, report = validate(run_forge, "--files", "pkg.py")
    assert code == 1 and report["recommendation"] == "RETRY"
    assert not any(result.get("unjudged") for result in report["results"])


def test_unjudged_attempts_count_toward_neither_stagnation_nor_the_limit(
    project: Path, run_forge: RunForge
) -> None:
    """Three attempts forge could not judge, then the worker's own: a first attempt's RETRY,
    not "the same failures as the previous attempt" nor "the attempt limit is reached"."""
    (project / "small.py").write_text(SMALL_BROKEN, encoding="utf-8")
    limit(project, 1000)
    args = ("--files", "small.py", "--module", "small", "--max-attempts", "3")
    for attempt in (1, 2, 3):
        _, report = validate(run_forge, *args)
        assert (report["attempt"], report["recommendation"]) == (attempt, "ESCALATE")
        assert report["stagnant"] is False and report["sameAsPrev"] is False
        assert "change approach" not in report["reason"]
    limit(project, 3000)
    _, report = validate(run_forge, *args)
    assert report["recommendation"] == "RETRY", report["reason"]
    assert "attempt 1 of 3" in report["reason"]


def test_the_stop_of_a_worker_whose_file_is_too_large_escalates(project: Path) -> None:
    """The Stop hook validates the module: not a pass, not a block the worker can answer, but
    an escalation it is told about (the edit hook's "not checked" note is tests/cli's)."""
    plan = {"modules": [{"id": "big", "title": "Big", "objective": "o", "files": ["big.py"],
                         "verify": ["true"], "doneWhen": "done"}]}  # fmt: skip
    (project / ".forge" / "plans").mkdir(parents=True)
    (project / ".forge" / "plans" / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    big_file(project, "def broken(:\n")
    event = {"session_id": "s", "transcript_path": str(project / "t.jsonl"),
             "cwd": str(project), "hook_event_name": "Stop", "stop_hook_active": False}  # fmt: skip
    done = subprocess.run(
        [forge_executable(), "hook"],
        input=json.dumps(event),
        cwd=project,
        env={**os.environ, "FORGE_MODULE_ID": "big", "FORGE_RUN_ID": "run-1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    decision = json.loads(done.stdout)
    assert "decision" not in decision  # allowed: the worker cannot fix forge's limit
    assert "ESCALATE" in decision["systemMessage"]
    assert "max-parse-bytes" in decision["systemMessage"]
    history = json.loads(
        (project / ".forge" / "iterations" / "run-1" / "big.json").read_text(encoding="utf-8")
    )
    (attempt,) = history["attempts"]
    assert attempt["passed"] is False and attempt["unjudged"] is True
