"""Contracts never cry wolf on real code: popular packages, downloaded at test time.

Each package's published sources are fetched into a temp dir (``npm pack``,
``pip download --no-binary :all: --no-deps``), never committed, and
``forge validate`` runs over every source file of it: automatic pairs,
missing files, modules and packages. Every contract failure found there was
read and fixed in forge; this keeps them at zero. Without the registries
(no network) the test skips.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path

import pytest
from forge_real_packages import DEFENDED, NPM_PACKAGES, PYPI_PACKAGES, SOURCES
from forge_testing import copy_of_published, forge_executable, published_sources_of

PACKAGES = [("npm", name) for name in NPM_PACKAGES] + [("pypi", name) for name in PYPI_PACKAGES]


@pytest.fixture(scope="module")
def downloaded() -> None:
    """Every package fetched side by side at first use, rather than one per test.

    A package that cannot be fetched skips its own test only (``copy_of_published``).
    """
    with contextlib.suppress(pytest.skip.Exception):
        published_sources_of(PACKAGES)


@pytest.mark.slow
@pytest.mark.usefixtures("downloaded")
@pytest.mark.parametrize(("ecosystem", "name"), PACKAGES)
def test_a_popular_package_has_no_contract_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ecosystem: str, name: str
) -> None:
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    root = copy_of_published(ecosystem, name, tmp_path / "source")
    files = sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and (path.suffix in SOURCES or path.name.endswith(".d.ts"))
    )
    assert files, f"{name} has no sources"
    completed = subprocess.run(
        [forge_executable(), "validate", "--json", "--cwd", str(root), "--files", *files],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode in (0, 1), completed.stderr
    results = json.loads(completed.stdout)["results"]
    contracts = [result for result in results if result["type"] == "contract_check"]
    assert contracts, f"{name}: no contract was checked"
    failures = [f"{r['target']}: {r['message']}" for r in contracts if not r["passed"]]
    assert failures == DEFENDED.get(name, [])
