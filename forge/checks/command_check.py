"""``command``: each verify command must exit 0 within its timeout.

Each command is run by :func:`forge.test_runs.command_run.run_command`: in its
own process group, killed whole on timeout or cancellation, its test-runner
summaries read as it streams; a runner that ran no test fails the command
whatever its exit code. A runner the command line starts
(:func:`forge.test_runs.expected_summaries`) that exits 0 without printing its
summary fails it too (:data:`UNFINISHED`): a ``conftest.py`` calling
``os._exit(0)`` ends the run early, and exit 0 then proves nothing.
"""

from __future__ import annotations

from forge import hookimpl
from forge.models import CheckDescriptor, CommandResult, ValidateRequest
from forge.runtime.cancellation import cancelled
from forge.workspace import Workspace

CHECK_ID = "command"
#: Why a command whose test runner printed no summary fails, whatever its exit code.
UNFINISHED = "the test run ended before its summary"


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CommandResult]:
    """Run each of the request's ``commands`` in turn, in the working dir."""
    if not request.commands:
        return []
    # Here, not at the top: a validate without commands (the hook, one file) never
    # loads the runners' summary patterns.
    from forge.test_runs.command_run import run_command
    from forge.test_runs.runners import expected_summaries

    config = workspace.config
    timeout = request.timeout or config.command_timeout
    results = []
    for number, command in enumerate(request.commands, 1):
        if cancelled():  # the rest would only be killed at once
            break
        exempt = config.exempt_from_tests(command)
        min_tests = None if exempt else config.min_tests
        results.append(
            run_command(
                command, workspace.cwd, timeout, result_type=CHECK_ID, min_tests=min_tests,
                summaries=None if exempt else expected_summaries(command, workspace.cwd),
                unfinished_message=UNFINISHED,
            )
        )  # fmt: skip
        workspace.report_progress(f"command {number}/{len(request.commands)}: {command}")
    return results


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``command``: shown after the file checks; a command is about no file."""
    return [
        CheckDescriptor(
            id=CHECK_ID,
            summary="A verify command exits 0, and a test runner in it ran at least one test.",
            order=50,
        )
    ]
