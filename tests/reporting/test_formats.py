"""SARIF and JUnit renderers, checked by real consumers: the SARIF 2.1.0 schema and junitparser."""

from __future__ import annotations

import json
from pathlib import Path

from forge_testing import assert_valid_sarif
from junitparser import Failure, JUnitXml, Skipped

from forge.models import CheckResult, CommandResult, Location, SyntaxLocation
from forge.reporting.formats import ModuleRun, places, to_json, to_junit, to_sarif
from forge.validate.outcome import ValidateReport


def _report(module_id: str, results: list[CheckResult]) -> ValidateReport:
    passed = sum(r.passed for r in results)
    return ValidateReport(
        passed=passed == len(results),
        score=round(passed / len(results), 4) if results else 1.0,
        results=results,
        attempt=1,
        stagnant=False,
        same_as_prev=False,
        oscillating=False,
        velocity=None,
        recommendation="PROCEED" if passed == len(results) else "RETRY",
        module_id=module_id,
        max_attempts=3,
    )


def sample_runs(root: Path) -> list[ModuleRun]:
    """A passing module, a failing one with every kind of located failure, a skipped one."""
    (root / "src").mkdir(exist_ok=True)
    (root / "src" / "ok.py").write_text("x = 1\n", encoding="utf-8")
    good = _report("good", [CheckResult(type="file_check", target="src/ok.py", passed=True)])
    # Results as the syntax, contract and stub checks shape them (extra fields are allowed).
    syntax = CheckResult(
        type="syntax_check",
        target="src/bad.py",
        passed=False,
        message="2 syntax errors",
        locations=[
            SyntaxLocation(line=3, column=9, message="unexpected `)`", source_line="f(a, ))"),
            SyntaxLocation(line=7, column=1, message="missing `:`", source_line="def g()"),
        ],
    )
    contract = CheckResult(
        type="contract_check",
        target="src/api.ts -> src/app.ts",
        passed=False,
        message="1 missing",
        locations=[
            Location(
                path="src/app.ts",
                line=1,
                column=10,
                message="`fetchUser` is not exported by src/api.ts; did you mean `fetchUsers`?",
            )
        ],
    )
    stub = CheckResult(
        type="stub_check",
        target="src/service.py",
        passed=False,
        message="1 placeholder",
        locations=[
            Location(
                line=12,
                column=5,
                message="placeholder (not_implemented) in Service.run: raise NotImplementedError",
            )
        ],
    )
    missing = CheckResult(
        type="file_check", target="src/gone.py", passed=False, message="does not exist"
    )
    command = CommandResult(
        type="command",
        target="pytest -q",
        passed=False,
        message="exit 1 in 20 ms",
        exit_code=1,
        duration_ms=20,
        stdout="1 failed\x1b[0m \x00",
    )
    bad = _report("bad", [syntax, contract, stub, missing, command])
    return [
        ModuleRun("good", root, good, title="Good", seconds=0.5),
        ModuleRun("bad", root, bad, title="Bad", seconds=1.25),
        ModuleRun("late", root, skipped="dependency did not pass: bad failed", title="Late"),
    ]


def test_places_of_each_result_shape(tmp_path: Path) -> None:
    runs = sample_runs(tmp_path)
    assert runs[1].report is not None
    syntax, contract, stub, missing, command = runs[1].report.results
    assert [(p.path, p.line, p.column, p.message) for p in places(syntax)] == [
        ("src/bad.py", 3, 9, "unexpected `)`"),
        ("src/bad.py", 7, 1, "missing `:`"),
    ]
    # A contract miss is in the importer, not in the pair's target.
    assert [(p.path, p.line, p.column, p.message) for p in places(contract)] == [
        (
            "src/app.ts",
            1,
            10,
            "`fetchUser` is not exported by src/api.ts; did you mean `fetchUsers`?",
        )
    ]
    assert [(p.path, p.line, p.message) for p in places(stub)] == [
        (
            "src/service.py",
            12,
            "placeholder (not_implemented) in Service.run: raise NotImplementedError",
        )
    ]
    assert places(missing) == [] and places(command) == []


def test_sarif_is_schema_valid_with_file_line_and_column(tmp_path: Path) -> None:
    log = to_sarif(sample_runs(tmp_path), tmp_path)
    assert_valid_sarif(log)
    run = log["runs"][0]
    located = [
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"].get("region"),
        )
        for r in run["results"]
    ]
    assert located == [
        ("syntax_check", "src/bad.py", {"startLine": 3, "startColumn": 9}),
        ("syntax_check", "src/bad.py", {"startLine": 7, "startColumn": 1}),
        ("contract_check", "src/app.ts", {"startLine": 1, "startColumn": 10}),
        ("stub_check", "src/service.py", {"startLine": 12, "startColumn": 5}),
        ("file_check", "src/gone.py", None),
    ]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [
        "syntax_check",
        "contract_check",
        "stub_check",
        "file_check",
        "command",
    ]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])
    assert run["originalUriBaseIds"]["PROJECTROOT"]["uri"] == tmp_path.resolve().as_uri() + "/"
    # A failure located nowhere (a command) is a notification: code scanning needs locations.
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [n["message"]["text"] for n in notes] == ["bad: command pytest -q: exit 1 in 20 ms"]


def test_sarif_paths_are_relative_to_the_project_root(tmp_path: Path) -> None:
    worktree = tmp_path / "worktrees" / "wt-a"
    worktree.mkdir(parents=True)
    runs = sample_runs(worktree)
    log = to_sarif(runs, tmp_path)
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    ]
    assert uris[0] == "worktrees/wt-a/src/bad.py"
    outside = to_sarif(runs, tmp_path / "elsewhere")
    assert_valid_sarif(outside)
    first = outside["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert first["artifactLocation"] == {"uri": (worktree / "src/bad.py").as_uri()}


def test_sarif_of_a_passing_run_has_no_results(tmp_path: Path) -> None:
    log = to_sarif(sample_runs(tmp_path)[:1], tmp_path)
    assert_valid_sarif(log)
    assert log["runs"][0]["results"] == []


def test_junit_parses_one_testcase_per_check(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    path.write_text(to_junit(sample_runs(tmp_path)), encoding="utf-8")
    xml = JUnitXml.fromfile(str(path))
    suites = {suite.name: suite for suite in xml}
    assert list(suites) == ["good", "bad", "late"]
    assert (suites["good"].tests, suites["good"].failures) == (1, 0)
    bad = suites["bad"]
    assert (bad.tests, bad.failures, bad.errors, bad.skipped) == (5, 5, 0, 0)
    cases = {case.name: case for case in bad}
    assert list(cases) == [
        "src/bad.py",
        "src/api.ts -> src/app.ts",
        "src/service.py",
        "src/gone.py",
        "pytest -q",
    ]
    failure = cases["src/bad.py"].result[0]
    assert isinstance(failure, Failure)
    assert failure.type == "syntax_check"
    assert "src/bad.py:3:9: unexpected `)`" in (failure.text or "")
    command_case = cases["pytest -q"]
    assert command_case.time == 0.02
    assert "1 failed" in (command_case.result[0].text or "")  # output tail, control chars made safe
    late = list(suites["late"])
    assert isinstance(late[0].result[0], Skipped)
    assert late[0].result[0].message == "dependency did not pass: bad failed"
    assert (xml.tests, xml.failures, xml.skipped) == (7, 5, 1)


def test_json_of_a_multi_module_run(tmp_path: Path) -> None:
    result = to_json(sample_runs(tmp_path))
    assert result["passed"] is False
    assert result["counts"] == {"passed": 1, "failed": 1, "skipped": 1}
    assert [(m["moduleId"], m["status"]) for m in result["modules"]] == [
        ("good", "passed"),
        ("bad", "failed"),
        ("late", "skipped"),
    ]
    assert result["modules"][2]["report"] is None
    json.dumps(result)
