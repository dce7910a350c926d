"""``file_check``: every listed file must exist (and be a file), and reach the merge.

With a base revision and a plan module behind the call, what is judged is
what merges: a listed file that git ignores fails ("git ignores it: it can
never be merged", with the rule and its file), since no commit of the
worker's ever holds it. A listed file that is not committed yet, or differs
from its last commit, passes with that said: a worker validates before it
commits (its stop hook, each attempt), and the merge preview and CI judge
committed trees anyway.
"""

from __future__ import annotations

import errno
import os
import stat

from forge import hookimpl
from forge.models import CheckDescriptor, CheckResult, FileResult, ValidateRequest
from forge.workspace import Workspace


def check_file(workspace: Workspace, file: str) -> FileResult:
    """One ``file_check`` result for ``file`` (relative to the working dir, or absolute)."""
    path = workspace.resolve(file)
    try:
        mode = path.stat().st_mode  # follows symlinks: a link to a file is that file
    except OSError as exc:
        # A dangling link does not exist; a name too long or a symlink loop fails
        # this file alone, never the whole check.
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            message = f"{path} does not exist"
        else:
            message = f"{path} cannot be checked: {exc.strerror}"
        return FileResult(type="file_check", target=file, passed=False, message=message)
    if stat.S_ISREG(mode):
        if file.endswith(("/", os.sep)):
            # pathlib drops the slash; the caller expected a directory there.
            message = f"{path} is a file, but {file!r} names a directory"
            return FileResult(type="file_check", target=file, passed=False, message=message)
        return FileResult(type="file_check", target=file, passed=True, message="exists")
    if stat.S_ISDIR(mode):
        message = f"{path} is a directory, not a file"
    else:
        message = f"{path} is not a regular file"
    return FileResult(type="file_check", target=file, passed=False, message=message)


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """One result per distinct entry of ``files``, in the order given."""
    results = [check_file(workspace, file) for file in dict.fromkeys(request.files)]
    if workspace.base is None or workspace.plan_module is None:
        return list(results)
    return list(_as_merged(workspace, results))


def _as_merged(workspace: Workspace, results: list[FileResult]) -> list[FileResult]:
    """``results`` with what git will not merge said: an ignored file fails, an uncommitted one
    says so."""
    from forge.git.tracked import ignored, not_committed, repository_top

    top = repository_top(workspace.cwd)
    existing = {workspace.resolve(r.target): r for r in results if r.passed}
    if top is None or not existing:
        return results
    rules = ignored(top, list(existing))
    pending = not_committed(top, [path for path in existing if path not in rules])
    changed: dict[str, FileResult] = {}
    for path, result in existing.items():
        if path in rules:
            message = (
                f"git ignores it ({rules[path].describe()}): it can never be merged; "
                "change the rule (or add a '!' exception) or move the file, then commit it"
            )
            changed[result.target] = result.model_copy(update={"passed": False, "message": message})
        elif path in pending:
            message = f"exists, {pending[path]}: commit it, or the merge lacks this version"
            changed[result.target] = result.model_copy(update={"message": message})
    return [changed.get(result.target, result) for result in results]


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``file_check``: shown first after the working dir; its target is the file."""
    return [
        CheckDescriptor(
            id="file_check",
            summary="A file the module must produce exists.",
            order=20,
            targets_file=True,
            read_only=True,
        )
    ]
