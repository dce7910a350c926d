"""``forge validate`` from flags, run as the installed console script."""

from __future__ import annotations

import json
import shutil
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
    # One module: ad-hoc runs of different files have separate histories (issue 18).
    first = json.loads(
        run_forge("validate", "--module-id", "m1", "--files", "a.txt", "--json").stdout
    )
    (project / "a.txt").write_text("", encoding="utf-8")
    second = json.loads(
        run_forge("validate", "--module-id", "m1", "--files", "a.txt", "b.txt", "--json").stdout
    )
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


# --- report formats ------------------------------------------------------------------

SARIF_SCHEMA = Path(__file__).resolve().parent.parent / "data" / "sarif-schema-2.1.0.json"


def test_sarif_output_is_schema_valid(run_forge: RunForge, project: Path) -> None:
    import jsonschema

    completed = run_forge(
        "validate", "--files", "gone.py", "--command", "false", "--format", "sarif"
    )
    assert completed.returncode == 1
    log = json.loads(completed.stdout)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "file_check"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "gone.py"


def test_junit_output_to_a_file_parses(run_forge: RunForge, project: Path) -> None:
    from junitparser import JUnitXml

    (project / "here.txt").write_text("", encoding="utf-8")
    completed = run_forge(
        "validate",
        "--files",
        "here.txt",
        "--command",
        "echo broken >&2; exit 3",
        "--format",
        "junit",
        "--output-file",
        "out/junit.xml",
    )
    assert completed.returncode == 2  # out/ does not exist: a usage error, one line
    assert completed.stderr.startswith("forge validate: error: cannot write out/junit.xml")
    (project / "out").mkdir()
    completed = run_forge(
        "validate",
        "--files",
        "here.txt",
        "--command",
        "echo broken >&2; exit 3",
        "--format",
        "junit",
        "-o",
        "out/junit.xml",
    )
    assert (completed.returncode, completed.stdout) == (1, "")
    (suite,) = JUnitXml.fromfile(str(project / "out" / "junit.xml"))
    assert (suite.tests, suite.failures) == (2, 1)
    assert suite.name.startswith("adhoc-")  # a validation that names no module
    failing = [case for case in suite if case.result]
    assert [case.name for case in failing] == ["echo broken >&2; exit 3"]
    assert "broken" in (failing[0].result[0].text or "")


def test_json_flag_and_format_must_agree(run_forge: RunForge) -> None:
    completed = run_forge("validate", "--json", "--format", "sarif")
    assert completed.returncode == 2
    assert completed.stderr == (
        "forge validate: error: --json and --format sarif disagree: give one of them\n"
    )
    assert run_forge("validate", "--format", "json", "--command", "true").returncode == 0


def test_plan_flags_need_each_other(run_forge: RunForge) -> None:
    for args, message in (
        (["--all"], "--all needs --plan PLAN"),
        (["--plan", "p.json", "--files", "a.py", "--all"], "cannot be combined with --plan"),
        (["--plan", "p.json"], "give --module ID or --all"),
        (["--format", "xml"], "invalid choice: 'xml'"),
        (["--command", "true", "--jobs", "2"], "--jobs applies to --plan PLAN --all"),
        (["--plan", "p.json", "--all", "--jobs", "0"], "--jobs 0: give at least 1"),
    ):
        completed = run_forge("validate", *args)
        assert completed.returncode == 2, args
        assert completed.stderr.startswith("forge validate: error:"), completed.stderr
        assert message in completed.stderr
        assert len(completed.stderr.splitlines()) == 1


def test_a_validation_is_logged(run_forge: RunForge, project: Path) -> None:
    run_forge("validate", "--command", "true", "--module-id", "m1", "--run-id", "r9")
    logged = json.loads(run_forge("logs", "--run-id", "r9", "--json").stdout)
    (entry,) = logged["entries"]
    assert (entry["event"], entry["moduleId"], entry["data"]["passed"]) == ("validate", "m1", True)


def test_sarif_carries_syntax_and_contract_locations(run_forge: RunForge, project: Path) -> None:
    import jsonschema

    (project / "src").mkdir()
    (project / "src" / "bad.py").write_text("x = 1\ndef f(:\n    pass\n", encoding="utf-8")
    (project / "src" / "api.ts").write_text("export function a() {}\n", encoding="utf-8")
    (project / "src" / "app.ts").write_text('import { b } from "./api";\n', encoding="utf-8")
    completed = run_forge(
        "validate",
        "--files",
        "src/bad.py",
        "src/app.ts",
        "--contract",
        "src/api.ts:src/app.ts",
        "--format",
        "sarif",
    )
    assert completed.returncode == 1
    log = json.loads(completed.stdout)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    located = {
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
        )
        for r in log["runs"][0]["results"]
    }
    assert ("syntax_check", "src/bad.py", 2, 7) in located
    assert ("contract_check", "src/app.ts", 1, 10) in located


def test_sarif_carries_stub_findings(run_forge: RunForge, project: Path) -> None:
    # forge-stubs is installed beside forge in the dev environment (CI too); conftest
    # disables it for core tests, so turn it back on here.
    (project / "svc.py").write_text(
        "def run() -> None:\n    raise NotImplementedError\n", encoding="utf-8"
    )
    completed = run_forge(
        "validate", "--files", "svc.py", "--format", "sarif", env={"FORGE_DISABLE_PLUGINS": "types"}
    )
    log = json.loads(completed.stdout)
    results = [r for r in log["runs"][0]["results"] if r["ruleId"] == "stub_check"]
    assert [r["locations"][0]["physicalLocation"]["region"] for r in results] == [
        {"startLine": 2, "startColumn": 5}
    ]


# --- from a plan ---------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def quickstart(project: Path) -> str:
    """The bundled quick-start plan and example project, copied into ``project``."""
    shutil.copytree(EXAMPLES / "project", project / "example")
    shutil.copy(EXAMPLES / "plans" / "valid" / "quickstart.json", project / "quickstart.json")
    return "quickstart.json"


def test_quickstart_all_passes_one_fails_one_skips_one(run_forge: RunForge, project: Path) -> None:
    plan = quickstart(project)
    completed = run_forge("validate", "--plan", plan, "--all", "--cwd", "example")
    assert completed.returncode == 1, completed.stderr
    rows = {line.split()[0]: line for line in completed.stdout.splitlines() if line}
    assert rows["greeter"].split()[1:5] == ["passed", "1.00", "1", "PROCEED"]
    assert rows["farewell"].split()[1:5] == ["failed", "0.00", "1", "RETRY"]
    assert "farewell.py does not exist" in rows["farewell"]
    assert rows["cli"].split()[1] == "skipped"
    assert "dependency did not pass: farewell failed" in rows["cli"]
    assert "ModuleNotFoundError: No module named 'farewell'" in completed.stdout
    assert completed.stdout.splitlines()[-1] == ("FAILED: 1/3 modules passed, 1 failed, 1 skipped")
    # Attempt history as the MCP tool records it; the skipped module has none.
    history = project / ".forge" / "iterations"
    assert sorted(p.name for p in history.glob("*.json")) == ["farewell.json", "greeter.json"]


def test_plan_module_with_run_id_records_logs_and_status(
    run_forge: RunForge, project: Path
) -> None:
    plan = quickstart(project)
    completed = run_forge(
        "validate",
        "--plan",
        plan,
        "--module",
        "greeter",
        "--cwd",
        "example",
        "--run-id",
        "r1",
        "--json",
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert (report["moduleId"], report["runId"], report["attempt"]) == ("greeter", "r1", 1)
    assert {r["target"] for r in report["results"] if r["type"] == "command"} == {
        "python3 -m unittest -q test_greeter"
    }
    assert (project / ".forge/iterations/r1/greeter.json").is_file()
    logged = json.loads(run_forge("logs", "--run-id", "r1", "--json").stdout)
    assert [e["event"] for e in logged["entries"]] == ["validate_plan", "validate"]
    status = json.loads(run_forge("status", "--json").stdout)
    assert status["runId"] == "r1"
    assert ("greeter", "done") in [(m["id"], m["state"]) for m in status["modules"]]


def test_plan_all_as_json_sarif_and_junit(run_forge: RunForge, project: Path) -> None:
    import jsonschema
    from junitparser import JUnitXml

    plan = quickstart(project)
    base = ("validate", "--plan", plan, "--all", "--cwd", "example")
    result = json.loads(run_forge(*base, "--format", "json").stdout)
    assert result["counts"] == {"passed": 1, "failed": 1, "skipped": 1}
    log = json.loads(run_forge(*base, "--format", "sarif").stdout)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    ]
    assert uris == ["example/farewell.py"]  # relative to the project root, as CI checks out
    run_forge(*base, "--format", "junit", "-o", "junit.xml")
    xml = JUnitXml.fromfile(str(project / "junit.xml"))
    assert [(s.name, s.failures, s.skipped) for s in xml] == [
        ("greeter", 0, 0),
        ("farewell", 2, 0),
        ("cli", 0, 1),
    ]


def test_plan_errors_are_one_line(run_forge: RunForge, project: Path) -> None:
    plan = quickstart(project)
    unknown = run_forge("validate", "--plan", plan, "--module", "nope")
    assert unknown.returncode == 2
    assert unknown.stderr == (
        "forge validate: error: no module 'nope' in the plan: its modules are "
        "greeter, farewell, cli\n"
    )
    (project / "cycle.json").write_text(
        json.dumps(
            {
                "modules": [
                    {
                        "id": module_id,
                        "title": module_id,
                        "objective": "o",
                        "files": [f"{module_id}.py"],
                        "verify": ["true"],
                        "doneWhen": "d",
                        "dependsOn": [other],
                    }
                    for module_id, other in (("a", "b"), ("b", "a"))
                ]
            }
        ),
        encoding="utf-8",
    )
    cycle = run_forge("validate", "--plan", "cycle.json", "--all")
    assert cycle.returncode == 2
    assert cycle.stderr.startswith("forge validate: error: plan ")
    assert "cycle" in cycle.stderr
    assert len(cycle.stderr.splitlines()) == 1
    missing = run_forge("validate", "--plan", "nope.json", "--all")
    assert missing.returncode == 2
    assert "no such file" in missing.stderr


def test_progress_only_on_a_terminal(run_forge: RunForge, project: Path) -> None:
    import os
    import pty
    import select
    import subprocess

    from forge_testing import forge_executable

    plan = quickstart(project)
    args = ("validate", "--plan", plan, "--all", "--cwd", "example")
    assert run_forge(*args).stderr == ""  # piped: no progress line
    controller, terminal = pty.openpty()
    with subprocess.Popen(
        [forge_executable(), *args],
        cwd=project,
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env={**os.environ, "TERM": "xterm"},
    ) as process:
        os.close(terminal)
        screen = b""
        while True:
            ready, _, _ = select.select([controller], [], [], 30)
            assert ready, screen[-500:]
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the command exited and its output is drained
                break
            if not chunk:
                break
            screen += chunk
        assert process.wait(timeout=30) == 1
    os.close(controller)
    text = screen.decode("utf-8", errors="replace")
    assert "[1/3] validating greeter (Greeter)" in text
    assert "[2/3] validating farewell (Farewell)" in text
    assert "\r\033[K" in text  # redrawn in place, then erased before ordinary output


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


def _waiting_plan(project: Path) -> str:
    """Two independent modules that each wait for the other to start, then a dependent one.

    ``first`` also waits for ``second`` to finish, so ``second`` ends first.
    Run one at a time, ``first`` waits for a module that never starts and
    times out; only a parallel run passes.
    """
    wait = "i=0; while [ ! -f {0} ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; test -f {0}"

    def module(module_id: str, command: str, depends: list[str]) -> dict[str, object]:
        return {
            "id": module_id,
            "title": module_id,
            "objective": "wait",
            "files": ["plan.json"],
            "verify": [command],
            "doneWhen": "it ran",
            "dependsOn": depends,
        }

    plan = {
        "modules": [
            module("first", f"touch first.started && {wait.format('second.done')}", []),
            module(
                "second",
                f"touch second.started && {wait.format('first.started')} && touch second.done",
                [],
            ),
            module("after", "test -f first.started && test -f second.done", ["first", "second"]),
        ]
    }
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    return "plan.json"


def test_all_runs_the_modules_of_a_layer_in_parallel_and_reports_in_plan_order(
    run_forge: RunForge, project: Path
) -> None:
    plan = _waiting_plan(project)
    completed = run_forge("validate", "--plan", plan, "--all", "--jobs", "2", "--timeout", "30")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    rows = [line.split()[:2] for line in completed.stdout.splitlines() if line.split()]
    modules = [row for row in rows if row[0] in {"first", "second", "after"}]
    assert modules == [["first", "passed"], ["second", "passed"], ["after", "passed"]]


def test_jobs_1_runs_one_module_at_a_time(run_forge: RunForge, project: Path) -> None:
    plan = _waiting_plan(project)
    completed = run_forge("validate", "--plan", plan, "--all", "--jobs", "1", "--timeout", "30")
    assert completed.returncode == 1
    rows = {
        line.split()[0]: line.split()[1] for line in completed.stdout.splitlines() if line.split()
    }
    assert (rows["first"], rows["second"], rows["after"]) == ("failed", "passed", "skipped")


def test_a_file_name_with_a_newline_is_one_escaped_line_of_text_and_itself_in_json(
    run_forge: RunForge, project: Path
) -> None:
    """Printed raw, one finding spanned two lines (the second looking like a finding of its own)."""
    broken, missing = "bad\nname.py", "gone\r\x1b[31mred.py"
    (project / broken).write_text("def f(:\n", encoding="utf-8")
    done = run_forge("validate", "--files", broken, missing)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == r"PASS file_check    bad\nname.py: exists"
    assert lines[1].startswith(r"FAIL file_check    gone\r\x1b[31mred.py: ")
    assert lines[1].endswith(r"gone\r\x1b[31mred.py does not exist")
    assert lines[2].startswith(r"FAIL syntax_check  bad\nname.py: 1 syntax error (python)")
    assert lines[3] == r"bad\nname.py:1:7: missing `)`"
    assert "\r" not in done.stdout and "\x1b" not in done.stdout
    report = json.loads(run_forge("validate", "--files", broken, missing, "--json").stdout)
    targets = [(result["type"], result["target"]) for result in report["results"]]
    assert ("syntax_check", broken) in targets and ("file_check", missing) in targets


def test_the_source_line_under_a_syntax_error_is_escaped_and_the_caret_still_points(
    run_forge: RunForge, project: Path
) -> None:
    """The line of source under a syntax error was printed raw: an escape sequence in a
    string literal drove the terminal. Tabs stay tabs, so the caret lines up under them."""
    source_line = '\tx = "\x1b[31mred\x7f" + )'
    (project / "bad.py").write_text(f"if True:\n{source_line}\n", encoding="utf-8")
    done = run_forge("validate", "--files", "bad.py")
    assert done.returncode == 1
    assert "\x1b" not in done.stdout and "\x7f" not in done.stdout
    lines = done.stdout.splitlines()
    at = lines.index("    \t" + r'x = "\x1b[31mred\x7f" + )')
    report = json.loads(run_forge("validate", "--files", "bad.py", "--json").stdout)
    (place,) = next(r for r in report["results"] if r["type"] == "syntax_check")["locations"]
    assert place["sourceLine"] == source_line
    assert source_line[place["column"] - 1] == ")"
    # The caret under the `)` as shown, past the escapes' wider text.
    shown, caret = lines[at][4:], lines[at + 1][4:]
    assert caret.endswith("^") and set(caret[:-1]) <= {" ", "\t"}
    assert shown[len(caret) - 1] == ")"
