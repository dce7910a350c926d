"""``file_check``: every listed file must exist (and be a file)."""

from __future__ import annotations

from forge import hookimpl
from forge.models import CheckResult, ValidateRequest
from forge.workspace import Workspace


def check_file(workspace: Workspace, file: str) -> CheckResult:
    """One ``file_check`` result for ``file`` (relative to the working dir, or absolute)."""
    path = workspace.resolve(file)
    if path.is_file():
        return CheckResult(type="file_check", target=file, passed=True, message="exists")
    if path.is_dir():
        message = f"{path} is a directory, not a file"
    elif path.exists():
        message = f"{path} is not a regular file"
    else:
        message = f"{path} does not exist"
    return CheckResult(type="file_check", target=file, passed=False, message=message)


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """One result per distinct entry of ``files``, in the order given."""
    return [check_file(workspace, file) for file in dict.fromkeys(request.files)]
