"""``forge validate``: run a module's checks from the command line (CI, people, scripts)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from forge.cli.output import paint

EXAMPLES = """\
examples:
  forge validate --files src/app.py src/util.py --command "pytest -q"
  forge validate --cwd ../worktree-auth --module-id auth --run-id run-42 --json
  forge validate --files missing.py --command false     # exits 1: two failures

exit codes: 0 every check passed, 1 a check failed, 2 usage or configuration error
"""

#: Lines of a failing command's output tail shown in text mode.
SHOWN_OUTPUT_LINES = 12


def register(subparsers: Any) -> None:
    """Add ``forge validate`` to the parser."""
    parser = subparsers.add_parser(
        "validate",
        help="check that a module landed: files, syntax, contracts, verify commands",
        description="Validate one module: its files exist and parse, its commands pass.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--files",
        nargs="+",
        action="extend",
        default=[],
        metavar="FILE",
        help="files that must exist (relative to --cwd)",
    )
    parser.add_argument(
        "--command",
        dest="commands",
        action="append",
        default=[],
        metavar="CMD",
        help="a verify command, run with sh in --cwd (repeatable)",
    )
    parser.add_argument("--cwd", help="working dir of the module (default: the project root)")
    parser.add_argument(
        "--module-id", default="adhoc", help="module id for the attempt history (default: adhoc)"
    )
    parser.add_argument("--run-id", help="run id for the attempt history")
    parser.add_argument(
        "--timeout", type=float, help="per-command timeout in seconds (default 120)"
    )
    parser.add_argument("--max-attempts", type=int, help="attempts before ESCALATE (default 3)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Validate, print the report, exit 0 when passed and 1 when not."""
    from pydantic import ValidationError

    from forge.engine import Engine
    from forge.errors import UsageError, describe_validation_error
    from forge.models import ValidateRequest

    try:
        request = ValidateRequest(
            module_id=args.module_id,
            files=args.files,
            commands=args.commands,
            cwd=args.cwd,
            run_id=args.run_id,
            timeout=args.timeout,
            max_attempts=args.max_attempts,
        )
    except ValidationError as exc:
        raise UsageError(describe_validation_error(exc)) from None
    report = Engine.for_project().validate(request)
    if args.json:
        print(json.dumps(report.to_wire(), indent=2, ensure_ascii=False))
    else:
        print(render_report(report))
    return 0 if report.passed else 1


def render_report(report: Any) -> str:
    """The report as text: one line per check, details under failures, a summary line."""
    lines: list[str] = []
    width = max((len(result.type) for result in report.results), default=0)
    for result in report.results:
        mark = paint("PASS", "green") if result.passed else paint("FAIL", "red")
        lines.append(f"{mark} {result.type.ljust(width)}  {result.target}: {result.message}")
        if not result.passed:
            lines.extend(_details(result))
    passed = sum(result.passed for result in report.results)
    verdict = paint("PASSED", "green") if report.passed else paint("FAILED", "red")
    attempt = f", attempt {report.attempt}" if report.attempt else ""
    lines.append(
        f"{verdict}: {passed}/{len(report.results)} checks passed (score {report.score:.2f})"
        f"{attempt} -> {report.recommendation}"
    )
    lines.extend(f"note: {notice}" for notice in report.notices)
    return "\n".join(lines)


def _details(result: Any) -> list[str]:
    details: list[str] = []
    # path:line:col: message at the start of a line, the form editors and CI
    # annotators (problem matchers, errorformat) recognise; the source under it.
    for location in getattr(result, "locations", None) or []:
        details.append(f"{result.target}:{location.line}:{location.column}: {location.message}")
        if location.source_line.strip():
            pad = "".join(
                "\t" if char == "\t" else " "
                for char in location.source_line[: location.column - 1]
            )
            details.append(paint(f"    {location.source_line}", "dim"))
            details.append(f"    {pad}^")
    if getattr(result, "error_count", 0) > len(getattr(result, "locations", None) or []):
        details.append(f"    ... and {result.error_count - len(result.locations)} more")
    for stream in ("stderr", "stdout"):
        text = getattr(result, stream, "") or ""
        tail = text.rstrip("\n").splitlines()[-SHOWN_OUTPUT_LINES:]
        if tail:
            details.append(paint(f"    {stream}:", "dim"))
            details.extend(f"      {line}" for line in tail)
    return details
