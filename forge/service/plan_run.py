"""Validating a plan's modules: one module, or all of them in dependency order.

A module's ``files`` and ``verify`` commands come from the plan; everything
else is the ordinary ``validate`` path through :meth:`forge.service.tools.ToolService.validate`,
so attempt history and events are recorded exactly as the MCP tool records
them. ``--all`` walks the plan's execution layers, validating the modules of a
layer in parallel (``--jobs``); a module whose dependency did not pass
(failed, or was itself skipped) is skipped, and the rest of the plan goes on.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forge.errors import UsageError
from forge.models import ValidateRequest
from forge.plan.loader import PlanReadError, build_plan, read_plan_json
from forge.plan.locate import PlanModuleRef
from forge.runtime.cancellation import cancellable, stopped_on_error, waited
from forge.service.arguments import ValidatePlanRequest
from forge.validate.outcome import ModuleRun

if TYPE_CHECKING:
    from forge.plan.model import Plan, PlanModule
    from forge.service.tools import ToolService


@dataclass(frozen=True)
class RunOptions:
    """What applies to every module of the run: where, which run, limits.

    Each field is the :class:`~forge.models.ValidateRequest` field of its name
    (and ``forge validate``'s flag of its name).
    """

    cwd: str | None = None
    run_id: str | None = None
    timeout: float | None = None
    max_attempts: int | None = None
    auto_contracts: bool = True
    base_ref: str | None = None


def load_plan(service: ToolService, plan_path: Path) -> tuple[Plan, list[list[str]], list[str]]:
    """The plan at ``plan_path``, its execution layers and its warnings; :class:`UsageError`
    if it is invalid.

    The plan is judged by ``check_plan`` first (the same rules as ``forge plan
    check``), so a plan with a cycle or a broken module is refused with its
    first error instead of being half-run.
    """
    report = service.validate_plan(ValidatePlanRequest(plan_path=str(plan_path)))
    if not report.valid:
        first = report.errors[0]
        more = len(report.errors) - 1
        hint = f" (and {more} more: run forge plan check {plan_path})" if more else ""
        raise UsageError(f"plan {plan_path} is invalid: {first.message}{hint}")
    try:
        loaded = build_plan(read_plan_json(plan_path))
    except PlanReadError as exc:  # changed between the check and now
        raise UsageError(f"plan {plan_path}: {exc}") from None
    if loaded.plan is None:  # pragma: no cover - check_plan said it was valid
        raise UsageError(f"plan {plan_path} has no usable modules")
    # Defence in depth: a module on or behind a cycle has no layer and would be
    # silently left out of --all (the cycle rule reports it, unless disabled).
    scheduled = {module_id for layer in report.layers for module_id in layer}
    unscheduled = [m.id for m in loaded.plan.modules if m.id not in scheduled]
    if unscheduled:
        raise UsageError(
            f"plan {plan_path}: modules {', '.join(unscheduled)} are on or behind a "
            "dependency cycle: break the cycle in their dependsOn"
        )
    # a valid plan may still deserve a look
    warnings = [f"{warning.type}: {warning.message}" for warning in report.warnings]
    return loaded.plan, report.layers, warnings


def find_module(plan: Plan, module_id: str) -> PlanModule:
    """The module ``module_id`` of ``plan``; :class:`UsageError` naming the ids there are."""
    for module in plan.modules:
        if module.id == module_id:
            return module
    ids = ", ".join(module.id for module in plan.modules)
    raise UsageError(f"no module {module_id!r} in the plan: its modules are {ids}")


def request_for(module: PlanModule, options: RunOptions) -> ValidateRequest:
    """The validate request of a plan module: its files and verify commands."""
    return ValidateRequest(
        module_id=module.id,
        files=list(module.files),
        commands=list(module.verify),
        **dataclasses.asdict(options),
    )


def validate_module(
    service: ToolService,
    module: PlanModule,
    options: RunOptions,
    *,
    plan: Plan | None = None,
    plan_path: Path | None = None,
) -> ModuleRun:
    """Validate one plan module, timing it.

    :param plan: the plan the module comes from (its lanes and acceptance
        criteria are enforced against it); default: the run's plan, if the module is in it.
    :param plan_path: where that plan is, for messages.
    """
    started = time.monotonic()
    request = request_for(module, options)
    ref = None
    if plan is not None:
        ref = PlanModuleRef(plan=plan, module=module, path=plan_path, root=service.root)
    report = service.validate(request, plan=ref)
    return ModuleRun(
        module_id=module.id,
        working_dir=service.engine.working_dir(request),
        report=report,
        title=module.title,
        seconds=time.monotonic() - started,
    )


def default_jobs() -> int:
    """How many modules ``--all`` validates at once by default: the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def validate_all(
    service: ToolService,
    plan: Plan,
    layers: Sequence[Sequence[str]],
    options: RunOptions,
    *,
    jobs: int = 1,
    on_start: Callable[[PlanModule, int, int], None] | None = None,
    on_done: Callable[[ModuleRun], None] | None = None,
    plan_path: Path | None = None,
) -> list[ModuleRun]:
    """Every module, layer after layer, up to ``jobs`` modules of a layer at once.

    A module whose dependency did not pass is skipped. ``on_start(module,
    index, total)`` is called as a module starts (from the thread that runs
    it); ``on_done(run)`` in dependency order (layer by layer, the plan's order within a
    layer), as soon as the module and every one
    before it have finished, so output reads the same whatever ran first.
    Returns the runs in that order.
    """
    by_id = {module.id: module for module in plan.modules}
    order = [by_id[module_id] for layer in layers for module_id in layer]
    position = {module.id: index for index, module in enumerate(order, start=1)}
    outcome: dict[str, str] = {}
    runs: list[ModuleRun] = []

    def one(module: PlanModule) -> ModuleRun:
        with cancellable(stopped):  # Ctrl-C stops the module's commands, not waits for them
            if on_start is not None:
                on_start(module, position[module.id], len(order))
            return validate_module(service, module, options, plan=plan, plan_path=plan_path)

    with (
        ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="forge-module") as pool,
        stopped_on_error(pool) as stopped,
    ):
        for layer in layers:
            pending: dict[str, Future[ModuleRun]] = {}
            for module_id in layer:
                module = by_id[module_id]
                if not any(outcome.get(dep) != "passed" for dep in module.depends_on):
                    pending[module_id] = pool.submit(one, module)
            for module_id in layer:
                module = by_id[module_id]
                if module_id in pending:
                    run = waited(pending[module_id])
                else:
                    blocked = [dep for dep in module.depends_on if outcome.get(dep) != "passed"]
                    why = ", ".join(f"{dep} {outcome.get(dep, 'not run')}" for dep in blocked)
                    run = ModuleRun(
                        module_id=module.id,
                        working_dir=service.engine.working_dir(request_for(module, options)),
                        skipped=f"dependency did not pass: {why}",
                        title=module.title,
                    )
                outcome[module_id] = run.status
                runs.append(run)
                if on_done is not None:
                    on_done(run)
    return runs
