"""Talking to forge's MCP server from tests: in-process, or over stdio to the installed ``forge``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from forge_testing import forge_executable
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, TextContent
from serve_modes import DIRECT, serve_environment

from forge.tools.descriptions import TEXT_REPLIES
from forge.tools.mcp_server import create_server


@asynccontextmanager
async def connect(project: Path, *, run_id: str = "serve-test") -> AsyncIterator[Client]:
    """An in-process client connected to a fresh server for ``project``."""
    async with Client(create_server(project, run_id=run_id)) as client:
        yield client


@asynccontextmanager
async def served(project: Path, mode: str = DIRECT) -> AsyncIterator[Client]:
    """A real ``forge serve`` subprocess for ``project``, over stdio (``mode``: see below)."""
    async with Client(stdio_parameters(project, forge_executable(), "serve", mode=mode)) as client:
        yield client


def stdio_parameters(
    project: Path, command: str, *args: str, mode: str = DIRECT
) -> StdioServerParameters:
    """Launch the installed console script in ``project``, with the test's forge env.

    ``mode`` is the ``serve_mode`` fixture's (direct or daemon-served); by
    default the server runs in its own process and starts no daemon.
    """
    env = serve_environment(mode)
    return StdioServerParameters(command=command, args=list(args), env=env, cwd=str(project))


def text_of(result: CallToolResult) -> str:
    """The first text content of a result."""
    first = result.content[0]
    assert isinstance(first, TextContent)
    return first.text


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Call ``tool``; assert success and that the text matches the structured content.

    The text is the result as JSON, except for the memory tools, whose text is
    their reply sentence (``TEXT_REPLIES``: a field of the structured content).
    """
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    if tool in TEXT_REPLIES:
        assert text_of(result) == result.structured_content[TEXT_REPLIES[tool]]
    else:
        assert json.loads(text_of(result)) == result.structured_content
    return result.structured_content


async def call_error(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    """Call ``tool``; assert an error result of exactly one line and return it."""
    result = await client.call_tool(tool, arguments)
    message = text_of(result)
    assert result.is_error, message
    assert "\n" not in message and "Traceback" not in message, message
    return message
