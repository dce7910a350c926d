"""Per-job reports combined: the JSON of separate ``forge validate --json`` runs read back.

Each CI job of a plan matrix validates one module and keeps its report (the
object the MCP ``validate`` tool returns; or, from ``--all``, the plan run's
``{"passed", "counts", "modules": [...]}``). :func:`load_runs` reads them all
back as the :class:`~forge.reporting.formats.ModuleRun` records every report writer
takes, so one status table, one JUnit file and one SARIF file come out of the
writers ``forge validate`` itself uses. With the plan, a module no job
reported on (its job was skipped, or never ran) is listed as skipped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from forge.errors import UsageError, clip
from forge.models import (
    AcceptanceResult,
    CheckResult,
    CommandResult,
    ContractResult,
    FileResult,
    Location,
    SyntaxLocation,
    SyntaxResult,
)
from forge.store.safe_open import read_regular_file
from forge.validate.outcome import ModuleRun, ValidateReport
from forge.validation_errors import describe_validation_error

if TYPE_CHECKING:
    from forge.plan.model import Plan

#: Largest report file read: a module's report is a few hundred KB at most.
MAX_REPORT_BYTES = 64 * 1024 * 1024
#: Result kinds, told apart by the fields only they have on the wire (first match wins).
_KINDS: tuple[tuple[frozenset[str], type[CheckResult]], ...] = (
    (frozenset({"check", "blocking"}), AcceptanceResult),
    (frozenset({"exitCode", "durationMs"}), CommandResult),
    (frozenset({"exporter", "importer"}), ContractResult),
    (frozenset({"language", "errorCount"}), SyntaxResult),
    (frozenset({"file"}), FileResult),
)
#: Fields a result's model computes: read back, they are not inputs.
_COMPUTED = ("file", "command")


def load_runs(paths: Sequence[Path], working_dir: Path) -> tuple[list[ModuleRun], list[str]]:
    """Every module run the report files hold, in file order; and notices.

    A module reported twice keeps its last report (a re-run job), with a
    notice. :class:`UsageError` names a file that is not a forge report.
    """
    runs: dict[str, ModuleRun] = {}
    notices: list[str] = []
    for path in paths:
        for run in _runs_of(path, working_dir):
            if run.module_id in runs:
                notices.append(f"module {run.module_id} is reported again in {path}: kept that one")
                del runs[run.module_id]
            runs[run.module_id] = run
    return list(runs.values()), notices


def with_plan(runs: list[ModuleRun], plan: Plan, working_dir: Path) -> list[ModuleRun]:
    """``runs`` in the plan's layer order, each scheduled module without a report skipped."""
    titles = {module.id: module.title for module in reversed(plan.modules)}
    # A job's report knows its module's id, not its title: the plan gives it.
    by_id: dict[str, ModuleRun | None] = {
        run.module_id: run if run.title else replace(run, title=titles.get(run.module_id))
        for run in runs
    }
    ordered = [
        by_id.pop(module_id, None)
        or ModuleRun(
            module_id=module_id,
            working_dir=working_dir,
            skipped="no report: its job did not run (a module of an earlier layer failed?)",
            title=titles.get(module_id),
        )
        for layer in plan.graph.layers()
        for module_id in layer
    ]
    return [*ordered, *(run for run in by_id.values() if run is not None)]


def _runs_of(path: Path, working_dir: Path) -> list[ModuleRun]:

    try:
        data = json.loads(read_regular_file(path, MAX_REPORT_BYTES).decode("utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: no such report file") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise UsageError(f"{path}: not a forge JSON report ({clip(str(exc), 120)})") from None
    if isinstance(data, dict) and isinstance(data.get("modules"), list):
        return [_entry(path, item, working_dir) for item in data["modules"]]
    if isinstance(data, dict) and "results" in data and "moduleId" in data:
        report = _report(path, data)
        return [ModuleRun(report.module_id, working_dir, report=report, seconds=_seconds(report))]
    raise UsageError(
        f"{path}: not a forge JSON report (from forge validate --json, or --all --json)"
    )


def _entry(path: Path, item: Any, working_dir: Path) -> ModuleRun:

    if not isinstance(item, dict) or not isinstance(item.get("moduleId"), str):
        raise UsageError(f"{path}: a module entry without a moduleId")
    report = _report(path, item["report"]) if item.get("report") is not None else None
    seconds = item.get("seconds")
    return ModuleRun(
        module_id=item["moduleId"],
        working_dir=working_dir,
        report=report,
        skipped=None if report is not None else str(item.get("skipReason") or "skipped"),
        title=item.get("title") if isinstance(item.get("title"), str) else None,
        seconds=float(seconds) if isinstance(seconds, int | float) else 0.0,
    )


def _report(path: Path, data: Any) -> Any:
    """The :class:`ValidateReport` of ``data``, each result as the kind it was written as."""
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise UsageError(f"{path}: a report without results")
    try:
        results = [_result(item) for item in data["results"]]
        return ValidateReport.model_validate({**data, "results": results})
    except (ValidationError, TypeError) as exc:
        detail = (
            describe_validation_error(exc, subject="report")
            if isinstance(exc, ValidationError)
            else str(exc)
        )
        raise UsageError(f"{path}: {detail}") from None


def _result(item: Any) -> CheckResult:
    if not isinstance(item, dict):
        raise TypeError("a result is not an object")
    fields = {key: value for key, value in item.items() if key not in _COMPUTED}
    fields["locations"] = [_location(place) for place in item.get("locations") or []]
    kind = next((model for keys, model in _KINDS if keys <= item.keys()), CheckResult)
    return kind.model_validate(fields)


def _location(place: Any) -> Location:
    """A place as written, with only the fields a location has (a plugin may add its own)."""
    if not isinstance(place, dict):
        raise TypeError("a location is not an object")
    model = SyntaxLocation if "sourceLine" in place else Location
    known = {info.alias or name for name, info in model.model_fields.items()}
    return model.model_validate({key: value for key, value in place.items() if key in known})


def _seconds(report: Any) -> float:
    """A lone report's time: what its commands took (the report does not say more)."""
    return sum(getattr(result, "duration_ms", 0) or 0 for result in report.results) / 1000
