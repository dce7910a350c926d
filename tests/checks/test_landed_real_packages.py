"""What lands, judged on real packages against themselves: no false alarm.

Each package (downloaded at test time, pinned, shared with the contract
check's real-package test) becomes a git repository; a branch touches every
source file (a comment or a blank line, nothing that changes what runs), so
every file is "changed since the base" and the importers of each are searched,
and every source file is listed, so ``load_check`` reads each. The packages
load and run: any ``load_check`` failure, or a contract failure beyond the
ones the contract test defends, is a false alarm of this issue's rules.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path

import pytest
from forge_real_packages import DEFENDED, SOURCES
from forge_testing import commit, copy_of_published, forge_executable, git, published_sources_of

#: A pure-Python sdist or two with packages and cycles guarded the usual ways, and npm
#: packages of both kinds ("type": "module", and CommonJS).
PACKAGES = [
    ("pypi", "requests==2.34.2"),
    ("pypi", "attrs==26.1.0"),
    ("pypi", "flask==3.1.3"),
    ("pypi", "toolz==1.2.0"),
    ("npm", "ky@2.1.0"),
    ("npm", "got@16.1.0"),
    ("npm", "express@5.3.0"),
]


@pytest.fixture(scope="module")
def downloaded() -> None:
    """Every package fetched side by side at first use; one that cannot be skips alone."""
    with contextlib.suppress(pytest.skip.Exception):
        published_sources_of(PACKAGES)


def touched(path: Path) -> None:
    """``path`` with one more line that changes nothing it does."""
    data = path.read_bytes()
    comment = b"#" if path.suffix in (".py", ".pyi") else b"//"
    ending = b"" if data.endswith(b"\n") or not data else b"\n"
    path.write_bytes(data + ending + comment + b" touched\n")


@pytest.mark.slow
@pytest.mark.usefixtures("downloaded")
@pytest.mark.parametrize(("ecosystem", "name"), PACKAGES)
def test_a_real_package_changed_harmlessly_has_no_new_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ecosystem: str, name: str
) -> None:
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    root = copy_of_published(ecosystem, name, tmp_path / "source")
    git(root, "init", "-q")
    commit(root, {".gitignore": ".forge/\nnode_modules/\n"}, "the release")
    git(root, "checkout", "-q", "-b", "work")
    files = sorted(
        path
        for path in root.rglob("*")
        if path.is_file() and ".git" not in path.relative_to(root).parts
        and (path.suffix in SOURCES or path.name.endswith(".d.ts"))
    )  # fmt: skip
    assert files, f"{name} has no sources"
    for path in files:
        touched(path)
    git(root, "commit", "-qam", "touched")
    listed = [path.relative_to(root).as_posix() for path in files]
    completed = subprocess.run(
        [forge_executable(), "validate", "--json", "--base", "main", "--files", *listed],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert completed.returncode in (0, 1), completed.stderr
    results = json.loads(completed.stdout)["results"]
    loads = [f"{r['target']}: {r['message']}" for r in results if r["type"] == "load_check"]
    assert loads == []
    contracts = [r for r in results if r["type"] == "contract_check"]
    failures = [f"{r['target']}: {r['message']}" for r in contracts if not r["passed"]]
    assert failures == DEFENDED.get(name, [])
    summaries = [r for r in contracts if r["target"] == "(importers)"]
    assert len(summaries) == 1, [r["target"] for r in results if r["type"] != "syntax_check"][:40]
    (summary,) = summaries
    assert summary["passed"] and not summary["message"].startswith("0 importers"), summary
