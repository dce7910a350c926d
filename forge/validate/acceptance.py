"""The acceptance stage: a plan module's ``acceptance_criteria``, each judged with its evidence.

request -> checks -> baseline -> **acceptance** -> verdict -> attempt history -> report.
It runs after every check, because a criterion may name one (``syntax_check``:
every result of that check in this validate passed). Any other criterion is a
shell command run in the working dir like a verify command, passing when it
exits as ``expected`` says (``exit N``; default 0, with a test runner's run
judged as for verify commands); a command that is also a verify command is not
run twice. Each criterion is one ``acceptance`` result, named by its check,
with its evidence (exit code and test counts, or the named check's counts); a
failing non-blocking criterion is ``advisory`` and fails nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from forge.models import AcceptanceResult, CheckResult, CommandResult, ValidateRequest
from forge.runtime.cancellation import cancelled
from forge.workspace import Workspace

if TYPE_CHECKING:
    from forge.plan.model import AcceptanceCriterion
    from forge.validate.context import StageContext

#: The result type of a criterion: the core's own, declared in its catalog.
ACCEPTANCE = "acceptance"
#: ``expected`` naming an exit code: ``exit 3``, ``exit code 3``.
_EXIT = re.compile(r"\s*exit(?:\s+code)?\s+(-?\d+)\s*", re.IGNORECASE)


def judge_criteria(
    context: StageContext,
    request: ValidateRequest,
    workspace: Workspace,
    results: list[CheckResult],
) -> list[CheckResult]:
    """``results`` followed by one ``acceptance`` result per criterion of the plan module."""
    ref = workspace.plan_module
    if ref is None or not ref.module.acceptance_criteria:
        return results
    declared = set(context.plugins.checks.descriptors)
    judged: list[CheckResult] = []
    seen: dict[str, int] = {}
    for criterion in ref.module.acceptance_criteria:
        if cancelled():
            break
        check = criterion.check.strip()
        seen[check] = seen.get(check, 0) + 1
        target = check if seen[check] == 1 else f"{check} #{seen[check]}"
        if check in declared and check != ACCEPTANCE:
            result = _named_check(criterion, check, target, results)
        else:
            result = _command(context, request, workspace, criterion, target, results)
        if not result.passed and not criterion.blocking:
            result = result.model_copy(update={"advisory": True})
        judged.append(result)
        workspace.report_progress(f"acceptance: {target}")
    return [*results, *judged]


def _named_check(
    criterion: AcceptanceCriterion, check: str, target: str, results: Sequence[CheckResult]
) -> AcceptanceResult:
    """Every result of the forge check ``check`` in this validate passed (at least one ran)."""
    mine = [result for result in results if result.type == check and result.judged]
    failed = [result for result in mine if not result.passed]
    if not mine:
        passed, message = False, f"no {check} result in this validate: it checked nothing here"
    elif failed:
        first = failed[0]
        passed = False
        message = f"{len(failed)} of {len(mine)} {check} results failed; first: {first.target}"
    else:
        passed, message = True, f"all {len(mine)} {check} results passed"
    return _result(criterion, target, passed, message, checked=len(mine), failed=len(failed))


def _command(
    context: StageContext,
    request: ValidateRequest,
    workspace: Workspace,
    criterion: AcceptanceCriterion,
    target: str,
    results: Sequence[CheckResult],
) -> AcceptanceResult:
    """Run the criterion's command (or reuse the verify command's run) and compare its exit."""
    # deferred: only a module whose criteria name a command runs one
    from forge.checks.command_check import UNFINISHED
    from forge.test_runs.command_run import run_command
    from forge.test_runs.runners import expected_summaries

    wanted = _expected_exit(criterion.expected)
    config = workspace.config
    ran = next(
        (
            result
            for result in results
            if isinstance(result, CommandResult) and result.target == criterion.check
        ),
        None,
    )
    if ran is None or wanted != 0:
        exempt = wanted != 0 or config.exempt_from_tests(criterion.check)
        ran = run_command(
            criterion.check,
            workspace.cwd,
            request.timeout or config.command_timeout,
            result_type=ACCEPTANCE,
            min_tests=None if exempt else config.min_tests,
            summaries=None if exempt else expected_summaries(criterion.check, workspace.cwd),
            unfinished_message=UNFINISHED,
        )
    passed = ran.passed if wanted == 0 else ran.exit_code == wanted and not ran.timed_out
    message = ran.message
    if wanted != 0 and not passed and ran.exit_code is not None and not ran.timed_out:
        message = f"expected exit {wanted}, got {message}"
    if ran.exit_code == 127 and not passed:
        message += f" ({criterion.check.split()[0]!r} is neither a forge check nor a program here)"
    return _result(criterion, target, passed, message, exit_code=ran.exit_code, tests=ran.tests)


def _result(
    criterion: AcceptanceCriterion, target: str, passed: bool, message: str, **evidence: Any
) -> AcceptanceResult:
    """The ``acceptance`` result of ``criterion``, with its evidence and what it expected."""
    return AcceptanceResult(
        type=ACCEPTANCE,
        target=target,
        passed=passed,
        message=_with_expectation(message, criterion),
        check=criterion.check,
        expected=criterion.expected,
        blocking=criterion.blocking,
        **evidence,
    )


def _expected_exit(expected: str | None) -> int:
    """The exit code ``expected`` asks for: ``exit N``; anything else means success (0)."""
    if expected is None:
        return 0
    match = _EXIT.fullmatch(expected)
    return int(match.group(1)) if match else 0


def _with_expectation(message: str, criterion: AcceptanceCriterion) -> str:
    if criterion.expected and _EXIT.fullmatch(criterion.expected) is None:
        message += f" (expected: {criterion.expected})"
    if not criterion.blocking:
        message += " [non-blocking]"
    return message
