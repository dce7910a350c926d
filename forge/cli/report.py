"""``forge report merge``: per-job ``forge validate --json`` reports made one (CI's last job)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from forge.cli.subcommand import (
    add_actions,
    add_command,
    add_json_flag,
    add_plan_flag,
    json_text,
    out,
    warn,
)

USAGE = """\
combine per-job reports: one status table, one JUnit file, one SARIF file

Read the JSON reports of separate forge validate --json runs (one per CI job of a
plan matrix, or --all runs) and write them out as one: the module table (or --json),
and with --junit and --sarif the files CI test reports and code scanning read. With
--plan, a module no job reported on is listed as skipped.

examples:
  forge report merge reports/*.json --junit forge-junit.xml --sarif forge.sarif
  forge report merge reports/*.json --plan .forge/plans/auth.json
  forge report merge reports/*.json --cwd app      # the jobs ran forge validate --cwd app
  forge report merge api.json db.json --json > forge-report.json

exit codes: 0 every module passed, 1 a module failed or was skipped, 2 usage error
(a file that is not a forge report)
"""
MERGE_USAGE = "combine per-job JSON reports into one table, JUnit file and SARIF file"


def register(subparsers: Any) -> None:
    """Add ``forge report merge`` to the parser."""
    actions = add_actions(add_command(subparsers, "report", USAGE))
    merge = actions.add("merge", MERGE_USAGE, run=run_merge)
    merge.add_argument("reports", nargs="+", metavar="REPORT", help="forge validate --json files")
    add_plan_flag(merge, "list the plan's unreported modules too")
    merge.add_argument(
        "--cwd",
        metavar="DIR",
        help="the working dir the jobs validated in, as their --cwd (default: the project "
        "root): report paths are relative to it",
    )
    merge.add_argument("--junit", metavar="FILE", help="write one JUnit XML file here")
    merge.add_argument("--sarif", metavar="FILE", help="write one SARIF 2.1.0 file here")
    add_json_flag(merge, "the combined run (as forge validate --all --json prints it)")


def run_merge(args: argparse.Namespace) -> int:
    """Combine the reports; exit 0 when every module passed."""
    from forge.config import project_root
    from forge.errors import UsageError
    from forge.reporting import formats
    from forge.reporting.merged import load_runs, with_plan

    root = project_root()
    working_dir = (root / Path(args.cwd).expanduser()).absolute() if args.cwd else root
    runs, notices = load_runs([Path(name) for name in args.reports], working_dir)
    if args.plan is not None:
        from forge.plan.locate import read_plan

        plan = read_plan(Path(args.plan).absolute())
        if plan is None:
            raise UsageError(f"cannot read the plan {args.plan}: check it with forge plan check")
        runs = with_plan(runs, plan, working_dir)
    warn("report merge", notices)
    if args.junit:
        _write(args.junit, formats.to_junit(runs))
    if args.sarif:
        _write(args.sarif, json_text(formats.to_sarif(runs, root)) + "\n")
    if args.json:
        out(json_text(formats.to_json(runs)))
    else:
        from forge.reporting.text import render_summary

        out(render_summary(runs))
    return 0 if all(run.status == "passed" for run in runs) else 1


def _write(name: str, text: str) -> None:
    from forge.errors import UsageError

    try:
        Path(name).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {name}: {exc.strerror or exc}") from None
