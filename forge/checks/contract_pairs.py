"""``contract_check``'s pairs: one exporter/importer pair judged, the automatic pairs of a file, its unresolved imports.

The check's hook implementations are in :mod:`forge.checks.contract_check`; the
importers of a change, with a base, in :mod:`forge.checks.contract_importers`.
"""

from __future__ import annotations

import errno
import stat
from pathlib import Path

from forge.checks.syntax_check import find_errors
from forge.contracts.analysis import (
    Comparison,
    ContractAnalyzer,
    ContractError,
    describe_missing,
    normalize,
)
from forge.contracts.star_conflicts import star_conflicts
from forge.languages import NotParsed
from forge.models import (
    CheckResult,
    ContractResult,
    Location,
    MissingImport,
)
from forge.plugin_host.records import describe_exception
from forge.workspace import Workspace

#: The check's id.
CHECK_ID = "contract_check"
#: Missing names spelled out in a result's message; the rest are counted.
SHOWN_IN_MESSAGE = 5


def shown(path: Path, workspace: Workspace) -> str:
    """``path`` from the working dir (its real path) when inside it, else absolute: for messages."""
    root = normalize(workspace.cwd)
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be one side of a pair; None when it is a regular file."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:  # a name too long or a symlink loop fails this pair, not the check
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return "does not exist"
        return f"cannot be read: {exc.strerror}"
    if stat.S_ISREG(mode):
        return None
    return "is a directory" if stat.S_ISDIR(mode) else "is not a regular file"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def check_pair(
    analyzer: ContractAnalyzer,
    workspace: Workspace,
    exporter: str,
    importer: str,
    *,
    automatic: bool = False,
) -> ContractResult:
    """The ``contract_check`` result for one pair (paths as the request wrote them)."""
    base = {
        "type": "contract_check",
        "target": f"{exporter} -> {importer}",
        "exporter": exporter,
        "importer": importer,
        "automatic": automatic,
    }
    exporter_path, importer_path = workspace.resolve(exporter), workspace.resolve(importer)
    for role, written, path in (
        ("exporter", exporter, exporter_path),
        ("importer", importer, importer_path),
    ):
        problem = _not_a_file(path)
        if problem is not None:
            return ContractResult(**base, passed=False, message=f"{role} {written} {problem}")
    try:
        comparison = analyzer.compare(exporter_path, importer_path)
    except (NotParsed, ContractError) as exc:
        unjudged = isinstance(exc, NotParsed) and exc.unjudged
        return ContractResult(
            **base, passed=False, unjudged=unjudged, message=f"cannot check: {exc}"
        )
    except Exception as exc:  # an extractor's bug (maybe a plugin's) costs one pair only
        return ContractResult(
            **base,
            passed=False,
            message=f"cannot check: the contract extractor raised {describe_exception(exc)}",
        )
    fields = _fields(comparison, exporter, importer)
    if not comparison.imports_exporter:
        others = [shown(path, workspace) for path in comparison.imported_files]
        elsewhere = f" (its local imports: {', '.join(others[:5])})" if others else ""
        message = f"{importer} does not import from {exporter}{elsewhere}"
        return ContractResult(**base, **fields, passed=False, message=message)
    if comparison.missing and comparison.broken is not None:
        # Names after a syntax error may well be defined (or misread): say it
        # once, not per name. syntax_check fails the file if it really is
        # broken; a grammar's gap on valid code must not fail the pair.
        if comparison.broken == analyzer.real(exporter_path):
            side, role = exporter, ""
        elif comparison.broken == analyzer.real(importer_path):
            side, role = importer, ""
        else:  # a file the exporter's `export *` chain takes names from
            side = shown(comparison.broken, workspace)
            role = f", which {exporter} re-exports,"
        places = _first_error(analyzer, comparison.broken, side)
        where = "".join(f" (line {p.line}, column {p.column})" for p in places)
        fields.update(missing=[], missing_details=[], exports_known=False, locations=places)
        message = (
            f"{side}{role} does not parse{where}, so what {importer} takes from {exporter} "
            "cannot be checked; nothing reported missing"
        )
        return ContractResult(**base, **fields, passed=True, message=message)
    if comparison.missing:
        listed = ", ".join(
            name.name + (f" (did you mean {name.suggestion}?)" if name.suggestion else "")
            for name in comparison.missing[:SHOWN_IN_MESSAGE]
        )
        more = len(comparison.missing) - SHOWN_IN_MESSAGE
        listed += f" and {more} more" if more > 0 else ""
        message = (
            f"{_plural(len(comparison.missing), 'name')} imported from {exporter} "
            f"{'is' if len(comparison.missing) == 1 else 'are'} not exported: {listed}"
        )
        return ContractResult(**base, **fields, passed=False, message=message)
    conflicted = _conflicting(analyzer, workspace, exporter_path, comparison)
    if conflicted:
        message = (
            f"{conflicted}: node refuses to import it from {exporter} (conflicting star "
            "exports); export it by name there"
        )
        return ContractResult(**base, **fields, passed=False, message=message)
    imported = len({name.name for name in comparison.imported})
    if comparison.exports.open_reason:
        message = (
            f"the exports of {exporter} cannot be known ({comparison.exports.open_reason}); "
            "nothing reported missing"
        )
    elif imported:
        message = f"all {_plural(imported, 'imported name')} exported"
    else:
        message = f"imports {exporter} for its side effects or as a whole (no names)"
    return ContractResult(**base, **fields, passed=True, message=message)


def _conflicting(
    analyzer: ContractAnalyzer, workspace: Workspace, exporter: Path, comparison: Comparison
) -> str | None:
    """The first imported name two ``export *`` of the exporter give, said; None without one."""

    wanted = {name.name for name in comparison.imported}
    if not wanted or comparison.exports.open_reason:
        return None
    conflicts = star_conflicts(analyzer, exporter)
    for name in sorted(wanted & set(conflicts)):
        first, second = (shown(path, workspace) for path in conflicts[name])
        return f"{name} is exported by both {first} and {second} through export *"
    return None


def _first_error(analyzer: ContractAnalyzer, path: Path, shown: str) -> list[Location]:
    """Where ``path``'s first syntax error is, as the pair's one location."""
    found = analyzer.extractor(path)
    if found is None:
        return []
    places, _ = find_errors(found[0], limit=1)
    return [
        Location(path=shown, line=p.line, column=p.column, message=f"does not parse: {p.message}")
        for p in places
    ]


def _fields(comparison: Comparison, exporter: str, importer: str) -> dict[str, object]:
    return {
        "exported_names": sorted(comparison.exports.names),
        "imported_names": sorted({name.name for name in comparison.imported}),
        "missing": [name.name for name in comparison.missing],
        "missing_details": [
            MissingImport(
                name=name.name, line=name.line, column=name.column, suggestion=name.suggestion
            )
            for name in comparison.missing
        ],
        "exports_known": comparison.exports.open_reason is None,
        # The places are in the importer, not in the pair the target names.
        "locations": [
            Location(
                path=importer,
                line=name.line,
                column=name.column,
                message=describe_missing(name.name, name.suggestion, exporter),
            )
            for name in comparison.missing
        ],
    }


def automatic_pairs(
    analyzer: ContractAnalyzer, workspace: Workspace, files: list[str]
) -> list[tuple[str, str]]:
    """(exporter, importer) for each local import of ``files`` that can be checked."""
    pairs: list[tuple[str, str]] = []
    for file in dict.fromkeys(files):
        try:
            targets = list(analyzer.local_imports(workspace.resolve(file)))
        except (NotParsed, ContractError, OSError):
            continue  # missing, unparsable or unknown files are other checks' business
        for target in targets:
            try:
                checkable = analyzer.extractor(target) is not None
            except NotParsed:
                checkable = True  # it exists but cannot be read: the pair says why
            if checkable:
                pairs.append((shown(target, workspace), file))
    return pairs


def import_findings(
    analyzer: ContractAnalyzer, workspace: Workspace, file: str
) -> list[CheckResult]:
    """One failing result per import of ``file`` that resolves to nothing the project has."""
    path = workspace.resolve(file)
    try:
        found = analyzer.extractor(path)
        if found is None or getattr(found[0], "has_errors", False):
            return []  # a file that does not parse has imports syntax_check speaks for
        problems = analyzer.import_problems(path)
    except (NotParsed, ContractError, OSError):
        return []
    except Exception as exc:  # a plugin extractor's diagnose bug costs its file only
        return [
            ContractResult(
                type="contract_check",
                target=f"imports of {file}",
                exporter="",
                importer=file,
                passed=False,
                automatic=True,
                message=f"cannot check the imports of {file}: {describe_exception(exc)}",
            )
        ]
    return [
        ContractResult(
            type="contract_check",
            target=f"{problem.specifier} -> {file}",
            exporter=problem.specifier,
            importer=file,
            passed=False,
            automatic=True,
            message=problem.message,
            locations=[
                Location(
                    path=file, line=problem.line, column=problem.column, message=problem.message
                )
            ],
        )
        for problem in problems
    ]
