"""Every size limit of the tools, hit through the real stdio server: one clear line, nothing written.

The limits keep one call from exhausting the server's memory or the disk:
the number of files, commands and contract pairs per validate call, the
length of a command, a memory pattern (1 KB), a session snapshot (1 MB), the
log and recall limits, the query length, and the size of a file forge will
parse. Each is hit just over the line, and the test checks the reply names
the limit, that nothing under ``.forge/`` records the refused call's payload,
and that the server answers the next call.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from forge_testing import forge_executable
from mcp import Client
from mcp_client import call, call_error, stdio_parameters

from forge.config import DEFAULT_MAX_PARSE_BYTES
from forge.memory import MAX_PATTERN_BYTES, MAX_QUERY_LENGTH, MAX_RECALL_LIMIT, MAX_TAGS
from forge.models import MAX_COMMAND_LENGTH, MAX_COMMANDS, MAX_CONTRACT_CHECKS, MAX_FILES
from forge.state.sessions import MAX_STATE_BYTES

pytestmark = pytest.mark.anyio

PAIR = {"exporter": "a.py", "importer": "b.py"}

OVER_THE_LIMIT: dict[str, tuple[str, dict[str, Any], str]] = {
    "files": ("validate", {"moduleId": "m", "files": ["a.py"] * (MAX_FILES + 1)}, "at most 2000"),
    "commands": (
        "validate",
        {"moduleId": "m", "commands": ["true"] * (MAX_COMMANDS + 1)},
        "at most 50",
    ),
    "contractChecks": (
        "validate",
        {"moduleId": "m", "contractChecks": [PAIR] * (MAX_CONTRACT_CHECKS + 1)},
        "at most 500",
    ),
    "command length": (
        "validate",
        {"moduleId": "m", "commands": ["x" * (MAX_COMMAND_LENGTH + 1)]},
        "at most 10000 characters",
    ),
    # 342 three-byte characters: under 1,024 characters, over 1,024 bytes.
    "pattern bytes": (
        "memory_save",
        {"pattern": "\u20ac" * 342, "category": "convention"},
        f"the limit is {MAX_PATTERN_BYTES} (1 KB)",
    ),
    "tags": (
        "memory_save",
        {"pattern": "p", "category": "convention", "tags": ["t"] * (MAX_TAGS + 1)},
        "at most 20",
    ),
    "session size": (
        "session_state",
        {"action": "save", "runId": "big", "state": {"blob": "x" * MAX_STATE_BYTES}},
        "the limit is 1048576 (1 MB)",
    ),
    "logs limit": ("forge_logs", {"limit": 1_001}, "less than or equal to 1000"),
    "recall limit": (
        "memory_recall",
        {"query": "x", "limit": MAX_RECALL_LIMIT + 1},
        "less than or equal to 200",
    ),
    "query length": (
        "memory_recall",
        {"query": "x" * (MAX_QUERY_LENGTH + 1)},
        "at most 2000 characters",
    ),
}


def forge_files(project: Path) -> dict[str, bytes]:
    """Every file under ``.forge/`` but the log and status (which every call updates)."""
    root = project / ".forge"
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in root.rglob("*")
        if path.is_file() and "logs" not in path.parts and not path.name.startswith("status.json")
    }


async def test_each_limit_gives_one_line_naming_it_and_writes_nothing(project: Path) -> None:
    params = stdio_parameters(project, forge_executable(), "serve")
    async with Client(params) as client:
        await call(client, "session_state", {"action": "list"})  # .forge/ now exists
        before = forge_files(project)
        for name, (tool, arguments, says) in OVER_THE_LIMIT.items():
            message = await call_error(client, tool, arguments)
            assert says in message, f"{name}: {message}"
            assert len(message) < 400, f"{name}: the reply echoes the payload"
            assert forge_files(project) == before, f"{name}: something was written"
        assert (await call(client, "session_state", {"action": "list"}))["sessions"] == []
    # The log records each refused call in a line of bounded size.
    for log in (project / ".forge/logs").glob("*.jsonl"):
        for line in log.read_bytes().splitlines():
            assert len(line) < 4_000 and json.loads(line)


async def test_just_under_each_size_limit_is_accepted(project: Path) -> None:
    params = stdio_parameters(project, forge_executable(), "serve")
    async with Client(params) as client:
        saved = await call(
            client, "memory_save", {"pattern": "\u20ac" * 341, "category": "convention"}
        )
        state = {"blob": "x" * (MAX_STATE_BYTES - 100)}
        stored = await call(
            client, "session_state", {"action": "save", "runId": "big", "state": state}
        )
        report = await call(
            client, "validate", {"moduleId": "m", "commands": ["true"] * MAX_COMMANDS}
        )
    assert saved["saved"] and stored["saved"] and report["passed"]
    assert [r["type"] for r in report["results"]] == ["command"] * MAX_COMMANDS


async def test_a_file_over_the_parse_limit_is_reported_not_parsed(project: Path) -> None:
    big = project / "big.py"
    with big.open("w", encoding="utf-8") as handle:
        line = "x = 1\n"
        handle.write(line * (DEFAULT_MAX_PARSE_BYTES // len(line) + 1))
    params = stdio_parameters(project, forge_executable(), "serve")
    async with Client(params) as client:
        report = await call(client, "validate", {"moduleId": "m", "files": ["big.py"]})
    (syntax,) = [r for r in report["results"] if r["type"] == "syntax_check"]
    # Too big to parse is not a syntax error, and not a pass either (issue 41): the check
    # could not judge the file, says why, and the module escalates for the environment.
    assert syntax["passed"] is False and syntax["unjudged"] is True, syntax
    assert report["passed"] is False and report["recommendation"] == "ESCALATE", report
    assert syntax["message"].startswith("not parsed: 5,242,884 bytes is over the 5,242,880-byte")
