"""CONTRIBUTING.md's smallest plugin, as written there: it builds, installs and runs (issue 27).

The files are taken from the guide's code blocks (each opens with a comment
naming its path), built into a wheel with the build backend the guide names,
installed into a folder of their own, and found by the installed ``forge``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from forge_testing import RunForge

REPO = Path(__file__).resolve().parent.parent
#: A fenced block whose first line is a comment naming a file: ``# my_checks/x.py``.
BLOCK = re.compile(r"```(?:python|toml)\n# (?P<path>[\w./-]+)[^\n]*\n(?P<body>.*?)```", re.DOTALL)


def example_files() -> dict[str, str]:
    """The files of CONTRIBUTING.md's "The smallest plugin", by path."""
    guide = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = guide.split("## The smallest plugin", 1)[1].split("\n## ", 1)[0]
    return {match["path"]: match["body"] for match in BLOCK.finditer(section)}


def test_the_smallest_plugin_builds_installs_and_runs(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    files = example_files()
    assert {"pyproject.toml", "my_checks/__init__.py", "my_checks/license_header.py"} <= set(files)
    source = tmp_path / "license-header"
    for name, body in files.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(body, encoding="utf-8")
    # The backend the guide's pyproject.toml names (hatchling, in the dev extra): no network.
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
         str(wheel)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    env = {"PYTHONPATH": str(site)}

    listed = run_forge("plugins", "--json", env=env)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    plugin = {info["name"]: info for info in json.loads(listed.stdout)}["license_header"]
    assert plugin["status"] == "loaded", plugin
    assert plugin["hooks"] == ["forge_checks", "forge_run_checks"]
    assert plugin["declares"] == ["license_header"]
    table = run_forge("plugins", env=env).stdout
    assert re.search(r"^license_header\s.*forge_checks, forge_run_checks\s+loaded$", table, re.M)

    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    (project / "b.py").write_text("# SPDX-License-Identifier: MIT\nx = 1\n", encoding="utf-8")
    done = run_forge("validate", "--files", "a.py", "b.py", "--json", env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    results = {
        r["target"]: r for r in json.loads(done.stdout)["results"] if r["type"] == "license_header"
    }
    assert (results["a.py"]["passed"], results["b.py"]["passed"]) == (False, True)
    assert results["a.py"]["plugin"] == "license_header"
