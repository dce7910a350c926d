"""``load_check``: a listed file that parses but fails when it is loaded or run.

Errors no parser reports, each a failing result on the listed file (nothing
when the file is fine, or when forge cannot know):

- Python: a module-level import cycle that fails whichever of its modules is
  imported first (:mod:`forge.contracts.python.cycles`); a name bound only
  under ``if TYPE_CHECKING:`` used where it is evaluated at run time
  (:func:`forge.contracts.python.load_time.checking_only_uses`).
- JavaScript: CommonJS in a file node loads as an ES module, and ES module
  syntax in one it loads as CommonJS, as node 20+ decides from the extension
  and the nearest ``package.json``'s ``"type"``
  (:mod:`forge.contracts.ecmascript.module_kind`).

A file with syntax errors is ``syntax_check``'s: it is not judged here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forge import hookimpl
from forge.contracts.analysis import ContractAnalyzer, normalize
from forge.languages import NotParsed
from forge.models import CheckDescriptor, CheckResult, FileResult, Location, ValidateRequest
from forge.workspace import Workspace

#: The check's id.
CHECK_ID = "load_check"
#: Places listed per result at most.
MAX_LOCATIONS = 5


def _parsed(workspace: Workspace, path: Path) -> Any:
    try:
        parsed = workspace.parse(path)
    except NotParsed:
        return None
    if parsed is None or getattr(parsed, "has_errors", False):
        return None
    return parsed


def _python(workspace: Workspace, file: str, seen: set[frozenset[Path]]) -> list[CheckResult]:
    from forge.contracts.python.cycles import failing_cycle
    from forge.contracts.python.load_time import Step, checking_only_uses, module_steps

    path = workspace.resolve(file)
    parsed = _parsed(workspace, path)
    if parsed is None:
        return []
    results: list[CheckResult] = []
    uses = checking_only_uses(parsed.tree.root_node, parsed.source)
    if uses:
        first = uses[0]
        more = f" (and {len(uses) - 1} more)" if len(uses) > 1 else ""
        message = (
            f"{first.name} is bound only under 'if TYPE_CHECKING:' (line {first.bound_line}) but "
            f"used at run time on line {first.line}{more}: NameError when it runs; import it "
            "outside the TYPE_CHECKING block, or use it in annotations only"
        )
        places = [
            Location(
                path=file, line=use.line, column=use.column,
                message=f"{use.name} is not bound at run time (only under TYPE_CHECKING)",
            )
            for use in uses[:MAX_LOCATIONS]
        ]  # fmt: skip
        results.append(_failure(file, message, places))
    analyzer = ContractAnalyzer(parse=workspace.parse, root=normalize(workspace.cwd))
    steps: dict[Path, list[Step] | None] = {}

    def steps_of(module: Path) -> list[Step] | None:
        if module not in steps:
            tree = _parsed(workspace, module)
            steps[module] = None if tree is None else module_steps(tree.tree.root_node, tree.source)
        return steps[module]

    def resolve(specifier: str, importer: Path) -> Path | None:
        found = analyzer.extractor(importer)
        if found is None:
            return None
        target = analyzer.resolve(found[1], specifier, analyzer.real(importer))
        return target if target is not None and target.suffix == ".py" else None

    failure = failing_cycle(analyzer.real(path), steps_of, resolve)
    if failure is not None and frozenset(failure.chain) not in seen:
        seen.add(frozenset(failure.chain))
        names = [workspace.display(module) for module in (*failure.chain, failure.chain[0])]
        importer, module = workspace.display(failure.importer), workspace.display(failure.module)
        message = (
            f"import cycle {' -> '.join(names)} fails whichever module is imported first: "
            f"{importer}:{failure.line} takes {failure.name} from {module} while {module} is "
            f"only partially initialized ({failure.name} is bound later); move the import into "
            "the function that needs it, or import the module (import x) and use x.name"
        )
        place = Location(
            path=importer, line=failure.line, column=failure.column,
            message=f"cannot import {failure.name} from partially initialized module {module}",
        )  # fmt: skip
        results.append(_failure(file, message, [place]))
    return results


def _ecmascript(workspace: Workspace, file: str) -> list[CheckResult]:
    from forge.contracts.ecmascript.module_kind import wrong_module_syntax

    path = workspace.resolve(file)
    parsed = _parsed(workspace, path)
    if parsed is None:
        return []
    found = wrong_module_syntax(path, parsed.tree.root_node, parsed.source)
    if found is None:
        return []
    places = [
        Location(path=file, line=place.line, column=place.column, message=place.message)
        for place in found.places[:MAX_LOCATIONS]
    ]
    return [_failure(file, found.message, places)]


def _failure(file: str, message: str, places: list[Location]) -> FileResult:
    return FileResult(type=CHECK_ID, target=file, passed=False, message=message, locations=places)


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """A failure per listed file that parses but fails when loaded; nothing for the others."""
    results: list[CheckResult] = []
    seen: set[frozenset[Path]] = set()
    for file in dict.fromkeys(request.files):
        name = file.lower()
        if name.endswith(".py"):
            results.extend(_python(workspace, file, seen))
        elif name.endswith((".js", ".mjs", ".cjs")):
            results.extend(_ecmascript(workspace, file))
    return results


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``load_check``: after the contracts, before the commands."""
    return [
        CheckDescriptor(
            id=CHECK_ID,
            summary="A file that parses also loads: no Python import cycle that fails, no name "
            "bound only under TYPE_CHECKING used at run time, no CommonJS in an ES module "
            "(or the reverse).",
            order=41,
            targets_file=True,
            judges_edits=True,
            read_only=True,
        )
    ]
