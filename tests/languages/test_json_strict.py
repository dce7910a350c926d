"""JSON as its reader reads it (issue 40, item 8): strict JSON everywhere, comments and
trailing commas only where the reader takes JSONC (tsconfig, jsconfig, .vscode, .jsonc,
``[tool.forge] jsonc-files``); ``package.json`` always strict. Through the installed CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_testing import RunForge

WITH_COMMENT = '{\n  // the port the app listens on\n  "port": 8080\n}\n'
WITH_TRAILING_COMMA = '{\n  "compilerOptions": {\n    "strict": true,\n  },\n}\n'
STRICT = '{\n  "port": 8080\n}\n'


def syntax(run_forge: RunForge, *files: str) -> dict[str, dict[str, object]]:
    """The syntax_check result of each file, by file."""
    done = run_forge("validate", "--files", *files, "--json")
    results = json.loads(done.stdout)["results"]
    return {r["target"]: r for r in results if r["type"] == "syntax_check"}


def write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("name", ["config/app.json", "package.json"])
def test_a_comment_in_strict_json_fails_and_strict_json_passes(
    project: Path, run_forge: RunForge, name: str
) -> None:
    write(project, name, WITH_COMMENT)
    result = syntax(run_forge, name)[name]
    assert not result["passed"], result
    first = result["locations"][0]  # type: ignore[index]
    assert (first["line"], first["column"]) == (2, 3)
    assert first["message"].startswith("JSON allows no comments")
    if name == "package.json":
        assert "node reads package.json as strict JSON" in first["message"]

    write(project, name, STRICT)
    assert syntax(run_forge, name)[name]["passed"]


def test_a_trailing_comma_in_strict_json_fails(project: Path, run_forge: RunForge) -> None:
    write(project, "settings.json", WITH_TRAILING_COMMA)
    result = syntax(run_forge, "settings.json")["settings.json"]
    assert not result["passed"], result
    assert result["locations"][0]["line"] == 3  # type: ignore[index]


def test_nan_is_not_json(project: Path, run_forge: RunForge) -> None:
    write(project, "data.json", '{"ratio": NaN}\n')
    assert not syntax(run_forge, "data.json")["data.json"]["passed"]


JSONC_READERS = [
    "tsconfig.json",
    "tsconfig.build.json",
    "jsconfig.json",
    ".vscode/settings.json",
    "notes.jsonc",
    ".eslintrc.json",
    ".devcontainer/devcontainer.json",
]


def test_files_whose_readers_take_jsonc_keep_comments_and_trailing_commas(
    project: Path, run_forge: RunForge
) -> None:
    for name in JSONC_READERS:
        write(project, name, WITH_COMMENT.replace("8080\n", "8080,\n") + "\n")
    results = syntax(run_forge, *JSONC_READERS)
    assert {name: results[name]["passed"] for name in JSONC_READERS} == dict.fromkeys(
        JSONC_READERS, True
    )
    # JSONC is still checked: a missing comma fails.
    write(project, "tsconfig.json", '{\n  // x\n  "a": 1\n  "b": 2\n}\n')
    assert not syntax(run_forge, "tsconfig.json")["tsconfig.json"]["passed"]


def test_tool_forge_jsonc_files_declares_more(project: Path, run_forge: RunForge) -> None:
    write(project, "config/app.json", WITH_COMMENT)
    write(project, "other/app.json", WITH_COMMENT)
    write(project, "pyproject.toml", '[tool.forge]\njsonc-files = ["config/*.json"]\n')
    results = syntax(run_forge, "config/app.json", "other/app.json")
    assert results["config/app.json"]["passed"], results
    assert not results["other/app.json"]["passed"]
