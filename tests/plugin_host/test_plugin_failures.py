"""A plugin that cannot load or crashes is forge's environment problem, and says where.

The module escalates ("fix the environment"), never RETRY / "change approach"
on the worker, and the attempt counts toward no stagnation; the failure names
the plugin's file:line and the traceback's last frames (``--json``,
``FORGE_TRACE_PLUGINS=1``); a misspelt hook gets a did-you-mean; a wrong return
says what came back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from forge_testing import RunForge, fake_distribution

#: Raises two calls deep in its own module: the file:line is the innermost of its frames.
DEEP_RAISE = """
from forge import hookimpl
from forge.models import CheckDescriptor

def _total(values):
    return sum(values) / len(values)

def _measure(request):
    return _total([])

@hookimpl
def forge_checks():
    return [CheckDescriptor(id="deep_check", summary="Raises inside a helper.")]

@hookimpl
def forge_run_checks(request, workspace):
    return [_measure(request)]
"""

MISSPELT_HOOK = """
from forge import hookimpl

@hookimpl
def forge_run_check(request, workspace):
    return []
"""

WRONG_RETURN = """
from forge import hookimpl
from forge.models import CheckDescriptor

@hookimpl
def forge_checks():
    return [CheckDescriptor(id="dict_check", summary="Returns a dict.")]

@hookimpl
def forge_run_checks(request, workspace):
    return {"type": "dict_check", "target": "x", "passed": True}
"""

BROKEN_IMPORT = """
import os

SETTINGS = os.environ["FORGE_TEST_SETTING_NEVER_SET"]
"""


def site_with(tmp_path: Path, plugins: dict[str, str]) -> dict[str, str]:
    site = fake_distribution(tmp_path / "site", "forge-failing", "0.1", plugins)
    return {"PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}


def validate(run_forge: RunForge, env: dict[str, str], *extra: str) -> dict[str, Any]:
    done = run_forge("validate", "--files", "a.py", "--module", "m", *extra, "--json", env=env)
    assert done.returncode in (0, 1), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def plugin_errors(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["target"]: r for r in report["results"] if r["type"] == "plugin_error"}


def test_a_plugin_that_cannot_load_escalates_as_the_environments_problem(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    env = site_with(tmp_path, {"unloadable": BROKEN_IMPORT})
    reports = [validate(run_forge, env) for _ in range(3)]
    for number, report in enumerate(reports, start=1):
        assert report["attempt"] == number and report["passed"] is False
        assert report["recommendation"] == "ESCALATE", report["reason"]
        assert "fix the environment" in report["reason"]
        assert "change approach" not in report["reason"] and report["stagnant"] is False
        error = plugin_errors(report)["unloadable"]
        assert error["unjudged"] is True
        assert error["raisedAt"].endswith("fake_unloadable.py:4"), error
        assert any("FORGE_TEST_SETTING_NEVER_SET" in frame for frame in error["traceback"])
    # The environment fixed (the plugin's setting given): judged as a first attempt would be.
    report = validate(run_forge, {**env, "FORGE_TEST_SETTING_NEVER_SET": "1"})
    assert (report["recommendation"], report["passed"]) == ("PROCEED", True), report


def test_a_plugin_that_raises_names_its_file_line_and_last_frames(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    env = site_with(tmp_path, {"deep": DEEP_RAISE})
    report = validate(run_forge, env)
    assert report["recommendation"] == "ESCALATE" and "fix the environment" in report["reason"]
    error = plugin_errors(report)["deep"]
    assert error["unjudged"] is True
    assert "ZeroDivisionError" in error["message"]
    assert error["raisedAt"].endswith("fake_deep.py:6")
    assert "fake_deep.py:6" in error["message"]
    frames = error["traceback"]
    assert [frame.split(" in ")[1].split(":")[0] for frame in frames] == [
        "forge_run_checks",
        "_measure",
        "_total",
    ]
    traced = run_forge("validate", "--files", "a.py", env={**env, "FORGE_TRACE_PLUGINS": "1"})
    assert "[forge trace] forge_run_checks deep: raised ZeroDivisionError" in traced.stderr
    assert "fake_deep.py:6 in _total" in traced.stderr
    assert "return sum(values) / len(values)" in traced.stderr


def test_a_misspelt_hook_gets_a_did_you_mean(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    env = site_with(tmp_path, {"misspelt": MISSPELT_HOOK})
    listing = json.loads(run_forge("plugins", "--json", env=env).stdout)
    (info,) = [info for info in listing if info["name"] == "misspelt"]
    assert info["status"] == "failed"
    assert "forge_run_check" in info["error"]
    assert "did you mean 'forge_run_checks'?" in info["error"]


def test_a_wrong_return_says_what_came_back(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    report = validate(run_forge, site_with(tmp_path, {"dicty": WRONG_RETURN}))
    message = plugin_errors(report)["dicty"]["message"]
    assert "returned something other than a list of CheckResult" in message
    assert "got dict: {'type': 'dict_check', 'target': 'x', 'passed': True}" in message


def test_healthy_plugins_beside_them_still_proceed(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    """The honest twin: the same distribution machinery, a plugin that works, PROCEED."""
    good = DEEP_RAISE.replace("return [_measure(request)]", "return []")
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    report = validate(run_forge, site_with(tmp_path, {"deep": good}))
    assert (report["recommendation"], plugin_errors(report)) == ("PROCEED", {})
