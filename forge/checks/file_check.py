"""``file_check``: every listed file must exist (and be a file)."""

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
    return [check_file(workspace, file) for file in dict.fromkeys(request.files)]


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
