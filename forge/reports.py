"""Validation reports in the formats CI understands: JSON, JUnit XML and SARIF 2.1.0.

The renderers take :class:`ModuleRun` records (one per module validated, or
skipped because a dependency failed), so ``forge validate`` for one module
and for a whole plan share them.

Where a check knows *where* in a file it failed, its result carries a list of
places: ``locations`` (``syntax_check``), ``missingDetails``
(``contract_check``, in the importer), ``findings`` (``stub_check``), or any
other list of objects with a 1-based ``line`` (and ``column``). SARIF turns
each place into a result with file, line and column, so GitHub code scanning
and editors show it inline; JUnit lists them in the failure's text. A failure
that is about a file but no place in it (``file_check``) points at the file;
a failure about no file at all (a verify command) is a tool execution
notification in SARIF, since code scanning rejects results without a location.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forge import __version__
from forge.models import CheckResult, ValidateReport

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/forge-validate/forge"
#: The ``uriBaseId`` every relative SARIF path is relative to: the project root.
ROOT_BASE_ID = "PROJECTROOT"

#: Checks whose ``target`` is a file path even when the file is missing.
FILE_TARGET_CHECKS = frozenset({"file_check", "syntax_check", "stub_check"})
#: A list field of places whose file is another field of the result, not ``target``.
PLACE_FILE_FIELD = {"missingDetails": "importer"}
#: Places listed per failure in JUnit and SARIF; the rest are counted.
MAX_PLACES = 50

RULE_DESCRIPTIONS = {
    "cwd_check": "The module's working directory exists.",
    "plugin_error": "A plugin loaded and ran without raising.",
    "file_check": "A file the module must produce exists.",
    "syntax_check": "A file parses with its language's grammar.",
    "contract_check": "Every name an importer takes from an exporter is exported.",
    "stub_check": "A file holds no placeholder implementations.",
    "command": "A verify command exits 0.",
}


@dataclass(frozen=True)
class ModuleRun:
    """One module of a ``forge validate`` run: its report, or why it was not validated."""

    module_id: str
    working_dir: Path
    report: ValidateReport | None = None
    skipped: str | None = None
    title: str | None = None
    seconds: float = 0.0

    @property
    def status(self) -> str:
        """``passed``, ``failed`` or ``skipped``."""
        if self.report is None:
            return "skipped"
        return "passed" if self.report.passed else "failed"


@dataclass(frozen=True)
class Place:
    """Where a failure is: a file (relative to the working dir, or absolute), maybe a line."""

    path: str
    line: int | None = None
    column: int | None = None
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def places(result: CheckResult) -> list[Place]:
    """Every place in a file that ``result`` reports, in the order the check gave them."""
    wire = result.to_wire()
    default_file = wire.get("file") if isinstance(wire.get("file"), str) else result.target
    found: list[Place] = []
    for key, value in wire.items():
        if not isinstance(value, list) or not value:
            continue
        if not all(isinstance(item, dict) and isinstance(item.get("line"), int) for item in value):
            continue
        owner = wire.get(PLACE_FILE_FIELD.get(key, ""), default_file)
        for item in value:
            path = item.get("file") or item.get("path") or owner
            column = item.get("column")
            found.append(
                Place(
                    path=str(path),
                    line=item["line"],
                    column=column if isinstance(column, int) else None,
                    message=_place_message(result, wire, item),
                    extra=item,
                )
            )
    return found


def _place_message(result: CheckResult, wire: dict[str, Any], item: dict[str, Any]) -> str:
    if isinstance(item.get("message"), str):
        return str(item["message"])
    if isinstance(item.get("name"), str):  # a contract miss
        text = f"`{item['name']}` is not exported by {wire.get('exporter', 'the exporter')}"
        if item.get("suggestion"):
            text += f"; did you mean `{item['suggestion']}`?"
        return text
    if isinstance(item.get("kind"), str):  # a stub finding
        where = f" in {item['function']}" if item.get("function") else ""
        text = f"placeholder ({item['kind']}){where}"
        return f"{text}: {item['text']}" if item.get("text") else text
    return result.message


def file_of(result: CheckResult, working_dir: Path) -> str | None:
    """The file a failure without places is about, if any (``file_check``'s missing file)."""
    if result.type in FILE_TARGET_CHECKS:
        return result.target
    if isinstance(getattr(result, "file", None), str):
        return str(result.file)  # type: ignore[attr-defined]
    if (working_dir / result.target).is_file():
        return result.target
    return None


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
                "skipped": run.skipped,
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
    suites = ET.Element("testsuites", name="forge")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    total_time = 0.0
    for run in runs:
        suite = ET.SubElement(suites, "testsuite", name=run.module_id)
        if run.report is None:
            case = ET.SubElement(
                suite, "testcase", classname=f"forge.{run.module_id}", name="module", time="0"
            )
            ET.SubElement(case, "skipped", message=run.skipped or "not validated")
            counts = {"tests": 1, "failures": 0, "skipped": 1}
        else:
            _properties(suite, run.report)
            for result in run.report.results:
                _testcase(suite, run, result)
            failures = sum(not result.passed for result in run.report.results)
            counts = {"tests": len(run.report.results), "failures": failures, "skipped": 0}
        suite.set("tests", str(counts["tests"]))
        suite.set("failures", str(counts["failures"]))
        suite.set("errors", "0")
        suite.set("skipped", str(counts["skipped"]))
        suite.set("time", f"{run.seconds:.3f}")
        for key, count in counts.items():
            totals[key] += count
        total_time += run.seconds
    for key, count in totals.items():
        suites.set(key, str(count))
    suites.set("errors", "0")
    suites.set("time", f"{total_time:.3f}")
    ET.indent(suites)
    body = ET.tostring(suites, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'


def _properties(suite: ET.Element, report: ValidateReport) -> None:
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
    duration = getattr(result, "duration_ms", 0) or 0
    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"forge.{run.module_id}.{result.type}",
        name=result.target,
        time=f"{duration / 1000:.3f}",
    )
    if result.passed:
        return
    failure = ET.SubElement(case, "failure", message=_xml_safe(result.message), type=result.type)
    failure.text = _xml_safe(_failure_text(result))


def _failure_text(result: CheckResult) -> str:
    lines = [result.message]
    for place in places(result)[:MAX_PLACES]:
        where = ":".join(str(p) for p in (place.path, place.line, place.column) if p is not None)
        lines.append(f"{where}: {place.message}")
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


def to_sarif(runs: Sequence[ModuleRun], project_root: Path) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run of the tool ``forge``, a result per place that failed.

    Paths are relative to ``project_root`` (``uriBaseId`` ``PROJECTROOT``), which
    in CI is the repository checkout, so code scanning finds the files.
    Columns count Unicode code points, as forge's checks do.
    """
    rule_ids: list[str] = []
    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for run in runs:
        if run.report is None:
            continue
        for result in run.report.results:
            if result.passed:
                continue
            if result.type not in rule_ids:
                rule_ids.append(result.type)
            located = _sarif_results(run, result, project_root)
            if located:
                for item in located:
                    item["ruleIndex"] = rule_ids.index(result.type)
                results.extend(located)
            else:
                notifications.append(
                    {
                        "level": "error",
                        "message": {
                            "text": f"{run.module_id}: {result.type} {result.target}: "
                            f"{result.message}"
                        },
                        "descriptor": {"id": result.type},
                        "properties": {"moduleId": run.module_id, "target": result.target},
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
                        "rules": [_rule(rule_id) for rule_id in rule_ids],
                    }
                },
                "originalUriBaseIds": {ROOT_BASE_ID: {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "invocations": [
                    {
                        "executionSuccessful": True,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": results,
            }
        ],
    }


def _rule(rule_id: str) -> dict[str, Any]:
    text = RULE_DESCRIPTIONS.get(rule_id, f"Check {rule_id} passes.")
    return {
        "id": rule_id,
        "name": "".join(part.capitalize() for part in rule_id.split("_")),
        "shortDescription": {"text": text},
        "defaultConfiguration": {"level": "error"},
    }


def _sarif_results(run: ModuleRun, result: CheckResult, project_root: Path) -> list[dict[str, Any]]:
    found = places(result)[:MAX_PLACES]
    if not found:
        path = file_of(result, run.working_dir)
        if path is None:
            return []
        found = [Place(path=path, message=result.message)]
    out = []
    for place in found:
        physical: dict[str, Any] = {
            "artifactLocation": _artifact(place.path, run.working_dir, project_root)
        }
        if place.line is not None:
            region: dict[str, Any] = {"startLine": place.line}
            if place.column is not None:
                region["startColumn"] = place.column
            physical["region"] = region
        out.append(
            {
                "ruleId": result.type,
                "level": "error",
                "message": {"text": place.message or result.message or result.type},
                "locations": [{"physicalLocation": physical}],
                "properties": {"moduleId": run.module_id, "target": result.target},
            }
        )
    return out


def _artifact(path: str, working_dir: Path, project_root: Path) -> dict[str, Any]:
    absolute = (working_dir / path).resolve() if not Path(path).is_absolute() else Path(path)
    try:
        relative = absolute.relative_to(project_root.resolve())
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": relative.as_posix(), "uriBaseId": ROOT_BASE_ID}
