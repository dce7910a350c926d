"""``forge plan check`` and ``forge plan schema``: plans in pre-commit, CI and editors.

``forge plan check`` runs once per commit, so it imports only what plan
validation needs: no MCP, no tree-sitter, no validation engine.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge.cli.subcommand import add_actions, add_command, add_json_flag, out, print_json
from forge.reporting.terminal import paint, printable

if TYPE_CHECKING:
    from forge.plan.check import PlanReport

_CHECK_LINES = """\
  forge plan check                          # the newest .forge/plans/*.json
  forge plan check .forge/plans/*.json      # several plans, as pre-commit passes them
  forge plan check plan.json --json         # {"valid": ..., "plans": [report, ...]}
  FORGE_DISABLE_PLUGINS=file_overlap forge plan check
"""
_SCHEMA_LINES = """\
  forge plan schema > .forge/plan.schema.json
  then start a plan with  "$schema": "../plan.schema.json"  for completion in editors
"""
_MATRIX_LINES = """\
  forge plan matrix .forge/plans/auth.json                  # {"plan", "count", "layers", "modules"}
  echo "matrix=$(forge plan matrix plan.json --format github)" >> "$GITHUB_OUTPUT"
     then a job of layer N: strategy.matrix: ${{ fromJSON(needs.plan.outputs.matrix).layers[N-1] }}
"""
_CHECK_EXIT = (
    "exit codes: 0 every plan valid (warnings allowed), 1 a plan is invalid, 2 usage error\n"
)
# ``forge plan --help`` shows both actions' examples under one heading.
USAGE = f"""\
check plans (pre-commit, CI) and print the plan JSON Schema

Work with plans: the modules, files, verify commands and dependencies a planner agent
writes to .forge/plans/<name>.json.

examples:
{_CHECK_LINES}{_SCHEMA_LINES}{_MATRIX_LINES}
{_CHECK_EXIT}"""
CHECK_USAGE = f"""\
validate plans: structure, ids, dependencies, cycles, verify commands

Validate plans without running anything: structure, module ids, dependencies and cycles,
the programs verify commands need, and files that modules running in parallel would both
change (a warning).

examples:
{_CHECK_LINES}
{_CHECK_EXIT}"""
SCHEMA_USAGE = f"""\
print the JSON Schema of a plan

Print the JSON Schema (draft 2020-12) of a plan file.

examples:
{_SCHEMA_LINES}"""

MATRIX_USAGE = f"""\
print the plan's execution layers as CI matrices

The layers (modules that can run side by side, in order) as plain JSON, or with
--format github as GitHub Actions matrices on one line: {{"count": N, "layers":
[{{"include": [{{"module", "title", "layer"}}]}}]}}. CI runs a job per module, layer
after layer; forge has no scheduler of its own. An invalid plan prints its errors.

examples:
{_MATRIX_LINES}
exit codes: 0 printed, 1 the plan is invalid, 2 usage error
"""


def register(subparsers: Any) -> None:
    """Add ``forge plan check``, ``forge plan schema`` and ``forge plan matrix`` to the parser."""
    actions = add_actions(add_command(subparsers, "plan", USAGE))
    check = actions.add("check", CHECK_USAGE, run=run_check)
    check.add_argument(
        "plans",
        nargs="*",
        metavar="PLAN",
        help="plan files (default: the most recently modified .forge/plans/*.json)",
    )
    add_json_flag(check, "the reports")
    actions.add("schema", SCHEMA_USAGE, run=run_schema)
    matrix = actions.add("matrix", MATRIX_USAGE, run=run_matrix)
    matrix.add_argument("plan", metavar="PLAN", help="the plan file")
    matrix.add_argument(
        "--format",
        choices=("json", "github"),
        default="json",
        help="json (default: the layers and modules) or github (matrices, one line)",
    )


def run_check(args: argparse.Namespace) -> int:
    """Check each plan; print findings as ``path: severity: message  [type]`` lines."""
    from forge.plugin_host.pydantic_lookup import fresh_command

    with fresh_command():
        return _check(args)


def _check(args: argparse.Namespace) -> int:
    from forge.runtime.startup import startup_without_gc

    with startup_without_gc():
        from forge.config import disabled_plugins, load_config, project_root
        from forge.errors import UsageError
        from forge.plan.check import check_plan
        from forge.plugin_host.host import build_plugin_host
        from forge.store.forge_dir import ForgeDir

        root = project_root()
        targets: list[tuple[str, Path]] = [(name, Path(name).absolute()) for name in args.plans]
        for name, path in targets:
            if not path.exists():  # a typo, not a plan to judge: nothing to check it against
                raise UsageError(f"{name}: no such file (give the path of a plan JSON file)")
        if not targets:
            newest = ForgeDir(root).newest_plan()
            if newest is None:
                raise UsageError(f"no PLAN given and no .forge/plans/*.json in {root}")
            targets = [(_relative(newest), newest)]
        plugins = build_plugin_host(disabled_plugins(load_config(root)))
    reports = [
        (shown, check_plan(plan_path=str(path), plan=None, project_root=root, plugins=plugins))
        for shown, path in targets
    ]
    valid = all(report.valid for _, report in reports)
    if args.json:
        print_json({"valid": valid, "plans": [report.to_wire() for _, report in reports]})
    else:
        out(render_reports(reports))
    return 0 if valid else 1


def render_reports(reports: list[tuple[str, PlanReport]]) -> str:
    """Findings as ``path: error: message  [type]`` lines, a line per valid plan, a summary."""
    lines: list[str] = []
    for named, report in reports:
        # Escaped: a finding quotes the plan's own text (a dependency, a command, a path),
        # and a newline or an escape sequence there would split the line or drive the
        # terminal. --json carries the real text.
        shown = printable(named)
        for finding in report.errors:
            message = printable(f"{finding.message}  [{finding.type}]")
            lines.append(f"{shown}: {paint('error', 'red')}: {message}")
        for finding in report.warnings:
            message = printable(f"{finding.message}  [{finding.type}]")
            lines.append(f"{shown}: {paint('warning', 'yellow')}: {message}")
        if report.valid:
            path = printable(" -> ".join(report.critical_path))
            lines.append(
                f"{shown}: {paint('ok', 'green')}: {_count(report.module_count, 'module')} in "
                f"{_count(len(report.layers), 'layer')}; critical path "
                f"{report.critical_path_length}: {path}"
            )
    invalid = sum(not report.valid for _, report in reports)
    errors = sum(len(report.errors) for _, report in reports)
    warnings = sum(len(report.warnings) for _, report in reports)
    checked = f"{len(reports)} plan{'s' if len(reports) != 1 else ''} checked"
    if invalid:
        verdict = paint(f"{invalid} invalid", "red") + f" ({_count(errors, 'error')}"
        verdict += f", {_count(warnings, 'warning')})"
    else:
        verdict = paint("valid", "green") + f" ({_count(warnings, 'warning')})"
    lines.append(f"{checked}: {verdict}")
    return "\n".join(lines)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _relative(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def run_schema(args: argparse.Namespace) -> int:
    """Print the plan JSON Schema."""
    from forge.plan.model import plan_json_schema

    print_json(plan_json_schema())
    return 0


def run_matrix(args: argparse.Namespace) -> int:
    """Print the layers of a valid plan as matrices; its errors (exit 1) when it is invalid."""
    import json
    import sys

    from forge.config import disabled_plugins, load_config, project_root
    from forge.parallel.matrix import github_matrix, plain_matrix
    from forge.plan.check import check_plan
    from forge.plan.locate import read_plan
    from forge.plugin_host.host import build_plugin_host

    root = project_root()
    path = Path(args.plan).absolute()
    plugins = build_plugin_host(disabled_plugins(load_config(root)))
    report = check_plan(plan_path=str(path), plan=None, project_root=root, plugins=plugins)
    plan = read_plan(path) if report.valid else None
    if plan is None:
        print(render_reports([(args.plan, report)]), file=sys.stderr)
        return 1
    if args.format == "github":
        # One line: it goes into $GITHUB_OUTPUT as name=value.
        out(json.dumps(github_matrix(plan), separators=(",", ":"), ensure_ascii=False))
    else:
        print_json(plain_matrix(plan, args.plan))
    return 0
