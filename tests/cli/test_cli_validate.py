"""``forge validate`` from flags, run as the installed console script."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from pydantic import ValidationError

import forge
from forge.models import ValidateRequest

if TYPE_CHECKING:
    from forge_testing import RunForge


def test_version(run_forge: RunForge) -> None:
    completed = run_forge("--version")
    assert completed.returncode == 0
    assert completed.stdout.strip() == f"forge {forge.__version__}"


def test_missing_file_and_failing_command_exit_1_with_two_failures(run_forge: RunForge) -> None:
    completed = run_forge("validate", "--files", "missing.py", "--command", "false", "--json")
    assert completed.returncode == 1
    report = json.loads(completed.stdout)
    assert [(r["type"], r["target"], r["passed"]) for r in report["results"]] == [
        ("file_check", "missing.py", False),
        ("command", "false", False),
    ]
    assert report["passed"] is False
    assert report["score"] == 0
    assert report["attempt"] == 1
    assert report["recommendation"] == "RETRY"


def test_text_output_names_each_failure(run_forge: RunForge) -> None:
    completed = run_forge("validate", "--files", "missing.py", "--command", "echo oops >&2; false")
    assert completed.returncode == 1
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("FAIL file_check")
    assert "missing.py" in lines[0] and "does not exist" in lines[0]
    assert any(line.startswith("FAIL command") for line in lines)
    assert "      oops" in lines
    assert lines[-1] == "FAILED: 0/2 checks passed (score 0.00), attempt 1 -> RETRY"
    assert "\033[" not in completed.stdout  # not a terminal: no colour


def test_passing_module_exits_0_and_proceeds(run_forge: RunForge, project: Path) -> None:
    (project / "src").mkdir()
    (project / "src" / "a.txt").write_text("a", encoding="utf-8")
    completed = run_forge("validate", "--files", "src/a.txt", "--command", "test -f src/a.txt")
    assert completed.returncode == 0, completed.stdout
    assert completed.stdout.splitlines()[-1].startswith("PASSED: 2/2 checks passed (score 1.00)")
    assert completed.stdout.rstrip().endswith("-> PROCEED")


def test_score_counts_passed_checks(run_forge: RunForge, project: Path) -> None:
    (project / "here.txt").write_text("", encoding="utf-8")
    completed = run_forge(
        "validate", "--files", "here.txt", "gone.txt", "--command", "true", "--json"
    )
    assert json.loads(completed.stdout)["score"] == 0.6667


def test_missing_cwd_escalates_and_records_nothing(run_forge: RunForge, project: Path) -> None:
    completed = run_forge(
        "validate", "--cwd", "no/such/dir", "--files", "a.py", "--command", "true", "--json"
    )
    assert completed.returncode == 1
    report = json.loads(completed.stdout)
    assert [r["type"] for r in report["results"]] == ["cwd_check"]
    assert "no/such/dir" in report["results"][0]["message"]
    assert (report["passed"], report["score"], report["attempt"]) == (False, 0, 0)
    assert report["recommendation"] == "ESCALATE"
    assert not (project / ".forge").exists()


def test_cwd_that_is_a_file_escalates(run_forge: RunForge, project: Path) -> None:
    (project / "file").write_text("", encoding="utf-8")
    report = json.loads(run_forge("validate", "--cwd", "file", "--json").stdout)
    assert report["results"][0]["message"].endswith(
        "is not a directory: pass an existing directory as cwd"
    )


def test_attempts_are_counted_per_run_and_module(run_forge: RunForge, project: Path) -> None:
    def attempt(run: str, module: str) -> dict[str, object]:
        completed = run_forge(
            "validate",
            "--command",
            "false",
            "--run-id",
            run,
            "--module-id",
            module,
            "--max-attempts",
            "5",
            "--json",
        )
        return json.loads(completed.stdout)  # type: ignore[no-any-return]

    assert attempt("r1", "m1")["attempt"] == 1
    second = attempt("r1", "m1")
    assert (second["attempt"], second["sameAsPrev"], second["recommendation"]) == (
        2,
        True,
        "ESCALATE",
    )
    assert attempt("r2", "m1")["attempt"] == 1
    assert attempt("r1", "m2")["attempt"] == 1
    stored = json.loads((project / ".forge/iterations/r1/m1.json").read_text(encoding="utf-8"))
    assert [a["failures"] for a in stored["attempts"]] == [["command:false"], ["command:false"]]


def test_escalates_at_the_attempt_limit(run_forge: RunForge, project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.forge]\nmax-attempts = 2\n", encoding="utf-8")
    first = json.loads(run_forge("validate", "--files", "a.txt", "--json").stdout)
    (project / "a.txt").write_text("", encoding="utf-8")
    second = json.loads(run_forge("validate", "--files", "a.txt", "b.txt", "--json").stdout)
    assert first["recommendation"] == "RETRY"
    assert (second["attempt"], second["sameAsPrev"], second["recommendation"]) == (
        2,
        False,
        "ESCALATE",
    )


def test_usage_errors_exit_2_with_one_line(run_forge: RunForge) -> None:
    for args in (
        ["validate", "--timeout", "-1"],
        ["validate", "--max-attempts", "0"],
        ["validate", "--command", ""],
    ):
        completed = run_forge(*args)
        assert completed.returncode == 2, args
        assert len(completed.stderr.strip().splitlines()) == 1, completed.stderr
        assert completed.stderr.startswith("forge validate: error: invalid argument:")
    assert run_forge("validate", "--no-such-flag").returncode == 2
    assert run_forge().returncode == 2


def test_bad_config_is_a_one_line_usage_error(run_forge: RunForge, project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.forge\n", encoding="utf-8")
    completed = run_forge("validate", "--command", "true")
    assert completed.returncode == 2
    assert "pyproject.toml: cannot read [tool.forge]" in completed.stderr
    (project / "pyproject.toml").write_text(
        '[tool.forge]\nmax-attempts = "many"\n', encoding="utf-8"
    )
    completed = run_forge("validate", "--command", "true")
    assert completed.returncode == 2
    assert "max-attempts" in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1


def test_a_closed_pipe_is_not_a_traceback(project: Path) -> None:
    """``forge validate --json | head -1``: the reader leaves early; forge stops quietly."""
    import subprocess

    from forge_testing import forge_executable

    files = [f"f{n}.txt" for n in range(400)]
    pipeline = subprocess.run(
        f"{forge_executable()} validate --json --files {' '.join(files)} | head -1",
        shell=True,
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert pipeline.stdout == "{\n"
    assert "Traceback" not in pipeline.stderr
    assert "BrokenPipeError" not in pipeline.stderr


@pytest.mark.parametrize(
    "fields",
    [
        {"files": ["bad\0name.py"]},
        {"cwd": "dir\0"},
        {"contract_checks": [{"exporter": "a.py", "importer": "b\0.py"}]},
    ],
)
def test_a_nul_byte_in_a_path_is_rejected_by_the_request(fields: dict[str, object]) -> None:
    """No file can have a NUL in its path; the request says so instead of a check crashing."""
    with pytest.raises(ValidationError, match="should match pattern"):
        ValidateRequest.model_validate({"module_id": "m", **fields})
