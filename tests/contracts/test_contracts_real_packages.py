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
from forge_testing import copy_of_published, forge_executable, published_sources_of

#: Pinned (the releases of the day they were last read), so that a new release cannot
#: fail a run nobody changed; most are the releases forge-stubs' real-code test reads,
#: downloaded once for both.
NPM_PACKAGES = [
    *("express@5.3.0", "got@16.1.0", "zod@4.6.7", "ky@2.1.0", "axios@1.21.1", "yargs@18.2.0"),
    *("lodash-es@4.18.1", "@trpc/server@11.25.2"),
    # immer: a tree-sitter gap in a file of an export * chain (contracts.md)
    "immer@11.2.10",
]
PYPI_PACKAGES = [
    *("click==8.5.1", "httpx==0.28.1", "requests==2.34.2", "attrs==26.1.0", "jinja2==3.1.6"),
    *("starlette==1.10.0", "pluggy==1.7.0", "packaging==26.4"),
    "flask==3.1.3",
    # Names a function declares global (pyyaml's legacy tests), a Cython module built from
    # another source root (yaml/_yaml.pyx into lib/yaml); toolz's tlz filled through
    # sys.modules and served by an import hook, toolz.__test__ set by the test that reads it.
    "pyyaml==6.0.4",
    "toolz==1.2.0",
]

#: Contract failures that are right, by package: the code really is broken there.
DEFENDED = {
    # A test fixture of flask's that still imports flask.Module, removed in Flask 1.0;
    # the tests only use its folder as a path, never import it.
    "flask==3.1.3": [
        "src/flask/__init__.py -> tests/test_apps/subdomaintestmodule/__init__.py: "
        "1 name imported from src/flask/__init__.py is not exported: Module"
    ],
}
SOURCES = {".py", ".pyi", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx"}


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
