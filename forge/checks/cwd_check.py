"""``cwd_check``: the working dir must exist and be a directory.

It runs first; when it fails, nothing else can be judged, so it halts the
other checks and the engine escalates without recording an attempt.
"""

from __future__ import annotations

import errno
import stat

from forge import hookimpl
from forge.models import CheckDescriptor, CheckResult
from forge.workspace import Workspace


@hookimpl(tryfirst=True)
def forge_run_checks(workspace: Workspace) -> list[CheckResult]:
    """Fail (and halt) when the working dir is missing or not a directory; else say nothing."""
    cwd = workspace.cwd
    try:
        mode = cwd.stat().st_mode
    except OSError as exc:
        # Not only "no such file": a name too long, a symlink loop or a folder we
        # may not enter must halt the checks too, not crash this one.
        missing = exc.errno in (errno.ENOENT, errno.ENOTDIR)
        problem = "does not exist" if missing else f"cannot be used ({exc.strerror})"
    else:
        if stat.S_ISDIR(mode):
            return []
        problem = "is not a directory"
    return [
        CheckResult(
            type="cwd_check",
            target=str(cwd),
            passed=False,
            message=f"working directory {cwd} {problem}: pass an existing directory as cwd",
        )
    ]


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``cwd_check``: shown first; its failure halts every other check."""
    return [
        CheckDescriptor(
            id="cwd_check",
            summary="The module's working directory exists.",
            order=0,
            halts_on_failure=True,
            read_only=True,
        )
    ]
