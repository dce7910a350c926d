"""``forge memory``: recall, save and list what agents learned about the project."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, get_args

from forge.cli.output import table

if TYPE_CHECKING:
    from forge.memory import MemoryEntry
    from forge.tools.service import ToolService

EXAMPLES = """\
examples:
  forge memory recall "run the tests"                # best matches, project then global
  forge memory recall vitest --scope project --limit 3 --json
  forge memory save "Tests run with pnpm vitest --run" --category test_command --confidence 0.9
  forge memory save "Use ruff, not flake8" --category convention --scope global --tag python
  forge memory list --category failure_pattern

exit codes: 0 done (a duplicate is skipped, not an error; no match is not an
error), 2 usage error (unknown category, confidence outside 0..1, empty pattern)
"""


def register(subparsers: Any) -> None:
    """Add ``forge memory`` and its actions to the parser."""
    from forge.memory import DEFAULT_CONFIDENCE, DEFAULT_RECALL_LIMIT, Category

    categories = get_args(Category)
    parser = subparsers.add_parser(
        "memory",
        help="recall, save and list patterns agents learned (project and global memory)",
        description="Project memory is .forge/memory/project.jsonl; global memory, shared by "
        "every project, is $FORGE_HOME/memory/global.jsonl.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=lambda _args: _usage(parser))
    actions = parser.add_subparsers(dest="memory_command", metavar="ACTION")

    recall = actions.add_parser(
        "recall",
        help="the memories most relevant to a query (BM25)",
        description="Rank memories by relevance to QUERY; project first, by confidence.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    recall.add_argument("query", help="words to look for")
    recall.add_argument("--scope", choices=("project", "global", "all"), default="all")
    recall.add_argument("--limit", type=int, default=DEFAULT_RECALL_LIMIT)
    recall.add_argument("--category", choices=categories)
    recall.add_argument("--json", action="store_true", help="print the result as JSON")
    recall.set_defaults(run=run_recall)

    save = actions.add_parser(
        "save",
        help="remember a pattern (skipped when already there)",
        description="Save a pattern to project or global memory.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    save.add_argument("pattern", help="the learning, in one or more sentences (at most 1 KB)")
    save.add_argument("--category", required=True, choices=categories)
    save.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE, help="0..1")
    save.add_argument("--scope", choices=("project", "global"), default="project")
    save.add_argument("--tag", dest="tags", action="append", default=[], help="a tag (repeatable)")
    save.add_argument("--json", action="store_true", help="print the result as JSON")
    save.set_defaults(run=run_save)

    listing = actions.add_parser(
        "list",
        help="every memory, newest first",
        description="List memories, newest first.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    listing.add_argument("--scope", choices=("project", "global", "all"), default="all")
    listing.add_argument("--category", choices=categories)
    listing.add_argument("--json", action="store_true", help="print the entries as JSON")
    listing.set_defaults(run=run_list)


def _usage(parser: argparse.ArgumentParser) -> int:
    from forge.errors import UsageError

    raise UsageError("give an action: recall, save or list (forge memory --help)")


def _build_service() -> ToolService:
    """The project's service; events of these calls go to ``.forge/logs/cli.jsonl``."""
    from forge.cli.validate import CLI_RUN_ID
    from forge.tools.service import ToolService

    return ToolService.for_project(run_id=CLI_RUN_ID)


def run_recall(args: argparse.Namespace) -> int:
    """Print the best matches."""
    from forge.cli.output import build_request
    from forge.tools.requests import MemoryRecallRequest

    result = _build_service().memory_recall(build_request(MemoryRecallRequest, args))
    _warn(result.notices)
    print(json.dumps(result.to_wire(), indent=2, ensure_ascii=False) if args.json else result.text)
    return 0


def run_save(args: argparse.Namespace) -> int:
    """Save the pattern and print the one-line reply."""
    from forge.cli.output import build_request
    from forge.tools.requests import MemorySaveRequest

    result = _build_service().memory_save(build_request(MemorySaveRequest, args))
    _warn(result.notices)
    print(
        json.dumps(result.to_wire(), indent=2, ensure_ascii=False) if args.json else result.message
    )
    return 0


def _warn(notices: list[str]) -> None:
    for notice in notices:
        print(f"forge memory: warning: {notice}", file=sys.stderr)


def run_list(args: argparse.Namespace) -> int:
    """Print the entries of the scopes asked for, newest first."""
    from forge.config import project_root
    from forge.memory import read_memory
    from forge.store import ForgeDir, describe_bad_lines
    from forge.tools.service import global_memory_file

    files = {"project": ForgeDir(project_root()).project_memory, "global": global_memory_file()}
    scopes = ["project", "global"] if args.scope == "all" else [args.scope]
    rows: list[tuple[str, MemoryEntry]] = []
    for scope in scopes:
        stored = read_memory(files[scope])
        if stored.bad_lines:
            _warn([f"{files[scope]}: {describe_bad_lines(stored.bad_lines)} skipped"])
        rows.extend(
            (scope, entry)
            for entry in stored.entries
            if args.category is None or entry.category == args.category
        )
    rows.sort(key=lambda row: row[1].timestamp, reverse=True)
    if args.json:
        shown = [{**entry.to_wire(), "scope": scope} for scope, entry in rows]
        print(json.dumps({"memories": shown, "count": len(shown)}, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print("No memories yet: save one with forge memory save PATTERN --category CATEGORY")
        return 0
    print(
        table(
            ["SCOPE", "CATEGORY", "CONF", "SAVED", "PATTERN"],
            [
                [scope, e.category, f"{e.confidence:g}", e.timestamp[:10], _one_line(e.pattern)]
                for scope, e in rows
            ],
        )
    )
    return 0


def _one_line(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
