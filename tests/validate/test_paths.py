"""Every check's locations are project-relative, whatever ``--cwd`` is (a git worktree given
as ``../wt-cart`` included), in text, JSON and SARIF (``uriBaseId``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from forge_testing import RunForge, commit, fake_distribution, git

#: A third-party check naming places by absolute path: one in the working dir, one outside.
ABSOLUTE_PLACES = """
from pathlib import Path

from forge import hookimpl
from forge.models import CheckDescriptor, CheckResult, Location

@hookimpl
def forge_checks():
    return [CheckDescriptor(id="absolute_check", summary="Names places by absolute path.")]

@hookimpl
def forge_run_checks(request, workspace):
    inside = workspace.cwd / "shop" / "cart.py"
    return [CheckResult(type="absolute_check", target="places", passed=False, message="m",
                        locations=[Location(path=str(inside), line=1, column=1, message="in"),
                                   Location(path="/etc/hostname", line=1, column=1,
                                            message="out")])]
"""


@pytest.fixture
def worktree(project: Path) -> Path:
    """The project as a git repository, and a worker's worktree ``../wt-cart`` whose
    ``shop/cart.py`` has a type error and ``shop/broken.py`` a syntax error."""
    git(project, "init", "-q")
    commit(
        project,
        {"shop/cart.py": "def total(items: list[int]) -> int:\n    return sum(items)\n"},
        "init",
    )
    tree = project.parent / "wt-cart"
    git(project, "worktree", "add", "-q", str(tree), "-b", "cart")
    (tree / "shop" / "cart.py").write_text(
        "def total(items: list[int]) -> int:\n    return sum(items).nope\n", encoding="utf-8"
    )
    (tree / "shop" / "broken.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    return tree


def report_of(run_forge: RunForge, *args: str, env: dict[str, str]) -> dict[str, Any]:
    done = run_forge("validate", "--cwd", "../wt-cart", *args, "--json", env=env)
    assert done.returncode == 1, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_type_check_names_worktree_files_project_relative(
    run_forge: RunForge, worktree: Path
) -> None:
    env = {"FORGE_DISABLE_PLUGINS": "stubs"}  # forge-types on
    report = report_of(run_forge, "--files", "shop/cart.py", "shop/broken.py", env=env)
    by_type = {result["type"]: result for result in report["results"]}
    assert by_type["type_check"]["passed"] is False, by_type["type_check"]
    places = {place["path"] for place in by_type["type_check"]["locations"]}
    assert "shop/cart.py" in places and places <= {"shop/cart.py", "shop/broken.py"}
    assert str(worktree) not in by_type["type_check"]["message"]
    assert "first at shop/cart.py:2" in by_type["type_check"]["message"]
    text = run_forge("validate", "--cwd", "../wt-cart", "--files", "shop/cart.py", env=env)
    assert str(worktree) not in text.stdout and "shop/cart.py:2:" in text.stdout


def test_a_plugins_absolute_places_in_the_working_dir_are_made_relative(
    run_forge: RunForge, worktree: Path, tmp_path: Path
) -> None:
    """forge, not each plugin, makes the places relative; one outside the working dir (the
    honest twin) keeps its absolute path."""
    site = fake_distribution(
        tmp_path / "site", "forge-absolute", "1.0", {"absolute": ABSOLUTE_PLACES}
    )
    env = {"PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    report = report_of(run_forge, "--files", "shop/broken.py", env=env)
    places = {
        result["type"]: [place.get("path") for place in result["locations"]]
        for result in report["results"]
    }
    assert places["absolute_check"] == ["shop/cart.py", "/etc/hostname"]
    assert places["syntax_check"] == [None]  # the result's own target


def test_sarif_from_a_worktree_names_files_by_uri_base_id(
    run_forge: RunForge, worktree: Path, tmp_path: Path
) -> None:
    site = fake_distribution(
        tmp_path / "site", "forge-absolute", "1.0", {"absolute": ABSOLUTE_PLACES}
    )
    env = {"PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    done = run_forge(
        "validate", "--cwd", "../wt-cart", "--files", "shop/broken.py", "--format", "sarif", env=env
    )
    assert done.returncode == 1, done.stderr
    (run,) = json.loads(done.stdout)["runs"]
    assert "PROJECTROOT" in run["originalUriBaseIds"]
    artifacts = [
        location["physicalLocation"]["artifactLocation"]
        for result in run["results"]
        for location in result["locations"]
    ]
    inside = [a for a in artifacts if not a["uri"].startswith("file:")]
    assert {(a["uri"], a.get("uriBaseId")) for a in inside} == {
        ("shop/broken.py", "PROJECTROOT"),
        ("shop/cart.py", "PROJECTROOT"),
    }
    assert [a["uri"] for a in artifacts if a["uri"].startswith("file:")] == ["file:///etc/hostname"]
