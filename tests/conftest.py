"""Shared fixtures: a throwaway project, and the installed ``forge`` run as a subprocess."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from forge_testing import RunForge, forge_executable
from serve_modes import MODES, serving

from forge.plan.check import PlanReport, check_plan
from forge.plugin_host.host import PluginHost, build_plugin_host

#: The run's own rules (a private folder, nothing left running), plugins' suites included.
pytest_plugins = ["forge_suite"]


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real forge state or plugin settings.

    forge-stubs and forge-types are installed next to forge in the dev
    environment; core tests expect forge's own results only, so they are
    disabled here the way a user would disable them (their own suites, under
    plugins/, have their own conftest).
    """
    monkeypatch.setenv("FORGE_HOME", str(tmp_path_factory.mktemp("forge-home")))
    monkeypatch.setenv("FORGE_DISABLE_PLUGINS", "stubs,types")
    for name in ("FORGE_CWD", "FORGE_TRACE_PLUGINS", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory that is both FORGE_CWD and the working dir."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.setenv("FORGE_CWD", str(root))
    monkeypatch.chdir(root)
    return root


@pytest.fixture(params=MODES)
def serve_mode(
    request: pytest.FixtureRequest, project: Path, no_daemon_left: None
) -> Iterator[str]:
    """How the test's ``forge serve`` runs: directly, or handed to a running daemon.

    A test taking it runs once per way of serving (:mod:`serve_modes`); it
    starts ``forge serve`` with ``serve_environment(serve_mode)``.
    """
    with serving(request.param, project) as mode:
        yield mode


@pytest.fixture
def run_forge(project: Path) -> RunForge:
    """Run the installed ``forge`` in the project; returns the completed process."""

    def run(
        *args: str,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 120,
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [forge_executable(), *args],
            cwd=cwd or project,
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    return run


@pytest.fixture
def anyio_backend() -> str:
    """Async tests (``@pytest.mark.anyio``) run on asyncio, the loop the MCP SDK is used with."""
    return "asyncio"


# --- plans ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def plan_plugins() -> PluginHost:
    """Every installed plugin, built-in plan rules included (rules keep no state)."""
    return build_plugin_host()


def _plan_module(module_id: str, **fields: object) -> dict[str, object]:
    module: dict[str, object] = {
        "id": module_id,
        "title": f"Module {module_id}",
        "objective": f"Build {module_id}.",
        "files": [f"src/{module_id}.py"],
        "verify": [f"test -f src/{module_id}.py"],
        "doneWhen": "It works.",
    }
    module.update(fields)
    return module


MakeModule = Callable[..., dict[str, object]]


@pytest.fixture
def make_module() -> MakeModule:
    """``make_module("api", dependsOn=["db"])``: a valid plan module as JSON data.

    Its verify command is ``test -f src/<id>.py`` (a builtin: nothing to look up on
    PATH, and a check that can fail, so ``unbacked_done_when`` stays quiet);
    keyword arguments (camelCase) replace or add keys.
    """
    return _plan_module


CheckInline = Callable[..., PlanReport]


@pytest.fixture
def check_inline(plan_plugins: PluginHost, tmp_path: Path) -> CheckInline:
    """Check an inline plan (or a list of modules) with every rule; the root is ``tmp_path``."""

    def check(plan: object, root: Path | None = None) -> PlanReport:
        if isinstance(plan, list):
            plan = {"modules": plan}
        return check_plan(
            plan_path=None, plan=plan, project_root=root or tmp_path, plugins=plan_plugins
        )

    return check
