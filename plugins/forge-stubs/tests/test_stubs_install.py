"""A real install: forge and forge-stubs pip-installed into a fresh virtual environment,
from a git URL as the README's Install section says.

The environment is built once per test run, whichever process of it asks first
(it takes a while: pip builds both wheels and fetches their dependencies from
the package index), and every assertion about the installed tools runs against it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import forge_stubs
import pytest
from forge_testing import built_once

PLUGIN_ROOT = Path(__file__).resolve().parents[1]
FORGE_ROOT = PLUGIN_ROOT.parents[1]

STUBBED = '''\
def greet(name):
    """Say hello."""


def farewell(name):
    raise NotImplementedError
'''

CLEAN = "def greet(name):\n    return f'hello {name}'\n"

pytestmark = pytest.mark.slow


#: What a git checkout of forge never holds: the snapshot below leaves it out.
NOT_CHECKED_IN = shutil.ignore_patterns(
    ".git", ".venv", ".ci-venv", "__pycache__", "*.egg-info", ".*_cache", ".hypothesis", "dist"
)


@pytest.fixture
def installed() -> Path:
    """The bin/ folder of a fresh venv with forge and forge-stubs installed as the README says.

    Made once per test run, whichever process of it asks first (``built_once``).
    """
    assert (FORGE_ROOT / "forge" / "__init__.py").is_file(), FORGE_ROOT
    return built_once("forge and forge-stubs from git URLs", _install) / "venv" / "bin"


def _install(base: Path) -> None:
    """The README's install lines into ``base``/venv.

    The README's lines that work today install from the git repository:
    ``pip install "forge-validate @ git+URL"`` and ``"forge-stubs @
    git+URL#subdirectory=plugins/forge-stubs"``. The same lines run here against
    a git repository holding this checkout's files as they are (uncommitted
    changes too), so the git form, the subfolder form and the packaging are
    what is tested.
    """
    repository = base / "forge"
    shutil.copytree(FORGE_ROOT, repository, ignore=NOT_CHECKED_IN)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repository)]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "snapshot"]):
        subprocess.run([*git, *step], check=True, capture_output=True)
    # file://localhost/...: the pip that venv bundles rejects an empty host (file:///).
    url = f"git+file://localhost{repository}"
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    bin_dir = env_dir / "bin"
    completed = subprocess.run(
        [
            str(bin_dir / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            f"forge-validate @ {url}",
            f"forge-stubs @ {url}#subdirectory=plugins/forge-stubs",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def run(bin_dir: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # A clean environment: nothing from the developer's venv may leak in.
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    return subprocess.run(
        [str(bin_dir / "forge"), *args],
        cwd=project,
        env={**env, "FORGE_CWD": str(project)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_install_is_not_the_development_one(installed: Path) -> None:
    completed = subprocess.run(
        [
            str(installed / "python"),
            "-c",
            "import forge, forge_stubs; print(forge.__file__); print(forge_stubs.__file__)",
        ],
        cwd=installed,  # not the checkout: ``python -c`` imports from its working dir
        capture_output=True,
        text=True,
        check=True,
    )
    for line in completed.stdout.splitlines():
        assert str(installed.parent) in line, line
    assert Path(sys.executable).parent != installed


def test_forge_plugins_lists_forge_stubs_with_its_version(installed: Path, project: Path) -> None:
    completed = run(installed, project, "plugins")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    [row] = [line.split() for line in completed.stdout.splitlines() if line.startswith("stubs ")]
    assert row[:6] == [
        "stubs",
        "forge-stubs",
        forge_stubs.__version__,
        "forge_checks,",
        "forge_run_checks",
        "loaded",
    ]


def test_forge_validate_fails_on_stubs_and_passes_clean_files(
    installed: Path, project: Path
) -> None:
    (project / "stubbed.py").write_text(STUBBED, encoding="utf-8")
    (project / "clean.py").write_text(CLEAN, encoding="utf-8")
    completed = run(installed, project, "validate", "--files", "stubbed.py", "clean.py", "--json")
    assert completed.returncode == 1, completed.stdout + completed.stderr
    results = {
        r["target"]: r for r in json.loads(completed.stdout)["results"] if r["type"] == "stub_check"
    }
    assert results["stubbed.py"]["passed"] is False
    assert [(f["line"], f["function"], f["kind"]) for f in results["stubbed.py"]["findings"]] == [
        (2, "greet", "docstring_only"),
        (6, "farewell", "not_implemented"),
    ]
    assert results["clean.py"]["passed"] is True
    clean_only = run(installed, project, "validate", "--files", "clean.py")
    assert clean_only.returncode == 0, clean_only.stdout
    assert "PASS stub_check    clean.py: no placeholders" in clean_only.stdout
