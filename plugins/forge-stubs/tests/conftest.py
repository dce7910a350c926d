"""Fixtures for forge-stubs' tests: trees parsed with the official grammars, a throwaway project."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import Any

import pytest
import tree_sitter
import tree_sitter_javascript
import tree_sitter_python
import tree_sitter_typescript
from forge_stubs.detect import find_placeholders
from forge_stubs.models import StubFinding
from forge_stubs.options import StubOptions

#: forge's own test-run rules (a private folder, nothing left running): see tests/forge_suite.py.
pytest_plugins = ["forge_suite"]

#: forge language name and grammar for each extension the tests use.
GRAMMARS = {
    ".py": ("python", tree_sitter_python.language),
    ".js": ("javascript", tree_sitter_javascript.language),
    ".ts": ("typescript", tree_sitter_typescript.language_typescript),
    ".tsx": ("tsx", tree_sitter_typescript.language_tsx),
}

#: (line, function, kind) of one finding: what most assertions compare.
Found = tuple[int, "str | None", str]
Find = Callable[..., list[Found]]
Findings = Callable[..., list[StubFinding]]


def parse(source: str, filename: str) -> tuple[tree_sitter.Tree, bytes, str]:
    """``source`` (dedented) parsed with the grammar forge uses for ``filename``."""
    language, grammar = GRAMMARS[PurePath(filename).suffix]
    data = textwrap.dedent(source).lstrip("\n").encode("utf-8")
    tree = tree_sitter.Parser(tree_sitter.Language(grammar())).parse(data)
    return tree, data, language


@pytest.fixture
def findings() -> Findings:
    """``findings(source, filename, **options)``: the placeholders ``find_placeholders`` gives."""

    def run(source: str, filename: str, **options: Any) -> list[StubFinding]:
        tree, data, language = parse(source, filename)
        return find_placeholders(
            tree, data, language, PurePath(filename), StubOptions.model_validate(options)
        )

    return run


@pytest.fixture
def find(findings: Findings) -> Find:
    """``find(source, filename, **options)``: the (line, function, kind) of each placeholder."""

    def run(source: str, filename: str, **options: Any) -> list[Found]:
        return [(f.line, f.function, f.kind) for f in findings(source, filename, **options)]

    return run


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real forge state or plugin settings.

    forge-types, installed beside this plugin in the dev environment, is disabled:
    these tests are about stub_check's results alone.
    """
    monkeypatch.setenv("FORGE_HOME", str(tmp_path_factory.mktemp("forge-home")))
    monkeypatch.setenv("FORGE_DISABLE_PLUGINS", "types")
    for name in ("FORGE_CWD", "FORGE_TRACE_PLUGINS"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project directory."""
    root = tmp_path / "project"
    root.mkdir()
    return root


MakeFile = Callable[[str, str], Path]


@pytest.fixture
def make_file(project: Path) -> MakeFile:
    """``make_file(name, source)``: write ``source`` (dedented) into the project."""

    def make(name: str, source: str) -> Path:
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
        return path

    return make


RunForge = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_forge(project: Path) -> RunForge:
    """Run the ``forge`` installed next to this interpreter, in ``project``."""

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(Path(sys.executable).parent / "forge"), *args],
            cwd=project,
            env={**os.environ, "FORGE_CWD": str(project), **(env or {})},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    return run
