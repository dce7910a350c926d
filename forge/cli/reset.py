"""``forge reset``: start a module, a run or an ad-hoc file set over (clear attempt histories)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from forge.cli.subcommand import add_command, add_json_flag, emit

if TYPE_CHECKING:
    from forge.service.tools import ToolService
    from forge.validate.iteration import ResetSummary

USAGE = """\
start a module, a run or an ad-hoc file set over: clear its attempt history

Clears attempt histories as the iteration_state tool's reset does, and what
forge hook remembers of the module's last blocked or escalated stop: the next
validate is attempt 1, with no trend behind it.

examples:
  forge reset --module-id api --run-id run-42     # one module of a run
  forge reset --module-id api                     # a module's history of calls without a run
  forge reset --run-id run-42                     # every module of a run
  forge reset --files src/a.py --command "pytest -q"   # what forge validate keyed by these flags

exit codes: 0 reset (or nothing to reset), 2 usage error
"""


def register(subparsers: Any) -> None:
    """Add ``forge reset`` to the parser."""
    from forge.cli.adhoc import add_ad_hoc_flags

    parser = add_command(subparsers, "reset", USAGE, run=run)
    parser.add_argument(
        "--module-id",
        "--module",
        dest="module_id",
        metavar="ID",
        help="the module to start over (with --run-id: in that run)",
    )
    parser.add_argument(
        "--run-id",
        metavar="RUN",
        help="the run: alone, every module of it; with a module or flags, theirs in it",
    )
    add_ad_hoc_flags(parser)
    add_json_flag(parser)


def run(args: argparse.Namespace) -> int:
    """Reset the histories asked for and say what each held."""
    from forge.cli.adhoc import adhoc_id
    from forge.cli.validate import CLI_RUN_ID
    from forge.errors import UsageError
    from forge.service.tools import ToolService
    from forge.store.forge_dir import valid_id, valid_run_id

    ad_hoc = bool(args.files or args.commands or args.contracts)
    if args.module_id is not None and ad_hoc:
        raise UsageError(
            "give --module-id ID or the flags of an ad-hoc validation (--files, --command, "
            "--contract), not both"
        )
    if args.run_id is not None:
        valid_run_id(args.run_id, "--run-id")
    if args.module_id is not None:
        valid_id(args.module_id, "--module-id")
    service = ToolService.for_project(run_id=CLI_RUN_ID, active_run=args.run_id)
    if args.module_id is not None:
        modules = [args.module_id]
    elif ad_hoc:
        modules = [adhoc_id(args)]
    elif args.run_id is not None:
        modules = service.forge_dir.module_ids(args.run_id)
    else:
        raise UsageError(
            "say what to start over: --module-id ID, --run-id RUN (every module of it), or "
            "the --files/--command/--contract of an ad-hoc validation"
        )
    result = _reset(service, modules, args.run_id)
    emit(args, result, _text(result, args.run_id))
    return 0


def _reset(service: ToolService, modules: list[str], run_id: str | None) -> ResetSummary:
    """Each module's history cleared through the service (events, status), with its size."""
    from forge.service.arguments import IterationStateRequest
    from forge.service.bookkeeping import command_finished
    from forge.validate.iteration import ModuleReset, ResetSummary, read_state

    done = []
    for module_id in modules:
        path = service.forge_dir.iteration(module_id, run_id)
        attempts = len(read_state(path, module_id=module_id, run_id=run_id).attempts)
        reset = IterationStateRequest(module_id=module_id, action="reset", run_id=run_id)
        command_finished(service, "iteration_state", service.iteration_state(reset))
        done.append(ModuleReset(module_id=module_id, run_id=run_id, attempts=attempts))
    return ResetSummary(reset=done)


def _text(result: ResetSummary, run_id: str | None) -> str:
    where = f" of run {run_id}" if run_id else ""
    if not result.reset:
        return f"Nothing to reset: no module has attempts{where}."
    lines = []
    for module in result.reset:
        if module.attempts:
            count = f"{module.attempts} attempt{'s' if module.attempts != 1 else ''} cleared"
        else:
            count = "no attempts to clear"
        lines.append(f"Reset {module.module_id}{where}: {count}.")
    return "\n".join(lines)
