"""The baseline end to end: ``forge validate --base`` and MCP ``validate`` with ``baseRef``.

The fixture is the issue's: ``main`` holds an old TODO stub and a file with a
syntax error, branch ``work`` adds a module. Judged against ``main`` the
branch passes, showing the two old findings as pre-existing; when it then adds
a new stub and a new syntax error, it fails on exactly those.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from forge_testing import commit, forge_executable, git
from mcp import Client
from mcp_client import call, call_error, stdio_parameters

if TYPE_CHECKING:
    from forge_testing import RunForge

pytest.importorskip("forge_stubs")

FILES = ("legacy.py", "broken.py", "feature.py")
#: forge-stubs is what finds the old TODO: enabled for these tests.
WITH_STUBS = {"FORGE_DISABLE_PLUGINS": "types"}


@pytest.fixture
def branch(project: Path) -> Path:
    """``project`` as a repository: ``main`` with old debt, ``work`` adding a module."""
    git(project, "init", "-q")
    commit(
        project,
        {
            "legacy.py": "def old():\n    # TODO: implement\n    pass\n",
            "broken.py": "def broken(:\n    return 1\n",
            ".gitignore": ".forge/\n",
        },
        "old debt",
    )
    git(project, "checkout", "-q", "-b", "work")
    commit(project, {"feature.py": "def greet(name):\n    return f'hi {name}'\n"}, "feature")
    return project


def add_new_debt(project: Path) -> None:
    """Above the old findings, so every old one moves down a few lines."""
    (project / "legacy.py").write_text(
        "import os\n\n\ndef fresh():\n    raise NotImplementedError\n\n\n"
        "def old():\n    # TODO: implement\n    pass\n",
        encoding="utf-8",
    )
    (project / "feature.py").write_text(
        "def greet(name):\n    return f'hi {name}'\n\n\ndef farewell(name:\n    return name\n",
        encoding="utf-8",
    )


def verdict(report: dict[str, Any]) -> tuple[bool, list[tuple[str, str, bool]]]:
    """passed, and (type, target, preExisting) of each failing or pre-existing result."""
    shown = [
        (r["type"], r["target"], bool(r.get("preExisting")))
        for r in report["results"]
        if not r["passed"]
    ]
    return report["passed"], shown


OLD = [("syntax_check", "broken.py", True), ("stub_check", "legacy.py", True)]
NEW = [
    ("syntax_check", "broken.py", True),
    ("syntax_check", "feature.py", False),
    ("stub_check", "legacy.py", False),
]


def run_json(run_forge: RunForge, *args: str) -> dict[str, Any]:
    completed = run_forge("validate", "--files", *FILES, *args, "--json", env=WITH_STUBS)
    report: dict[str, Any] = json.loads(completed.stdout)
    assert completed.returncode == (0 if report["passed"] else 1), completed.stderr
    return report


def test_cli_base_main_passes_with_the_old_findings_then_fails_on_exactly_the_new(
    run_forge: RunForge, branch: Path
) -> None:
    report = run_json(run_forge, "--base", "main")
    assert verdict(report) == (True, OLD)
    assert report["score"] == 1.0
    assert report["baseCommit"] == git(branch, "rev-parse", "main")
    text = run_forge("validate", "--files", *FILES, "--base", "main", env=WITH_STUBS).stdout
    assert "OLD  syntax_check  broken.py" in text and "OLD  stub_check    legacy.py" in text
    assert text.count("(pre-existing)") == 2
    assert text.splitlines()[-1].startswith(
        # 8: special_case judges the one code file changed since main
        "PASSED: 8/8 checks passed (score 1.00), 2 pre-existing"
    )

    add_new_debt(branch)
    report = run_json(run_forge, "--base", "main")
    assert verdict(report) == (False, NEW)
    [stubs] = [r for r in report["results"] if r["type"] == "stub_check" and not r["passed"]]
    # The old placeholder moved down five lines and is still recognised; the new one is not.
    assert [(loc["line"], loc.get("preExisting", False)) for loc in stubs["locations"]] == [
        (5, False),
        (10, True),
    ]
    assert report["score"] == round(8 / 10, 4)  # special_case passes both changed files
    # The attempt history keeps only what is new.
    # An ad-hoc run's history is keyed by what it checks (adhoc-<hash>).
    [history] = (branch / ".forge").rglob("adhoc*.json")
    attempts = json.loads(history.read_text(encoding="utf-8"))["attempts"]
    assert sorted(attempts[-1]["failures"]) == ["stub_check:legacy.py", "syntax_check:feature.py"]


def test_cli_without_a_base_judges_every_file_whole(run_forge: RunForge, branch: Path) -> None:
    passed, shown = verdict(run_json(run_forge))
    assert (passed, shown) == (False, [(t, f, False) for t, f, _ in OLD])


def test_auto_and_the_project_default(run_forge: RunForge, branch: Path) -> None:
    assert verdict(run_json(run_forge, "--base", "auto")) == (True, OLD)
    (branch / "pyproject.toml").write_text('[tool.forge]\nbase-ref = "auto"\n', encoding="utf-8")
    assert verdict(run_json(run_forge)) == (True, OLD)
    # The flag wins over the default: HEAD has the same debt, main is where it came from.
    assert verdict(run_json(run_forge, "--base", "HEAD")) == (True, OLD)


def test_sarif_and_junit_mark_what_was_there(run_forge: RunForge, branch: Path) -> None:
    add_new_debt(branch)
    sarif = json.loads(
        run_forge(
            "validate", "--files", *FILES, "--base", "main", "--format", "sarif", env=WITH_STUBS
        ).stdout
    )
    states = sorted(
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["baselineState"],
        )
        for r in sarif["runs"][0]["results"]
    )
    assert states == [
        ("stub_check", 5, "new"),
        ("stub_check", 10, "unchanged"),
        ("syntax_check", 1, "unchanged"),
        ("syntax_check", 5, "new"),
    ]
    junit = run_forge(
        "validate", "--files", *FILES, "--base", "main", "--format", "junit", env=WITH_STUBS
    ).stdout
    assert 'failures="2"' in junit
    assert "pre-existing at the base revision: 1 syntax error" in junit


def test_bad_base_is_a_usage_error_and_no_git_changes_nothing(
    run_forge: RunForge, branch: Path, tmp_path: Path
) -> None:
    completed = run_forge("validate", "--files", *FILES, "--base", "nope", env=WITH_STUBS)
    assert completed.returncode == 2
    [line] = completed.stderr.strip().splitlines()
    assert "baseRef 'nope' is not a commit of the repository" in line
    assert not list((branch / ".forge").rglob("adhoc*.json"))
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.py").write_text("def f():\n    pass\n", encoding="utf-8")
    completed = run_forge(
        "validate",
        "--files",
        "a.py",
        "--base",
        "main",
        "--cwd",
        str(plain),
        "--json",
        env=WITH_STUBS,
    )
    report = json.loads(completed.stdout)
    assert completed.returncode == 1 and report["passed"] is False
    assert "baseCommit" not in report
    assert any("no base for 'main'" in notice for notice in report["notices"])


@pytest.mark.anyio
async def test_mcp_validate_gives_the_same_verdicts(
    branch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORGE_DISABLE_PLUGINS", "types")
    params = stdio_parameters(branch, forge_executable(), "serve")
    arguments = {"moduleId": "m", "files": list(FILES), "baseRef": "main"}
    async with Client(params) as client:
        assert verdict(await call(client, "validate", arguments)) == (True, OLD)
        add_new_debt(branch)
        assert verdict(await call(client, "validate", arguments)) == (False, NEW)
        message = await call_error(client, "validate", {**arguments, "baseRef": "nope"})
        assert "baseRef 'nope' is not a commit" in message


def test_working_dir_below_the_root_and_absolute_paths(run_forge: RunForge, branch: Path) -> None:
    (branch / "pkg").mkdir()
    commit(branch, {"pkg/mod.py": "def f():\n    pass\n"}, "pkg on main's side")
    git(branch, "branch", "-f", "main", "HEAD")
    (branch / "pkg" / "mod.py").write_text(
        "def f():\n    pass\n\n\ndef g():\n    pass\n", encoding="utf-8"
    )
    legacy = str(branch / "legacy.py")
    completed = run_forge(
        "validate",
        "--cwd",
        "pkg",
        "--files",
        "mod.py",
        legacy,
        "--base",
        "main",
        "--json",
        env=WITH_STUBS,
    )
    report = json.loads(completed.stdout)
    assert verdict(report) == (
        False,
        [("stub_check", "mod.py", False), ("stub_check", legacy, True)],
    )
    [mod] = [r for r in report["results"] if r["target"] == "mod.py" and not r["passed"]]
    assert [loc.get("preExisting", False) for loc in mod["locations"]] == [True, False]
