"""``forge merge check``: preview merging the modules' branches back, before anyone merges."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from forge.cli.subcommand import (
    add_actions,
    add_base_flag,
    add_command,
    add_json_flag,
    add_list_flag,
    add_plan_flag,
    emit,
)
from forge.reporting.terminal import paint, printable

if TYPE_CHECKING:
    from forge.parallel.models import MergeCheckReport

USAGE = """\
preview merging modules back: conflicts, integration breaks, stale work

Merge the modules' work into the base in dependency order with git merge-tree, in
git's object store (no working tree, index or ref changes), report textual conflicts
with their files and modules, then run the file checks on the merged tree and report
each finding no single branch has as an integration break naming the modules. A
module's work: --branch, else the plan's "branch", the run's session worktrees
(--run-id), a worktree or branch named after it (forge/ID, wt-ID).

examples:
  forge merge check                                # every module of the newest plan
  forge merge check --plan .forge/plans/auth.json --layer 1 --base main
  forge merge check --module api --module db --branch api=forge/api --branch db=../wt-db
  forge merge check --run-id run-42 --json         # worktrees from the run's session
  forge merge check --no-checks                    # conflicts and stale work only

exit codes: 0 the modules merge cleanly and break nothing, 1 a conflict, an
integration break, a change outside a module's lane, or a module whose latest
validation failed, 2 usage error (no git, an unknown module, work not found)
"""
CHECK_USAGE = "merge the modules in git's object store and check the result"


def register(subparsers: Any) -> None:
    """Add ``forge merge check`` to the parser."""
    actions = add_actions(add_command(subparsers, "merge", USAGE))
    check = actions.add("check", CHECK_USAGE, run=run_check)
    add_plan_flag(
        check,
        "the plan (default: the run's, else the newest .forge/plans/*.json)",
        dest="plan_path",
    )
    add_list_flag(
        check,
        "--module",
        dest="modules",
        metavar="ID",
        help="a module to merge back (repeatable; default: the layer's, else every plan module)",
    )
    check.add_argument("--layer", type=int, metavar="N", help="the modules of layer N (1 = first)")
    add_list_flag(
        check,
        "--branch",
        dest="branch_pairs",
        metavar="ID=REF",
        help="where a module's work is: a branch, commit or worktree folder (repeatable)",
    )
    add_base_flag(
        check, "what the modules merge into (default: [tool.forge] base-ref, else main or master)"
    )
    check.add_argument("--run-id", metavar="ID", help="the run whose session maps worktrees")
    check.add_argument(
        "--no-checks",
        dest="checks",
        action="store_false",
        help="do not run the file checks on the merged tree",
    )
    add_json_flag(check, "the report (as the merge_check tool returns it)")


def run_check(args: argparse.Namespace) -> int:
    """Preview the merge; exit 0 when it is clean, 1 when it is not (see the exit codes)."""
    from forge.cli.output import build_request
    from forge.errors import UsageError
    from forge.service.arguments import MergeCheckRequest
    from forge.service.tools import ToolService

    branches: dict[str, str] = {}
    for pair in args.branch_pairs:
        module_id, sep, ref = pair.partition("=")
        if not sep or not module_id or not ref:
            raise UsageError(f"--branch {pair!r}: expected ID=REF, e.g. api=forge/api")
        branches[module_id] = ref
    request = build_request(MergeCheckRequest, args, branches=branches)
    service = ToolService.for_project(run_id="cli")
    report = service.merge_check(request)
    emit(args, report, render(report))
    return 0 if report.passed else 1


def render(report: MergeCheckReport) -> str:
    """The preview as lines: each module, each conflict, break and stale branch, the verdict."""
    from forge.reporting.text import location_line

    order = " -> ".join(report.order)
    lines = [f"base {report.base_ref} ({report.base_commit[:12]}); merge order: {order}"]
    for module in report.modules:
        mark = paint("MERGED  ", "green") if module.merged else paint("CONFLICT", "red")
        count = len(module.changed_files)
        latest = module.verdict
        said = f"; latest validation {latest.recommendation}" if latest else ""
        lines.append(
            f"{mark} {module.module_id}: {printable(module.ref)} ({module.source}), "
            f"{count} changed file{'' if count == 1 else 's'}{said}"
        )
    for stray in report.lane_violations:
        lines.append(
            f"{paint('LANE    ', 'red')} {stray.module_id}: "
            f"{printable(f'{stray.file} {stray.message}')}"
        )
    for conflict in report.conflicts:
        lines.append(f"{paint('CONFLICT', 'red')} {printable(conflict.message)}")
    for found in report.integration_breaks:
        lines.append(
            f"{paint('BREAK   ', 'red')} {printable(f'{found.type} {found.target}: {found.message}')}"
            f" [modules {', '.join(found.modules) or '?'}]"
        )
        lines.extend(
            f"    {printable(location_line(place, place.path or found.target))}"
            for place in found.locations
        )
    for stale in report.stale:
        lines.append(f"{paint('STALE   ', 'yellow')} {printable(stale.message)}")
    lines.extend(f"note: {printable(notice)}" for notice in report.notices)
    if report.passed:
        merged = f"; merged commit {report.merged_commit[:12]}" if report.merged_commit else ""
        verdict = paint("PASSED", "green")
        lines.append(
            f"{verdict}: {len(report.order)} modules merge cleanly, {report.checked_files} "
            f"files checked, no integration break{merged}"
        )
    else:
        lines.append(
            f"{paint('FAILED', 'red')}: {len(report.conflicts)} conflict(s), "
            f"{len(report.integration_breaks)} integration break(s)" + _failed_too(report)
        )
    return "\n".join(lines)


def _failed_too(report: MergeCheckReport) -> str:
    """The failures beside git's: changes outside lanes, modules whose validation failed."""
    said = ""
    if report.lane_violations:
        said += f", {len(report.lane_violations)} change(s) outside a lane"
    if report.failed_verdicts:
        names = ", ".join(report.failed_verdicts)
        said += (
            f", {len(report.failed_verdicts)} module(s) whose latest validation failed ({names})"
        )
    return said
