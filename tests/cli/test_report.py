"""``forge report merge``: reports of separate ``forge validate --json`` runs made one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
from forge_testing import RunForge, one_line_error
from junitparser import Failure, JUnitXml, Skipped

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SARIF_SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"


def quickstart(project: Path) -> str:
    shutil.copytree(EXAMPLES / "project", project / "example")
    shutil.copy(EXAMPLES / "plans" / "valid" / "quickstart.json", project / "quickstart.json")
    return "quickstart.json"


def test_reports_of_separate_jobs_give_one_table_one_junit_and_one_sarif(
    run_forge: RunForge, project: Path
) -> None:
    plan = quickstart(project)
    (project / "reports").mkdir()
    for module in ("greeter", "farewell"):  # two CI jobs of the plan's matrix; cli never ran
        done = run_forge(
            "validate", "--plan", plan, "--module", module, "--cwd", "example", "--json",
            "-o", f"reports/{module}.json",
        )  # fmt: skip
        assert done.returncode == (0 if module == "greeter" else 1), done.stderr
    merged = run_forge(
        "report", "merge", "reports/greeter.json", "reports/farewell.json", "--plan", plan,
        "--junit", "forge-junit.xml", "--sarif", "forge.sarif", "--cwd", "example",
    )  # fmt: skip
    assert merged.returncode == 1, merged.stderr
    rows = {line.split()[0]: line.split() for line in merged.stdout.splitlines() if line}
    assert rows["greeter"][1:3] == ["passed", "1.00"]
    assert rows["farewell"][1:3] == ["failed", "0.00"]
    assert rows["cli"][1] == "skipped"
    assert "FAILED: 1/3 modules passed, 1 failed, 1 skipped" in merged.stdout

    log = json.loads((project / "forge.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    [run] = log["runs"]
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    }
    assert uris == {"example/farewell.py"}
    assert {rule["id"] for rule in run["tool"]["driver"]["rules"]} == {"file_check", "command"}
    [notification] = run["invocations"][0]["toolExecutionNotifications"]
    assert notification["properties"]["moduleId"] == "farewell"
    assert notification["properties"]["target"].startswith("python3 -c")

    xml = JUnitXml.fromfile(str(project / "forge-junit.xml"))
    suites = {suite.name: suite for suite in xml}
    assert [(name, s.failures, s.skipped) for name, s in suites.items()] == [
        ("greeter", 0, 0),
        ("farewell", 2, 0),
        ("cli", 0, 1),
    ]
    commands = [case for case in suites["greeter"] if case.classname == "forge.greeter.command"]
    assert [case.time > 0 for case in commands] == [True]  # durations read back from the report
    failed = [case for case in suites["farewell"] if case.result]
    assert all(isinstance(case.result[0], Failure) for case in failed)
    assert isinstance(next(iter(suites["cli"])).result[0], Skipped)

    as_json = json.loads(run_forge("report", "merge", "reports/greeter.json", "--json").stdout)
    assert as_json["passed"] is True and as_json["counts"]["passed"] == 1
    assert as_json["modules"][0]["report"] == json.loads(
        (project / "reports" / "greeter.json").read_text(encoding="utf-8")
    )


def test_a_file_that_is_no_report_is_a_usage_error(run_forge: RunForge, project: Path) -> None:
    (project / "other.json").write_text('{"hello": 1}', encoding="utf-8")
    (project / "broken.json").write_text("{", encoding="utf-8")
    assert "not a forge JSON report" in one_line_error(run_forge("report", "merge", "other.json"))
    assert "not a forge JSON report" in one_line_error(run_forge("report", "merge", "broken.json"))
    assert "no such report file" in one_line_error(run_forge("report", "merge", "gone.json"))
    assert "an action is required: merge" in one_line_error(run_forge("report"))
