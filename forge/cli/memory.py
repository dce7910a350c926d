"""``forge memory``: recall, save and list what agents learned about the project."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, get_args

from forge.cli.subcommand import (
    add_actions,
    add_command,
    add_json_flag,
    add_list_flag,
    emit,
    out,
    print_json,
    warn,
)
from forge.reporting.terminal import table

if TYPE_CHECKING:
    from forge.memory import MemoryEntry
    from forge.service.tools import ToolService

USAGE = """\
recall, save and list patterns agents learned (project and global memory)

Project memory is .forge/memory/project.jsonl; global memory, shared by every project,
is $FORGE_HOME/memory/global.jsonl.

examples:
  forge memory recall "run the tests"                # best matches, project then global
  forge memory recall vitest --scope project --limit 3 --json
  forge memory save "Tests run with pnpm vitest --run" --category test_command --confidence 0.9
  forge memory save "Use ruff, not flake8" --category convention --scope global --tag python
  forge memory list --category failure_pattern

exit codes: 0 done (a duplicate is skipped, not an error; no match is not an
error), 2 usage error (unknown category, confidence outside 0..1, empty pattern)
"""

RECALL_USAGE = """\
the memories most relevant to a query (BM25)

Rank memories by relevance to QUERY; project first, by confidence.
"""
SAVE_USAGE = """\
remember a pattern (skipped when already there)

Save a pattern to project or global memory.
"""


def register(subparsers: Any) -> None:
    """Add ``forge memory`` and its actions to the parser."""
    from forge.memory import DEFAULT_CONFIDENCE, DEFAULT_RECALL_LIMIT, Category

    categories = get_args(Category)
    actions = add_actions(add_command(subparsers, "memory", USAGE))
    recall = actions.add("recall", RECALL_USAGE, run=run_recall)
    recall.add_argument("query", help="words to look for")
    recall.add_argument("--limit", type=int, default=DEFAULT_RECALL_LIMIT)
    _add_filters(recall, categories)
    add_json_flag(recall)

    save = actions.add("save", SAVE_USAGE, run=run_save)
    save.add_argument("pattern", help="the learning, in one or more sentences (at most 1 KB)")
    save.add_argument("--category", required=True, choices=categories)
    save.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE, help="0..1")
    save.add_argument("--scope", choices=("project", "global"), default="project")
    add_list_flag(save, "--tag", dest="tags", metavar="TAG", help="a tag (repeatable)")
    add_json_flag(save)

    listing = actions.add("list", "every memory, newest first", run=run_list)
    _add_filters(listing, categories)
    add_json_flag(listing, "the entries")


def _add_filters(parser: argparse.ArgumentParser, categories: tuple[str, ...]) -> None:
    """``--scope`` and ``--category``, which recall and list share."""
    parser.add_argument("--scope", choices=("project", "global", "all"), default="all")
    parser.add_argument("--category", choices=categories)


def _build_service() -> ToolService:
    """The project's service; events of these calls go to ``.forge/logs/cli.jsonl``."""
    from forge.cli.validate import CLI_RUN_ID
    from forge.service.tools import ToolService

    return ToolService.for_project(run_id=CLI_RUN_ID)


def run_recall(args: argparse.Namespace) -> int:
    """Print the best matches."""
    from forge.cli.output import build_request
    from forge.service.arguments import MemoryRecallRequest

    request = build_request(MemoryRecallRequest, args, flags={"query": "QUERY"})
    result = _build_service().memory_recall(request)
    warn("memory", result.notices)
    emit(args, result, result.text)
    return 0


def run_save(args: argparse.Namespace) -> int:
    """Save the pattern and print the one-line reply."""
    from forge.cli.output import build_request
    from forge.service.arguments import MemorySaveRequest

    request = build_request(MemorySaveRequest, args, flags={"pattern": "PATTERN", "tags": "--tag"})
    result = _build_service().memory_save(request)
    warn("memory", result.notices)
    emit(args, result, result.message)
    return 0


def run_list(args: argparse.Namespace) -> int:
    """Print the entries of the scopes asked for, newest first."""
    from forge.config import project_root
    from forge.memory import read_memory
    from forge.store.forge_dir import ForgeDir
    from forge.store.home import global_memory_file
    from forge.store.jsonl import describe_bad_lines

    files = {"project": ForgeDir(project_root()).project_memory, "global": global_memory_file()}
    scopes = ["project", "global"] if args.scope == "all" else [args.scope]
    rows: list[tuple[str, MemoryEntry]] = []
    for scope in scopes:
        stored = read_memory(files[scope])
        if stored.bad_lines:
            warn("memory", [f"{files[scope]}: {describe_bad_lines(stored.bad_lines)} skipped"])
        rows.extend(
            (scope, entry)
            for entry in stored.entries
            if args.category is None or entry.category == args.category
        )
    rows.sort(key=lambda row: row[1].timestamp, reverse=True)
    if args.json:
        shown = [{**entry.to_wire(), "scope": scope} for scope, entry in rows]
        print_json({"memories": shown, "count": len(shown)})
        return 0
    if not rows:
        out("No memories yet: save one with forge memory save PATTERN --category CATEGORY")
        return 0
    out(
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
