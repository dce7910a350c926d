"""``forge validate``: run a module's checks from the command line (CI, people, scripts)."""

from __future__ import annotations

import argparse
import time
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge.cli.adhoc import add_ad_hoc_flags, adhoc_id, contract_pair
from forge.cli.progress import Progress
from forge.cli.subcommand import (
    add_command,
    add_plan_flag,
    json_text,
    out,
    warn,
)

if TYPE_CHECKING:
    from forge.plan.model import PlanModule
    from forge.service.tools import ToolService
    from forge.validate.outcome import ModuleRun
    from forge.validate.run import Engine

USAGE = """\
check that a module landed: files, syntax, contracts, verify commands

Validate one module (from flags, or from a plan with --plan and --module), or every
module of a plan in dependency order (--all).

examples:
  forge validate --files src/app.py src/util.py --command "pytest -q"
  forge validate --cwd ../worktree-auth --module-id auth --run-id run-42 --json
  forge validate --files missing.py --command false     # exits 1: two failures
  forge validate --contract src/api.ts:src/app.ts        # app.ts imports only what api.ts exports
  forge validate --plan .forge/plans/auth.json --module api --cwd ../wt-api
  forge validate --plan .forge/plans/auth.json --all --run-id run-42
  forge validate --plan plan.json --all --jobs 4    # up to 4 modules of a layer at once
  forge validate --plan plan.json --all --format sarif --output-file forge.sarif
  forge validate --plan plan.json --all --format junit > forge-junit.xml
  forge validate --base main --files src/legacy.py   # only what the branch added fails

formats: text (default), json (the report, as the MCP tool returns it), junit
(JUnit XML, a testcase per check), sarif (SARIF 2.1.0 for code scanning)

exit codes: 0 every check passed, 1 a check failed (or a module was skipped
because its dependency failed), 2 usage or configuration error
"""

FORMATS = ("text", "json", "junit", "sarif")
#: The flags whose names are not their request field's (``max_attempts`` is ``--max-attempts``).
FLAGS = {
    "commands": "--command",
    "contract_checks": "--contract",
    "base_ref": "--base",
    "auto_contracts": "--no-auto-contracts",
}
#: Where events of a CLI call that names no run go: ``.forge/logs/cli.jsonl``.
CLI_RUN_ID = "cli"


def register(subparsers: Any) -> None:
    """Add ``forge validate`` to the parser."""
    parser = add_command(subparsers, "validate", USAGE, run=run)
    add_ad_hoc_flags(parser)
    parser.add_argument(
        "--no-auto-contracts",
        dest="auto_contracts",
        action="store_false",
        help="do not check the local imports of --files automatically",
    )
    add_plan_flag(parser, "plan JSON file to take modules from")
    # Words no flag takes: a second plan after --plan (told it takes one), or a stray word.
    parser.add_argument("stray", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument(
        "--all", action="store_true", help="with --plan: every module, in dependency order"
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        metavar="N",
        help="with --all: validate up to N independent modules of a layer at once "
        "(default: the number of cores); output stays in dependency order",
    )
    parser.add_argument(
        "--module-id",
        "--module",
        dest="module_id",
        metavar="ID",
        help="module id: the plan module to validate, or the id for the attempt "
        "history (default: adhoc-<hash of the files, commands, contracts, --cwd and --base>)",
    )
    parser.add_argument("--run-id", help="run id for the attempt history and the event log")
    parser.add_argument(
        "--timeout", type=float, help="per-command timeout in seconds (default 120)"
    )
    parser.add_argument("--max-attempts", type=int, help="attempts before ESCALATE (default 3)")
    parser.add_argument("--format", choices=FORMATS, help="output format (default: text)")
    parser.add_argument("--json", action="store_true", help="the same as --format json")
    parser.add_argument(
        "--output-file",
        "-o",
        metavar="FILE",
        help="write the report to FILE instead of stdout",
    )


def run(args: argparse.Namespace) -> int:
    """Validate, print the report, exit 0 when passed and 1 when not."""
    from forge.plugin_host.pydantic_lookup import fresh_command

    with fresh_command():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from forge.errors import UsageError

    if args.stray:
        if args.plan is not None:
            raise UsageError(
                f"--plan takes one plan, not {len(args.stray) + 1}: run forge validate once per "
                "plan (forge plan check takes several)"
            )
        raise UsageError(f"unexpected argument {args.stray[0]!r}: every value follows its flag")
    if args.json and args.format not in (None, "json"):
        raise UsageError(f"--json and --format {args.format} disagree: give one of them")
    output_format = "json" if args.json else (args.format or "text")
    if args.jobs is not None:
        if not args.all:
            raise UsageError("--jobs applies to --plan PLAN --all: one module runs on its own")
        if args.jobs < 1:
            raise UsageError(f"--jobs {args.jobs}: give at least 1 (modules at once)")
    if args.plan is None:
        if args.all:
            raise UsageError("--all needs --plan PLAN: the plan says what the modules are")
        from forge.runtime.startup import startup_without_gc
        from forge.validate.preparation import NothingToCheck

        try:
            with startup_without_gc():  # one module: start-up and a bounded unit of work
                runs, multi = [_validate_flags(args)], False
        except NothingToCheck:
            raise UsageError(
                "nothing to check: give --files, --command or --contract, or --plan PLAN "
                "with --module ID or --all (a validation that checks nothing cannot pass)"
            ) from None
    else:
        if args.files or args.commands or args.contracts:
            raise UsageError(
                "--files, --command and --contract cannot be combined with --plan: "
                "the plan module gives them"
            )
        if args.all == (args.module_id is not None):
            raise UsageError("with --plan, give --module ID or --all (one of them)")
        runs, multi = _validate_plan(args, output_format), bool(args.all)
    text = _render(runs, output_format, multi=multi)
    if args.output_file:
        try:
            Path(args.output_file).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {args.output_file}: {exc.strerror or exc}") from None
    else:
        out(text)
    return 0 if all(run.status == "passed" for run in runs) else 1


def _validate_flags(args: argparse.Namespace) -> ModuleRun:
    """One module from --files/--command, recorded like the MCP tool records it."""
    from forge.cli.output import build_request
    from forge.models import ValidateRequest
    from forge.service.bookkeeping import command_finished
    from forge.validate.outcome import ModuleRun
    from forge.validate.run import Engine

    request = build_request(
        ValidateRequest,
        args,
        flags=FLAGS,
        module_id=args.module_id or adhoc_id(args),
        contract_checks=[contract_pair(text) for text in args.contracts],
    )
    engine = Engine.for_project()
    working_dir = engine.working_dir(request)
    started = time.monotonic()
    with Progress() as progress:
        progress.update(f"validating {request.module_id}")
        service = _service(args.run_id, engine)
        report = service.validate(request)
        command_finished(service, "validate", report)
    return ModuleRun(
        module_id=request.module_id,
        working_dir=working_dir,
        report=report,
        seconds=time.monotonic() - started,
    )


def _validate_plan(args: argparse.Namespace, output_format: str) -> list[ModuleRun]:
    """The plan's module (--module) or all its modules in dependency order (--all)."""
    from pydantic import ValidationError

    from forge.cli.output import flag_names
    from forge.errors import UsageError
    from forge.models import ValidateRequest
    from forge.reporting.text import module_line
    from forge.service.bookkeeping import plan_run_finished
    from forge.service.plan_run import (
        RunOptions,
        default_jobs,
        find_module,
        load_plan,
        validate_all,
        validate_module,
    )
    from forge.validation_errors import describe_validation_error

    if args.run_id is not None:
        from forge.store.forge_dir import valid_run_id

        valid_run_id(args.run_id, "--run-id")
    service = _service(args.run_id)
    # In a worker's worktree, the plan is the project's, not the worker's copy of it.
    plan_path = service.engine.place.project_file(Path(args.plan).expanduser().absolute())
    plan, layers, warnings = load_plan(service, plan_path)
    warn("validate", warnings)
    options = RunOptions(**{field.name: getattr(args, field.name) for field in fields(RunOptions)})
    live = output_format == "text" and not args.output_file
    finished: list[ModuleRun] = []

    def done(run: ModuleRun) -> None:
        finished.append(run)
        plan_run_finished(service, plan_path, finished)
        if live and args.all:
            progress.clear()
            out(module_line(run))

    try:
        with Progress() as progress:
            if not args.all:
                module = find_module(plan, args.module_id)
                progress.update(f"validating {module.id} ({module.title})")
                runs = [validate_module(service, module, options, plan=plan, plan_path=plan_path)]
                done(runs[0])
            else:

                def start(module: PlanModule, index: int, total: int) -> None:
                    progress.update(f"[{index}/{total}] validating {module.id} ({module.title})")

                runs = validate_all(
                    service,
                    plan,
                    layers,
                    options,
                    jobs=args.jobs or default_jobs(),
                    on_start=start,
                    on_done=done,
                    plan_path=plan_path,
                )
    except ValidationError as exc:
        names = flag_names(ValidateRequest, FLAGS)
        raise UsageError(describe_validation_error(exc, names=names)) from None
    return runs


def _service(run_id: str | None, engine: Engine | None = None) -> ToolService:
    """The service of a CLI call: events of no run go to ``.forge/logs/cli.jsonl``."""
    from forge.service.tools import ToolService
    from forge.validate.run import Engine

    return ToolService(
        engine or Engine.for_project(),
        run_id=run_id or CLI_RUN_ID,
        active_run=run_id,
        create=False,  # a command's first write makes .forge/: one that records nothing leaves none
    )


def _render(runs: list[ModuleRun], output_format: str, *, multi: bool) -> str:
    if output_format == "text":
        from forge.reporting.text import render_report, render_summary

        if not multi:
            report = runs[0].report
            assert report is not None
            return render_report(report)
        return render_summary(runs)
    from forge.reporting import formats

    if output_format == "junit":
        return formats.to_junit(runs).rstrip("\n")
    if output_format == "sarif":
        from forge.config import project_root

        return json_text(formats.to_sarif(runs, project_root()))
    if multi:  # json, the last of FORMATS
        return json_text(formats.to_json(runs))
    report = runs[0].report
    assert report is not None
    return json_text(report.to_wire())
