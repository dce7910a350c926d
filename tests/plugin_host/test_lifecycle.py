"""A plugin's long-lived resources: forge_engine_started/stopped, and forge_tools in forge plugins.

The MCP server tells its plugins when it starts and stops serving a project; one-shot
commands never do. A plugin that raises there is logged, and the server still serves.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from forge_testing import RunForge, forge_executable
from mcp import Client
from mcp_client import call, stdio_parameters

WARMER = """\
import os
from pathlib import Path

from forge import hookimpl
from forge.models import ExternalTool


def _note(line):
    with open(Path(os.environ["MARKERS"]) / "log", "a", encoding="utf-8") as log:
        log.write(line + "\\n")


@hookimpl
def forge_engine_started(project_root):
    _note(f"started {project_root}")


@hookimpl
def forge_engine_stopped(project_root):
    _note(f"stopped {project_root}")


@hookimpl
def forge_tools(project_root):
    return [ExternalTool(language="python", name="warmcheck", version="2.0", found=True,
                         note="pinned"),
            ExternalTool(language="typescript", name="tsc", found=False,
                         note="npm install --save-dev typescript")]
"""
RAISER = """\
from forge import hookimpl


@hookimpl
def forge_engine_started(project_root):
    raise RuntimeError("no warm-up today")
"""


def _site(tmp_path: Path) -> tuple[dict[str, str], Path]:
    site, markers = tmp_path / "site", tmp_path / "markers"
    site.mkdir()
    markers.mkdir()
    (site / "warmer.py").write_text(WARMER, encoding="utf-8")
    (site / "raiser.py").write_text(RAISER, encoding="utf-8")
    dist_info = site / "forge_warmer-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: forge-warmer\nVersion: 1.0\n")
    (dist_info / "entry_points.txt").write_text(
        "[forge]\nwarmer = warmer\nraiser = raiser\n", encoding="utf-8"
    )
    env = {"PYTHONPATH": str(site), "MARKERS": str(markers), "PYTHONDONTWRITEBYTECODE": "1"}
    return env, markers / "log"


def _log(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_the_mcp_server_tells_plugins_when_it_starts_and_stops_serving(
    tmp_path: Path, project: Path, monkeypatch: object
) -> None:
    env, log = _site(tmp_path)
    for name, value in env.items():
        monkeypatch.setenv(name, value)  # type: ignore[attr-defined]
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")

    async def session() -> None:
        params = stdio_parameters(project, forge_executable(), "serve")
        params.env = {**(params.env or {}), **env}
        async with Client(params) as client:
            assert _log(log) == [f"started {project}"]
            report = await call(client, "validate", {"moduleId": "m", "files": ["a.py"]})
            assert report["passed"] is True  # the raising plugin cost nothing

    anyio.run(session)
    assert _log(log) == [f"started {project}", f"stopped {project}"]


def test_one_shot_commands_never_start_anything(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    env, log = _site(tmp_path)
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    assert run_forge("validate", "--files", "a.py", env=env).returncode == 0
    assert _log(log) == []


def test_forge_plugins_shows_the_tools_each_plugin_runs(
    run_forge: RunForge, tmp_path: Path
) -> None:
    env, _ = _site(tmp_path)
    done = run_forge("plugins", env=env)
    assert "tools:\n  python: warmcheck 2.0 (warmer: pinned)\n" in done.stdout
    assert "  typescript: not found (warmer: npm install --save-dev typescript)" in done.stdout
    listed = json.loads(run_forge("plugins", "--json", env=env).stdout)
    (warmer,) = [info for info in listed if info["name"] == "warmer"]
    assert warmer["tools"][0] == {
        "language": "python", "name": "warmcheck", "version": "2.0", "found": True, "note": "pinned"
    }  # fmt: skip
