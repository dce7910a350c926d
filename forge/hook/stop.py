"""``Stop`` / ``SubagentStop``: validate the agent's module; block while it fails and attempts remain.

ESCALATE, or a repeated stop with nothing changed since the last block,
allows, with the reason shown to the person. Claude Code fires ``Stop`` at
the end of every turn: once a module has escalated, a stop with nothing
changed since records no attempt (it would only count past the limit); a
change is a new try and is validated. The module is found by
:mod:`forge.hook.target`; what a stop remembers of the last block is
:mod:`forge.state.stop_blocks`'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge.hook.answers import MAX_FINDINGS, allow, block, clip_reason
from forge.reporting.text import result_findings

if TYPE_CHECKING:
    from forge.hook.target import ModuleRef, Target
    from forge.validate.outcome import ValidateReport

#: Where events of a stop that names no run go: ``.forge/logs/hook.jsonl``.
HOOK_RUN_ID = "hook"


def on_stop(event: dict[str, Any]) -> dict[str, str] | None:
    """Validate the agent's module; block while it fails and attempts remain."""
    from forge.hook.target import locate

    here = locate(event)
    if here.ref is None:
        return None  # not a forge worker: nothing to enforce
    from forge.plugin_host.pydantic_lookup import fresh_command

    with fresh_command():
        return _judge_stop(event, here.ref)


def _judge_stop(event: dict[str, Any], worker: ModuleRef) -> dict[str, str] | None:
    """The stop of ``worker``, a forge worker: allowed when its module passes or must escalate."""
    from forge.git.fingerprint import work_fingerprint
    from forge.hook.target import find_target
    from forge.state.stop_blocks import forget_block, last_block, remember_block
    from forge.store.forge_dir import ForgeDir

    target = find_target(worker)
    forge_dir = ForgeDir(target.root)
    module_id, run_id = target.module.id, target.run_id
    previous = last_block(forge_dir, module_id, run_id)
    if previous is not None and (previous.escalated or event.get("stop_hook_active") is True):
        # A stop repeated with nothing changed since the block is a person's to look at.
        unchanged = previous.fingerprint == work_fingerprint(
            target.working_dir, target.module.files
        )
        if unchanged:
            since = "escalated" if previous.escalated else "forge blocked the last stop"
            return allow(
                f"forge: module {module_id} {since} and nothing changed since; "
                f"a person must look. {previous.summary}"
            )
    report = _validate(target)
    from forge.test_runs.claims import claim_contradicted

    contradicted = claim_contradicted(event, report.results)
    if report.passed and contradicted is None:
        forget_block(forge_dir, module_id, run_id)
        return None
    summary = "\n".join(
        filter(
            None, [contradicted, None if report.passed else summarize(report, target.working_dir)]
        )
    )
    # The fingerprint is taken after the verify commands ran: what they wrote is not a change.
    escalated = report.recommendation == "ESCALATE"
    fingerprint = work_fingerprint(target.working_dir, target.module.files)
    remember_block(
        forge_dir, module_id, run_id, fingerprint=fingerprint, summary=summary, escalated=escalated
    )
    if escalated:
        return allow(f"forge: {summary}\nforge stops retrying: a person must look.")
    return block(f"forge: {summary}", ["Fix these, then finish again: forge re-validates."])


def _validate(target: Target) -> ValidateReport:
    """The module's validate call, recorded like ``forge validate --plan`` records it."""
    from forge.git import AUTO
    from forge.service.bookkeeping import command_finished
    from forge.service.plan_run import RunOptions, validate_module
    from forge.service.tools import ToolService

    service = ToolService.for_project(
        target.root, run_id=target.run_id or HOOK_RUN_ID, active_run=target.run_id
    )
    # The lane is judged as validate judges it: against [tool.forge] base-ref, else auto.
    base_ref = service.engine.config.base_ref or AUTO
    options = RunOptions(cwd=str(target.working_dir), run_id=target.run_id, base_ref=base_ref)
    run = validate_module(
        service, target.module, options, plan=target.plan, plan_path=target.plan_path
    )
    report = run.report
    assert report is not None  # validate_module always validates
    command_finished(service, "validate", report)  # status.json follows a named run
    return report


def summarize(report: ValidateReport, cwd: Path) -> str:
    """A few lines an agent can act on: the verdict, then each failure and where."""
    from forge.validate.history import attempt_words

    failures = [result for result in report.results if not result.passed]
    passed = len(report.results) - len(failures)
    lines = [
        f"module {report.module_id} fails: {passed}/{len(report.results)} checks passed, "
        f"{attempt_words(report.attempt, report.max_attempts)} -> {report.recommendation}"
    ]
    for result in failures[:MAX_FINDINGS]:
        lines.append(f"FAIL {result.type} {result.target}: {result.message}")
        if result.locations:
            lines.extend(f"  {place}" for place in result_findings(result, cwd)[:3])
        tail = (getattr(result, "stderr", "") or getattr(result, "stdout", "") or "").strip()
        lines.extend(f"  | {line}" for line in tail.splitlines()[-3:])
    if len(failures) > MAX_FINDINGS:
        lines.append(f"... and {len(failures) - MAX_FINDINGS} more failures")
    return clip_reason("\n".join(lines))
