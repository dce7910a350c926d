"""Validation reports in the formats CI understands: JSON, JUnit XML and SARIF 2.1.0.

The renderers take :class:`~forge.validate.outcome.ModuleRun` records (one per module validated, or
skipped because a dependency failed), so ``forge validate`` for one module
and for a whole plan share them.

Where a check knows *where* it failed, its result lists ``locations`` (path,
1-based line and column, message): the one channel every format reads. SARIF
turns each location into a result with file, line and column, so GitHub code
scanning and editors show it inline; JUnit lists them in the failure's text. A
failure with no location whose check declares a file target (``file_check``)
points at the file; a failure about no file at all (a verify command) is a
tool execution notification in SARIF, since code scanning rejects results
without a location. Rule descriptions come from the checks' descriptors.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge import __version__
from forge.config import disabled_plugins, load_config
from forge.git.worktrees import counterpart
from forge.models import CheckResult, Location, TestCounts
from forge.plugin_host.host import build_plugin_host
from forge.reporting.text import location_line
from forge.validate.outcome import ModuleRun, ValidateReport
from forge.validate.verdict import counts_as_failure

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

    from forge.models import CheckDescriptor
    from forge.plugin_host.catalog import Catalog

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/forge-validate/forge"
#: The ``uriBaseId`` every relative SARIF path is relative to: the project root.
ROOT_BASE_ID = "PROJECTROOT"
#: Places listed per failure in JUnit and SARIF; the rest are counted.
MAX_PLACES = 50


def places(result: CheckResult) -> list[Location]:
    """``result``'s locations, each with its path (a location without one is in the target)."""
    return [
        location if location.path else location.model_copy(update={"path": result.target})
        for location in result.locations
    ]


def tests_of(result: CheckResult) -> TestCounts | None:
    """The test runner's counts a verify command's result carries, if its output had a summary."""
    tests = getattr(result, "tests", None)
    return tests if isinstance(tests, TestCounts) else None


def file_of(result: CheckResult, working_dir: Path, checks: Catalog[CheckDescriptor]) -> str | None:
    """The file a failure without locations is about, if any (``file_check``'s missing file)."""
    declared = checks.get(result.type)
    if declared is not None and declared.targets_file:
        return result.target
    if (working_dir / result.target).is_file():
        return result.target
    return None


def default_checks(project_root: Path) -> Catalog[CheckDescriptor]:
    """The checks the project's installed, enabled plugins declare."""

    return build_plugin_host(disabled_plugins(load_config(project_root))).checks


# --- JSON ----------------------------------------------------------------------


def to_json(runs: Sequence[ModuleRun]) -> dict[str, Any]:
    """A multi-module run as one JSON object: the verdict, and each module's report."""
    return {
        "passed": all(run.status == "passed" for run in runs),
        "counts": {
            status: sum(run.status == status for run in runs)
            for status in ("passed", "failed", "skipped")
        },
        "modules": [
            {
                "moduleId": run.module_id,
                "title": run.title,
                "status": run.status,
                "skipped": run.report is None,
                "skipReason": run.skipped,
                "seconds": round(run.seconds, 3),
                "report": run.report.to_wire() if run.report is not None else None,
            }
            for run in runs
        ],
    }


# --- JUnit XML -------------------------------------------------------------------


def to_junit(runs: Sequence[ModuleRun]) -> str:
    """JUnit XML: a ``testsuite`` per module, a ``testcase`` per check.

    A skipped module (its dependency failed) is one skipped testcase. Failure
    text holds the places and, for commands, the output tails.
    """
    import xml.etree.ElementTree as ET  # deferred: only JUnit output needs XML

    suites = ET.Element("testsuites", name="forge")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_time = 0.0
    for run in runs:
        suite = ET.SubElement(suites, "testsuite", name=run.module_id)
        if run.report is None:
            case = ET.SubElement(
                suite, "testcase", classname=f"forge.{run.module_id}", name="module", time="0"
            )
            ET.SubElement(case, "skipped", message=run.skipped or "not validated")
            counts = {"tests": 1, "failures": 0, "errors": 0, "skipped": 1}
        else:
            _properties(suite, run.report)
            for result in run.report.results:
                _testcase(suite, run, result)
            errors = sum(result.unjudged for result in run.report.results)
            failures = sum(counts_as_failure(result) for result in run.report.results) - errors
            counts = {"tests": len(run.report.results), "failures": failures, "errors": errors}
            counts["skipped"] = 0
        suite.set("tests", str(counts["tests"]))
        suite.set("failures", str(counts["failures"]))
        suite.set("errors", str(counts["errors"]))
        suite.set("skipped", str(counts["skipped"]))
        suite.set("time", f"{run.seconds:.3f}")
        for key, count in counts.items():
            totals[key] += count
        total_time += run.seconds
    for key, count in totals.items():
        suites.set(key, str(count))
    suites.set("time", f"{total_time:.3f}")
    ET.indent(suites)
    body = ET.tostring(suites, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'


def _properties(suite: ET.Element, report: ValidateReport) -> None:
    import xml.etree.ElementTree as ET  # deferred: only JUnit output needs XML

    properties = ET.SubElement(suite, "properties")
    shown = {
        "score": f"{report.score:g}",
        "attempt": str(report.attempt),
        "recommendation": report.recommendation,
    }
    if report.run_id is not None:
        shown["runId"] = report.run_id
    for name, value in shown.items():
        ET.SubElement(properties, "property", name=name, value=value)


def _testcase(suite: ET.Element, run: ModuleRun, result: CheckResult) -> None:
    import xml.etree.ElementTree as ET  # deferred: only JUnit output needs XML

    duration = getattr(result, "duration_ms", 0) or 0
    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"forge.{run.module_id}.{result.type}",
        name=result.target,
        time=f"{duration / 1000:.3f}",
    )
    tests = tests_of(result)
    if tests is not None:
        # Per-testcase properties, as pytest's record_property writes them (Jenkins
        # and GitLab read them): what the verify command's test runner ran.
        properties = ET.SubElement(case, "properties")
        for name, value in tests.to_wire().items():
            ET.SubElement(properties, "property", name=f"tests.{name}", value=str(value))
    if result.skipped:
        ET.SubElement(case, "skipped", message=_xml_safe(result.message))
        return
    if result.unjudged:  # JUnit's error: the test could not run, as opposed to a failure
        error = ET.SubElement(case, "error", message=_xml_safe(result.message), type=result.type)
        error.text = _xml_safe(_failure_text(result))
        return
    if result.passed:
        if result.locations:  # shown for information: counted nowhere
            out = ET.SubElement(case, "system-out")
            out.text = _xml_safe(_failure_text(result))
        return
    if not result.judged:
        # Already there at the base revision, or advisory: a passing case that still
        # shows what it found.
        why = "pre-existing at the base revision" if result.pre_existing else "advisory"
        out = ET.SubElement(case, "system-out")
        out.text = _xml_safe(f"{why}: {_failure_text(result)}")
        return
    failure = ET.SubElement(case, "failure", message=_xml_safe(result.message), type=result.type)
    failure.text = _xml_safe(_failure_text(result))


def _failure_text(result: CheckResult) -> str:
    lines = [result.message]

    lines.extend(location_line(place, place.path or "") for place in places(result)[:MAX_PLACES])
    for stream in ("stdout", "stderr"):
        text = getattr(result, stream, "") or ""
        if text.strip():
            lines.append(f"--- {stream} (tail) ---")
            lines.append(text.rstrip("\n"))
    return "\n".join(lines)


def _xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot carry (command output may hold any)."""
    return "".join(
        ch
        if ch in "\t\n\r"
        or 0x20 <= ord(ch) <= 0xD7FF
        or 0xE000 <= ord(ch) <= 0xFFFD
        or ord(ch) >= 0x10000
        else "\ufffd"
        for ch in text
    )


# --- SARIF 2.1.0 ------------------------------------------------------------------


def to_sarif(
    runs: Sequence[ModuleRun],
    project_root: Path,
    checks: Catalog[CheckDescriptor] | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run of the tool ``forge``, a result per place that failed.

    Paths are relative to ``project_root`` (``uriBaseId`` ``PROJECTROOT``), which
    in CI is the repository checkout, so code scanning finds the files.
    Columns count Unicode code points, as forge's checks do. ``checks``
    (default: what the project's plugins declare) gives rule descriptions and
    which checks are about a file.
    """
    checks = checks if checks is not None else default_checks(project_root)
    rule_ids: list[str] = []
    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for run in runs:
        if run.report is None:
            continue
        for result in run.report.results:
            if result.passed and not result.locations:
                continue
            if result.type not in rule_ids:
                rule_ids.append(result.type)
            located = _sarif_results(run, result, project_root, checks)
            if located:
                for item in located:
                    item["ruleIndex"] = rule_ids.index(result.type)
                results.extend(located)
            else:
                notifications.append(
                    {
                        "level": "warning" if result.advisory else "error",
                        "message": {
                            "text": f"{run.module_id}: {result.type} {result.target}: "
                            f"{result.message}"
                        },
                        "descriptor": {"id": result.type},
                        "properties": _sarif_properties(run, result),
                    }
                )
    root_uri = project_root.resolve().as_uri().rstrip("/") + "/"
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "forge",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(rule_id, checks) for rule_id in rule_ids],
                    }
                },
                "originalUriBaseIds": {ROOT_BASE_ID: {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "invocations": [
                    {
                        # A check that could not judge: the run did not fully succeed.
                        "executionSuccessful": not any(
                            result.unjudged
                            for run in runs
                            if run.report
                            for result in run.report.results
                        ),
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": results,
            }
        ],
    }


def _rule(rule_id: str, checks: Catalog[CheckDescriptor]) -> dict[str, Any]:
    text = checks.summary(rule_id)
    return {
        "id": rule_id,
        "name": "".join(part.capitalize() for part in rule_id.split("_")),
        "shortDescription": {"text": text},
        "defaultConfiguration": {"level": "error"},
    }


def _sarif_results(
    run: ModuleRun, result: CheckResult, project_root: Path, checks: Catalog[CheckDescriptor]
) -> list[dict[str, Any]]:
    found: list[tuple[str, dict[str, int] | None, str, bool, Location | None]] = [
        (
            place.path or result.target,
            {"startLine": place.line, "startColumn": place.column},
            place.message,
            place.pre_existing,
            place,
        )
        for place in places(result)[:MAX_PLACES]
    ]
    if not found:
        path = file_of(result, run.working_dir, checks)
        if path is None:
            return []
        found = [(path, None, result.message, result.pre_existing, None)]
    out = []
    for path, region, message, pre_existing, place in found:
        physical: dict[str, Any] = {
            "artifactLocation": _artifact(path, run.working_dir, project_root)
        }
        if region is not None:
            physical["region"] = region
        rule = place.rule if place is not None else None
        shown_only = result.passed or (place is not None and place.informational)
        out.append(
            {
                # SARIF 3.27.5: a hierarchical id under the check's rule names the tool's rule.
                "ruleId": f"{result.type}/{rule}" if rule else result.type,
                "level": "note" if shown_only else "warning" if result.advisory else "error",
                "message": {"text": message or result.message or result.type},
                "locations": [{"physicalLocation": physical}],
                "properties": _sarif_properties(run, result),
            }
        )
        if run.report is not None and run.report.base_commit is not None:
            # SARIF 3.27.24: against a baseline, "unchanged" results were there before.
            out[-1]["baselineState"] = "unchanged" if pre_existing else "new"
    return out


def _sarif_properties(run: ModuleRun, result: CheckResult) -> dict[str, Any]:
    properties: dict[str, Any] = {"moduleId": run.module_id, "target": result.target}
    tests = tests_of(result)
    if tests is not None:
        properties["tests"] = tests.to_wire()
    return properties


def _artifact(path: str, working_dir: Path, project_root: Path) -> dict[str, Any]:
    """A SARIF artifact location: project-relative under ``PROJECTROOT`` when the file is in
    the project, or in a worker's worktree of it (which holds the project's layout)."""
    absolute = (working_dir / path).resolve() if not Path(path).is_absolute() else Path(path)
    for root in (project_root.resolve(), _counterpart(project_root, working_dir)):
        if root is not None and absolute.is_relative_to(root):
            return {"uri": absolute.relative_to(root).as_posix(), "uriBaseId": ROOT_BASE_ID}
    return {"uri": absolute.as_uri()}


@functools.lru_cache(maxsize=64)
def _counterpart(project_root: Path, working_dir: Path) -> Path | None:
    """:func:`forge.git.worktrees.counterpart`, asked of git once per working dir."""

    return counterpart(project_root, working_dir)
