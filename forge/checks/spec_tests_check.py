"""``spec_tests``: with a base revision, the change kept the module's spec tests whole.

The spec is the tests that exist at the base in the files the module's
verify commands and acceptance criteria run (a plan module; else the call's
commands), wherever they sit. :func:`forge.test_runs.judge_spec` compares each
with the change: a test removed (not moved), switched off, its assertions
removed, weakened or swallowed, the module's own code patched in a test, the
runner's configuration made to run less, a data file the tests read changed.
Each finding fails the module, with the test and file:line; a plan module's
``specChanges`` (``"tests/test_calc.py::test_mul"``, or a file) allows the
changes it names, which are still reported, in a passing result. Tests a
listed file switches off are the ``switched_off`` check's to report.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forge import hookimpl
from forge.errors import clip
from forge.models import CheckDescriptor, CheckResult, FileResult, Location, ValidateRequest
from forge.workspace import Workspace

if TYPE_CHECKING:
    from forge.git import Base
    from forge.test_runs.spec_diff import Sources
    from forge.test_runs.spec_findings import SpecFinding

CHECK_ID = "spec_tests"
#: The target of the result that says the spec held.
SPEC_TARGET = "(spec tests)"
#: Findings named in a result's one-line message; locations list them all.
SHOWN_IN_MESSAGE = 3
#: Largest file read now (a test file, a config); larger ones are not judged.
MAX_READ_BYTES = 4 * 1024 * 1024


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """A failing result per file holding a finding; one pass when the spec held."""
    base = workspace.base
    if base is None or not workspace.cwd.is_dir():
        return []
    ref = workspace.plan_module
    commands = list(request.commands)
    own = list(request.files)
    allowed: list[str] = []
    if ref is not None:
        commands = [*ref.module.verify, *(c.check for c in ref.module.acceptance_criteria)]
        own = list(ref.module.files)
        allowed = list(ref.module.spec_changes)
    if not commands:
        return []
    from forge.git import GitError
    from forge.test_runs.spec_diff import judge_spec

    try:
        sources, cwd = spec_sources(base, workspace.cwd)
    except GitError as exc:
        message = f"cannot read the spec tests at {base.ref}: {exc}"
        return [CheckResult(type=CHECK_ID, target=SPEC_TARGET, passed=False, message=message)]
    if sources is None:
        return []
    listed = {r for f in request.files if (r := _relative(base, workspace.resolve(f)))}
    editing = workspace.budget is not None  # forge hook answers an agent's edit
    report = judge_spec(
        commands,
        cwd,
        [r for f in own if (r := _relative(base, workspace.resolve(f)))],
        sources,
        # A listed test file is switched_off's to judge in a validate; forge hook runs
        # only the checks that judge edits, this one, on the edit's files alone.
        leave_switched_off=set() if editing else {p for p in listed if p.endswith(_TEST_SUFFIXES)},
        only=listed if editing else None,
    )
    prefix = _prefix(ref.root, base) if ref is not None else ""
    permitted = {prefix + _normal(entry) for entry in allowed}
    return results_of(report.findings, permitted, len(report.scope.tests), base, workspace)


_TEST_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")


def spec_sources(base: Base, cwd: Path) -> tuple[Sources | None, str]:
    """The base's files and the change's, for :func:`~forge.test_runs.judge_spec`, and ``cwd``
    repository-relative; ``(None, "")`` outside a git work tree."""
    from forge.git.changes import working_changes
    from forge.test_runs.spec_diff import Sources

    changes = working_changes(cwd, base.commit)
    if changes is None:
        return None, ""
    top = changes.top.resolve()

    def read_base_many(paths: list[str]) -> dict[str, str | None]:
        contents = base.contents([top / path for path in paths])
        return {
            path: (data.decode("utf-8", errors="replace") if data is not None else None)
            for path in paths
            for data in [contents.get(top / path)]
        }

    def read_now(path: str) -> str | None:
        file = top / path
        try:
            if file.is_symlink() or not file.is_file() or file.stat().st_size > MAX_READ_BYTES:
                return None
            return file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    sources = Sources(base.files(), set(changes.files), read_base_many, read_now)
    relative = _relative(base, cwd)
    return sources, "" if relative in {None, "."} else str(relative)


def _normal(entry: str) -> str:
    """A ``specChanges`` entry without a leading ``./`` (``./tests/a.py::t`` is ``tests/a.py::t``)."""
    entry = entry.strip()
    while entry.startswith("./"):
        entry = entry[2:]
    return entry


def _relative(base: Base, path: Path) -> str | None:
    found = base.relative(path)
    return None if found is None else found.as_posix()


def _prefix(root: Path, base: Base) -> str:
    found = _relative(base, root)
    return "" if found in {None, "."} else f"{found}/"


def results_of(
    findings: list[SpecFinding],
    permitted: set[str],
    spec_files: int,
    base: Base,
    workspace: Workspace,
) -> list[CheckResult]:
    """One result per file with findings (passing when ``specChanges`` allows them all)."""
    from forge.test_runs.spec_findings import allowed_by

    if not findings:
        plural = "s" if spec_files != 1 else ""
        return [
            CheckResult(
                type=CHECK_ID,
                target=SPEC_TARGET,
                passed=True,
                message=f"{spec_files} spec test file{plural} at {base.ref}: none removed, "
                "switched off, weakened or worked around",
            )
        ]
    by_file: dict[str, list[SpecFinding]] = {}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    results: list[CheckResult] = []
    for path, found in by_file.items():
        target = workspace.display(base.root / path)
        denied = [f for f in found if not allowed_by(f, permitted)]
        shown = denied or found
        text = "; ".join(f.message for f in shown[:SHOWN_IN_MESSAGE])
        more = f" (+{len(shown) - SHOWN_IN_MESSAGE} more)" if len(shown) > SHOWN_IN_MESSAGE else ""
        if denied:
            message = f"spec tests changed: {text}{more}"
        else:
            message = f"allowed by specChanges: {text}{more}"
        results.append(
            FileResult(
                type=CHECK_ID,
                target=target,
                passed=not denied,
                message=clip(message, 500),
                locations=[
                    Location(
                        line=f.line,
                        column=f.column,
                        message=f"{f.kind}: {f.message}",
                        informational=f not in denied,
                    )
                    for f in found
                ],
            )
        )
    return results


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``spec_tests``: after ``switched_off``, before the commands; about a file."""
    return [
        CheckDescriptor(
            id=CHECK_ID,
            summary="With a base revision, the tests the module's verify commands run at the "
            "base were not removed, switched off, weakened, swallowed or mocked away, and the "
            "runner was not told to run less.",
            order=46,
            targets_file=True,
            judges_edits=True,
            read_only=True,
        )
    ]
