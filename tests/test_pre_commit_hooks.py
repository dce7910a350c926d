"""``.pre-commit-hooks.yaml``: the real pre-commit runs the hook from this repository.

``pre-commit try-repo`` clones this checkout (uncommitted changes included)
and pip-installs forge into a fresh hook environment, so this test needs
PyPI and takes a while; it is the only test that installs forge.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

GOOD = {
    "modules": [
        {
            "id": "parser",
            "title": "Parser",
            "objective": "Parse the config file.",
            "files": ["src/parser.py"],
            "verify": ["git diff --check"],
            "doneWhen": "Bad input gives a clear error.",
        }
    ]
}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.mark.slow
def test_the_hook_passes_valid_plans_and_fails_broken_ones(tmp_path: Path) -> None:
    if not (REPO / ".git").exists():
        pytest.skip("pre-commit try-repo needs this repository as a git checkout")
    project = tmp_path / "project"
    (project / ".forge" / "plans").mkdir(parents=True)
    _git(project, "init", "-q")
    (project / ".forge" / "plans" / "good.json").write_text(json.dumps(GOOD), encoding="utf-8")
    (project / "other.json").write_text("{not a plan", encoding="utf-8")  # not matched by the hook
    _git(project, "add", "-A")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "forge tests",
        "GIT_AUTHOR_EMAIL": "tests@example.invalid",
        "GIT_COMMITTER_NAME": "forge tests",
        "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    }
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "forge-plan-check"]

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*command, "--all-files"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )

    passed = run()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "forge plan check" in passed.stdout and "Passed" in passed.stdout

    broken = {"modules": [{**GOOD["modules"][0], "dependsOn": ["parser"]}]}
    (project / ".forge" / "plans" / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    _git(project, "add", "-A")
    failed = run()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Failed" in failed.stdout
    assert '.forge/plans/broken.json: error: module "parser" depends on itself' in failed.stdout
