"""The Claude Code plugin and marketplace in this repository.

The structure is checked against forge itself (the commands it wires exist, the
events it hooks are the ones ``forge hook`` answers, versions agree). The slow
tests install the real Claude Code from the npm registry into a temporary
prefix and run ``claude plugin validate --strict`` on the marketplace and the
plugin, then ``claude plugin marketplace add`` and ``claude plugin install``
from a clone with a throwaway HOME; they skip when npm or the registry is not
reachable.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest
from forge_testing import npm_installed

import forge
from forge.hook import edit, events, shell
from forge.memory import Category

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
MARKETPLACE = REPO / ".claude-plugin" / "marketplace.json"
PLUGIN = REPO / "integrations" / "claude-code"


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def project_toml() -> dict[str, Any]:
    """The ``[project]`` table of forge's ``pyproject.toml``."""
    project: dict[str, Any] = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    return project


def frontmatter(path: Path) -> dict[str, str]:
    """The ``key: value`` lines between the leading ``---`` fences of a skill or agent."""
    text = path.read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n", text, re.DOTALL)
    assert match, f"{path} has no frontmatter"
    pairs = (line.split(":", 1) for line in match.group(1).splitlines() if ":" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def test_the_marketplace_names_the_plugin_folder_and_versions_agree() -> None:
    marketplace = load(MARKETPLACE)
    (entry,) = marketplace["plugins"]
    manifest = load(REPO / entry["source"] / ".claude-plugin" / "plugin.json")
    assert (REPO / entry["source"]).resolve() == PLUGIN
    assert entry["name"] == manifest["name"] == "forge"
    assert entry["version"] == manifest["version"] == forge.__version__


def test_the_mcp_server_and_the_hooks_run_forges_own_commands() -> None:
    scripts = project_toml()["scripts"]
    servers = load(PLUGIN / ".mcp.json")["mcpServers"]
    assert servers == {"forge": {"command": "forge-mcp", "args": []}}
    assert "forge-mcp" in scripts and "forge" in scripts
    hooks = load(PLUGIN / "hooks" / "hooks.json")["hooks"]
    assert set(hooks) == {
        "PreToolUse",
        "PostToolUse",
        events.SESSION_START,
        *events.STOP_EVENTS,
    }
    for groups in hooks.values():
        for group in groups:
            assert [handler["command"] for handler in group["hooks"]] == ["forge hook"]
    # Every tool that writes is judged: the file tools by name, Bash by what it changed,
    # against the working tree's state kept before it ran.
    (edits,) = hooks["PostToolUse"]
    assert set(edits["matcher"].split("|")) == {*edit.FILE_TOOLS, "Bash"}
    assert "Bash" in shell.SHELL_TOOLS
    (before,) = hooks["PreToolUse"]
    assert before["matcher"] == "Bash"


def test_the_skills_and_agents_describe_themselves_and_name_real_tools() -> None:
    from forge.tools.mcp_server import TOOL_NAMES

    skills = {path.parent.name: path for path in PLUGIN.glob("skills/*/SKILL.md")}
    agents = {path.stem: path for path in PLUGIN.glob("agents/*.md")}
    assert set(skills) == {"forge", "forge-status"}
    assert set(agents) == {"forge-worker", "forge-reviewer"}
    for name, path in {**skills, **agents}.items():
        fields = frontmatter(path)
        assert fields["name"] == name
        assert len(fields["description"]) > 40
    orchestrator = skills["forge"].read_text(encoding="utf-8")
    for tool in ("validate_plan", "validate", "memory_save", "session_state"):
        assert tool in TOOL_NAMES
        assert f"`{tool}`" in orchestrator
    # Every snake_case name it quotes is forge's: a tool, a memory category, a plan finding,
    # a plan field, a check's id.
    from forge.plan.model import PlanModule

    fields = {info.alias or name for name, info in PlanModule.model_fields.items()}
    known = {*TOOL_NAMES, *get_args(Category), *project_toml()["entry-points"]["forge"], *fields}
    assert "`merge_check`" in orchestrator and "`lane_check`" in orchestrator
    mentioned = set(re.findall(r"`([a-z]+_[a-z_]+)`", orchestrator))
    assert mentioned <= known, mentioned - known


# --- the real Claude Code ----------------------------------------------------------


@pytest.fixture
def claude() -> list[str]:
    """The ``claude`` CLI from the npm registry, installed once per run."""
    binary = npm_installed("@anthropic-ai/claude-code", scripts=True) / "node_modules" / ".bin"
    if not (binary / "claude").exists():
        pytest.skip("npm installed @anthropic-ai/claude-code without its claude command")
    return [str(binary / "claude")]


def run_claude(claude: list[str], *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        # A validation run has nothing to report home.
        "DISABLE_TELEMETRY": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    return subprocess.run(
        [*claude, *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.slow
@pytest.mark.parametrize("path", [REPO, PLUGIN], ids=["marketplace", "plugin"])
def test_claude_validates_strictly(claude: list[str], path: Path, tmp_path: Path) -> None:
    completed = run_claude(claude, "plugin", "validate", "--strict", str(path), home=tmp_path)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "Validation passed" in completed.stdout


@pytest.mark.slow
def test_claude_validates_what_it_would_reject(claude: list[str], tmp_path: Path) -> None:
    """The validator reads the hooks: a misspelt event fails, so the test above can fail."""
    broken = tmp_path / "plugin"
    shutil.copytree(PLUGIN, broken)
    hooks = broken / "hooks" / "hooks.json"
    hooks.write_text(hooks.read_text(encoding="utf-8").replace('"Stop"', '"Stopp"'), "utf-8")
    completed = run_claude(claude, "plugin", "validate", "--strict", str(broken), home=tmp_path)
    assert completed.returncode == 1
    assert "Stopp" in completed.stdout + completed.stderr


@pytest.mark.slow
def test_a_clone_installs_as_a_marketplace(claude: list[str], tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(REPO / ".claude-plugin", source / ".claude-plugin")
    shutil.copytree(PLUGIN, source / "integrations" / "claude-code")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=source, check=True)
    subprocess.run([*git, "add", "-A"], cwd=source, check=True)
    subprocess.run([*git, "commit", "-qm", "plugin"], cwd=source, check=True)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(source), str(clone)], check=True)
    home = tmp_path / "home"
    home.mkdir()

    added = run_claude(claude, "plugin", "marketplace", "add", str(clone), home=home)
    assert added.returncode == 0, added.stdout + added.stderr
    installed = run_claude(claude, "plugin", "install", "forge@forge", home=home)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    listed = run_claude(claude, "plugin", "list", home=home)
    assert "forge@forge" in listed.stdout and "enabled" in listed.stdout
    details = run_claude(claude, "plugin", "details", "forge@forge", home=home)
    assert details.returncode == 0, details.stdout + details.stderr
    inventory = " ".join(details.stdout.split())
    assert "Skills (2) forge, forge-status" in inventory
    assert "Agents (2) forge-worker, forge-reviewer" in inventory
    assert "Hooks (5) SessionStart, PreToolUse, PostToolUse, SubagentStop, Stop" in inventory
    assert "MCP servers (1) forge" in inventory
