"""``contract_check``: what an importer takes from an exporter must really be exported.

One result per ``{exporter, importer}`` pair of the request, and (unless
``autoContracts`` is false) one per local import of each listed file: every
import specifier of a listed file that resolves to a file inside the working
dir, whose language has an extractor, is checked as an automatic pair.
Specifiers of listed files that resolve to nothing are findings of their
own when forge can know they are wrong: a relative (or path-alias, or
project-package) import of a file that does not exist, a bare import of a
package that is neither built in, declared nor installed (see
:mod:`forge.contracts.packages`); each is a failing result whose target is
``specifier -> file``.

Import specifiers are resolved to files and compared with the exporter's
path; a file that merely shares the exporter's name is not the exporter.
Parsing goes through the workspace's parse cache: no file is parsed twice.
"""

from __future__ import annotations

from pathlib import Path

from forge import hookimpl
from forge.checks.contract_pairs import CHECK_ID, automatic_pairs, check_pair, import_findings
from forge.contracts.analysis import ContractAnalyzer, normalize
from forge.contracts.extractor import ImportContext
from forge.models import CheckDescriptor, CheckResult, ValidateRequest
from forge.workspace import Workspace


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """One result per requested pair, then one per automatic pair not already requested."""
    root = normalize(workspace.cwd)
    context = ImportContext(root, workspace.options(CHECK_ID))
    analyzer = ContractAnalyzer(parse=workspace.parse, root=root, context=context)
    results: list[CheckResult] = []
    done: set[tuple[Path, Path]] = set()
    # What the listed files set on a module counts as its exports, whichever pair comes first.
    analyzer.read_all([workspace.resolve(file) for file in dict.fromkeys(request.files)])

    def key(exporter: str, importer: str) -> tuple[Path, Path]:
        return (
            analyzer.real(workspace.resolve(exporter)),
            analyzer.real(workspace.resolve(importer)),
        )

    for pair in request.contract_checks:
        if key(pair.exporter, pair.importer) in done:
            continue
        done.add(key(pair.exporter, pair.importer))
        results.append(check_pair(analyzer, workspace, pair.exporter, pair.importer))
    if request.auto_contracts:
        for exporter, importer in automatic_pairs(analyzer, workspace, request.files):
            if key(exporter, importer) in done:
                continue
            done.add(key(exporter, importer))
            results.append(check_pair(analyzer, workspace, exporter, importer, automatic=True))
        for file in dict.fromkeys(request.files):
            results.extend(import_findings(analyzer, workspace, file))
        if workspace.base is not None and workspace.budget is None:
            # deferred: a plugin module is its declaration; the importers' search runs with a base
            from forge.checks.contract_importers import importers_of_changes

            results.extend(importers_of_changes(analyzer, workspace, request, done))
    return results


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``contract_check``: shown after ``syntax_check``; its places are in the importer."""
    return [
        CheckDescriptor(
            id=CHECK_ID,
            summary=(
                "Every name an importer takes from an exporter is exported, and every import "
                "resolves to a file, module or package the project has."
            ),
            order=40,
            judges_edits=True,
            read_only=True,
        )
    ]
