"""``contract_check`` with a base: the importers, anywhere in the project, of what changed.

Part of the contract check (:mod:`forge.checks.contract_check`), run when the
call has a base revision: every source file the working dir changed or
deleted since the base (``git diff``, committed or not) has its importers
found by the project's import index (:mod:`forge.contracts.changed`), and
each ``(changed file, importer)`` pair is checked as an automatic pair. An
import of a deleted file that now resolves to nothing fails, naming the
importer. Changed files that are not listed have their own imports checked as
listed files do. One result, target ``(importers)``, says how many importers
were checked, when there were any (or a file was deleted).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from forge.checks.contract_pairs import (
    CHECK_ID,
    automatic_pairs,
    check_pair,
    import_findings,
    shown,
)
from forge.contracts.analysis import ContractAnalyzer, Parse, normalize
from forge.contracts.changed import changed_importers
from forge.contracts.import_index import cache_path
from forge.git import GitError
from forge.git.changes import working_changes
from forge.git.export import export_tree
from forge.models import CheckResult, ContractResult, Location, ValidateRequest
from forge.workspace import Workspace

#: The target of the result that counts the importers checked.
IMPORTERS_TARGET = "(importers)"


def importers_of_changes(
    analyzer: ContractAnalyzer,
    workspace: Workspace,
    request: ValidateRequest,
    done: set[tuple[Path, Path]],
) -> list[CheckResult]:
    """The pairs and findings a change since the base adds, then the count of importers."""
    base = workspace.base
    assert base is not None
    cwd = workspace.cwd

    def summary(passed: bool, message: str) -> ContractResult:
        return ContractResult(
            type=CHECK_ID,
            target=IMPORTERS_TARGET,
            exporter="",
            importer="",
            automatic=True,
            passed=passed,
            message=message,
        )

    def stand_in(folder: Path) -> Path:
        return export_tree(base, folder, base.relative(cwd))

    def parse_in(folder: Path) -> Parse:
        return Workspace(folder, config=workspace.config, languages=workspace.languages).parse

    ref = workspace.plan_module
    try:
        changes = working_changes(cwd, base.commit)
        if changes is None:
            return []
        found = changed_importers(
            analyzer,
            cwd,
            changes.files,
            changes.top,
            cache=cache_path(ref.root if ref is not None else cwd, cwd.resolve()),
            base_tree=stand_in,
            parse_in=parse_in,
        )
    except GitError as exc:
        return [summary(False, f"cannot list the changes since {base.ref}: {exc}")]
    results: list[CheckResult] = []
    listed = {analyzer.real(workspace.resolve(file)) for file in request.files}
    extra = [
        shown(analyzer.real(path), workspace)
        for path in found.changed
        if analyzer.real(path) not in listed
    ]
    pairs = [
        (shown(analyzer.real(exporter), workspace), shown(analyzer.real(importer), workspace))
        for exporter, importer in found.pairs
    ]
    for exporter, importer in [*automatic_pairs(analyzer, workspace, extra), *pairs]:
        key = (
            analyzer.real(workspace.resolve(exporter)),
            analyzer.real(workspace.resolve(importer)),
        )
        if key in done:
            continue
        done.add(key)
        results.append(check_pair(analyzer, workspace, exporter, importer, automatic=True))
    failing = [r for r in results if not r.passed and isinstance(r, ContractResult) and r.missing]
    if failing:
        results = _marked(results, _missing_at_base(failing, workspace, stand_in, parse_in))
    for file in extra:
        results.extend(import_findings(analyzer, workspace, file))
    for broken in found.broken:
        importer = shown(analyzer.real(broken.importer), workspace)
        message = (
            f"{importer} imports {broken.ref.specifier!r}, which was {broken.deleted}: deleted "
            f"since {base.ref}, it resolves to nothing now; restore it or change the import"
        )
        results.append(
            ContractResult(
                type=CHECK_ID,
                target=f"{broken.ref.specifier} -> {importer}",
                exporter=broken.deleted,
                importer=importer,
                automatic=True,
                passed=False,
                message=message,
                locations=[
                    Location(
                        path=importer,
                        line=broken.ref.line,
                        column=broken.ref.column,
                        message=f"{broken.deleted} was deleted since {base.ref}",
                    )
                ],
            )
        )
    files = len(found.changed) + len(found.deleted)
    if not found.importers and not found.deleted:
        return results  # nothing imports what changed: the pairs of the listed files say it all
    message = (
        f"{found.importers} importer{'' if found.importers == 1 else 's'} of the {files} source "
        f"file{'' if files == 1 else 's'} changed or deleted since {base.ref} checked "
        f"({found.scanned} source files searched"
        + ("" if found.complete else ", the search stopped early: not all were")
        + ")"
    )
    return [*results, summary(True, message)]


def _missing_at_base(
    failing: list[ContractResult],
    workspace: Workspace,
    stand_in: Callable[[Path], Path],
    parse_in: Callable[[Path], Parse],
) -> dict[str, set[str]]:
    """For each failing pair (by target), the names its importer lacked at the base too.

    An importer the change did not break (it imported a name its exporter never had)
    is someone else's debt: the base tree, unpacked from git objects, says so.
    """
    found: dict[str, set[str]] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="forge-contracts-base-") as folder:
            root = stand_in(Path(folder))
            old = ContractAnalyzer(parse=parse_in(root), root=normalize(root))
            for result in failing:
                if Path(result.exporter).is_absolute() or Path(result.importer).is_absolute():
                    continue  # outside the working dir: not in its base tree
                exporter, importer = root / result.exporter, root / result.importer
                if not exporter.is_file() or not importer.is_file():
                    continue  # absent at the base: all of it is new
                try:
                    missing = old.compare(exporter, importer).missing
                except Exception:  # unreadable at the base: judged as new
                    continue
                found[result.target] = {name.name for name in missing}
    except GitError:
        return {}
    return found


def _marked(results: list[CheckResult], old: dict[str, set[str]]) -> list[CheckResult]:
    """``results`` with each pair whose every missing name was missing at the base marked."""
    marked: list[CheckResult] = []
    for result in results:
        before = old.get(result.target)
        if (
            isinstance(result, ContractResult)
            and before is not None
            and result.missing
            and set(result.missing) <= before
        ):
            locations = [
                place.model_copy(update={"pre_existing": True}) for place in result.locations
            ]
            result = result.model_copy(update={"pre_existing": True, "locations": locations})
        marked.append(result)
    return marked
