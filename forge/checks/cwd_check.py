"""``cwd_check``: the working dir must exist and be a directory.

It runs first; when it fails, nothing else can be judged, so it halts the
other checks and the engine escalates without recording an attempt.
"""

from __future__ import annotations

from forge import hookimpl
from forge.models import CheckResult
from forge.workspace import Workspace


@hookimpl(tryfirst=True)
def forge_run_checks(workspace: Workspace) -> list[CheckResult]:
    """Fail (and halt) when the working dir is missing or not a directory; else say nothing."""
    cwd = workspace.cwd
    if cwd.is_dir():
        return []
    problem = "is not a directory" if cwd.exists() else "does not exist"
    return [
        CheckResult(
            type="cwd_check",
            target=str(cwd),
            passed=False,
            message=f"working directory {cwd} {problem}: pass an existing directory as cwd",
        ).halting()
    ]
