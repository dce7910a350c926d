"""The tool reference in docs/ is generated from the live schemas and must not drift."""

from __future__ import annotations

from pathlib import Path

from forge.tools.mcp_server import TOOL_NAMES
from forge.tools.reference import reference_markdown

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"


def test_tool_reference_matches_the_server() -> None:
    committed = (DOCS / "mcp-tools.md").read_text(encoding="utf-8")
    assert committed == reference_markdown(), (
        "docs/mcp-tools.md is out of date: run python -m forge.tools.reference > docs/mcp-tools.md"
    )


def test_readme_client_guide_names_every_tool_and_setting() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    guide = readme.split("## Use with Claude Code and other MCP clients", 1)[1]
    for needle in (*TOOL_NAMES, "claude mcp add forge -- forge-mcp", ".mcp.json", "uvx", "pipx"):
        assert needle in guide, needle
    for variable in ("FORGE_CWD", "FORGE_HOME", "FORGE_DISABLE_PLUGINS", "FORGE_LOG_LEVEL"):
        assert variable in guide, variable
