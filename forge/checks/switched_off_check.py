"""``switched_off``: with a base revision, no listed test file switches tests off.

A change that makes the suite pass by skipping, focusing away or emptying
tests is caught here: each listed test file is compared with itself at the
base revision (``baseRef``, ``--base``, ``[tool.forge] base-ref``) by
:func:`forge.test_runs.spec_switched_off.spec_switched_off`: a test that exists at the
base (moved from another changed test file too) newly switched off fails, and so does a
new test switched off for good; a new test skipped on a condition does not. Without a
base the check gives no result; files that are not test files give none either.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from forge import hookimpl
from forge.errors import ForgeError, clip
from forge.models import CheckDescriptor, CheckResult, FileResult, Location, ValidateRequest
from forge.workspace import Workspace

if TYPE_CHECKING:
    from forge.git import Base

CHECK_ID = "switched_off"
#: Findings named in a result's one-line message; locations list them all.
SHOWN_IN_MESSAGE = 3


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """One result per listed test file, when the request has a base revision."""
    ref = request.base_ref or workspace.config.base_ref
    if not ref or not request.files:
        return []
    # Here, not at the top: a validate without a base never loads git or the rules.
    from forge.git import resolve_base
    from forge.test_runs.file_kinds import is_test_file
    from forge.test_runs.spec_switched_off import spec_switched_off

    try:
        base = resolve_base(workspace.cwd, ref)
    except (ForgeError, OSError):
        return []  # the baseline stage reports a base that does not resolve
    if base is None:
        return []
    texts: dict[str, str] = {}
    for file in dict.fromkeys(request.files):
        path = workspace.resolve(file)
        try:
            text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        except OSError:
            text = None
        if text is not None and is_test_file(file, text):
            texts[file] = text
    if not texts:
        return []
    old = base.contents([workspace.resolve(file) for file in texts])
    moved_from = _MovedFrom(base, workspace)
    results: list[CheckResult] = []
    for file, text in texts.items():
        before = old.get(workspace.resolve(file))
        found = spec_switched_off(
            file,
            before.decode("utf-8", errors="replace") if before is not None else None,
            text,
            partial(moved_from.texts, workspace.resolve(file)),
        )
        if not found:
            message = "no test switched off since the base"
        else:
            shown = "; ".join(finding.message for finding in found[:SHOWN_IN_MESSAGE])
            more = (
                f" (+{len(found) - SHOWN_IN_MESSAGE} more)" if len(found) > SHOWN_IN_MESSAGE else ""
            )
            plural = "s" if len(found) != 1 else ""
            message = clip(f"{len(found)} test{plural} switched off: {shown}{more}", 500)
        results.append(
            FileResult(
                type=CHECK_ID,
                target=file,
                passed=not found,
                message=message,
                locations=[
                    Location(line=f.line, column=f.column, message=f.message) for f in found
                ],
            )
        )
    return results


class _MovedFrom:
    """The base texts of the test files the change touched: where a test may have moved
    from. Read once, when a finding first asks."""

    def __init__(self, base: Base, workspace: Workspace) -> None:
        self.base, self.workspace = base, workspace
        self._texts: dict[Path, str | None] | None = None

    def texts(self, besides: Path) -> dict[str, str | None]:
        """Each such file's base text by a name keeping its suffix, ``besides`` left out."""
        if self._texts is None:
            self._texts = self._read()
        return {path.as_posix(): text for path, text in self._texts.items() if path != besides}

    def _read(self) -> dict[Path, str | None]:
        from forge.git.changes import working_changes
        from forge.test_runs.file_kinds import is_test_file

        try:
            changes = working_changes(self.workspace.cwd, self.base.commit)
        except (ForgeError, OSError):
            return {}
        if changes is None:
            return {}
        paths = [changes.top / p for p in changes.files if is_test_file(p, "")]
        contents = self.base.contents(paths)
        return {
            path: data.decode("utf-8", errors="replace")
            for path in paths
            if (data := contents.get(path)) is not None
        }


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``switched_off``: after the contract checks, before the commands; about a file."""
    return [
        CheckDescriptor(
            id=CHECK_ID,
            summary="No test in a listed test file was newly skipped, focused away or emptied.",
            order=45,
            targets_file=True,
            read_only=True,
        )
    ]
