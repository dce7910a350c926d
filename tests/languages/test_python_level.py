"""The project's own Python (issue 40, items 9 and 10): syntax judged against the oldest
Python ``requires-python`` allows, with the exact reason; PEP 263 coding comments
honoured as CPython honours them. Through the installed CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_testing import RunForge

MATCH = "def kind(x):\n    match x:\n        case 1:\n            return 'one'\n    return 'many'\n"
OLDER = "def kind(x):\n    if x == 1:\n        return 'one'\n    return 'many'\n"


def syntax(run_forge: RunForge, name: str) -> dict[str, object]:
    done = run_forge("validate", "--files", name, "--json")
    results = json.loads(done.stdout)["results"]
    return next(r for r in results if r["type"] == "syntax_check" and r["target"] == name)


def requires(project: Path, specifier: str) -> None:
    (project / "pyproject.toml").write_text(
        f'[project]\nname = "shop"\nrequires-python = "{specifier}"\n', encoding="utf-8"
    )


def test_a_match_statement_fails_when_requires_python_allows_39(
    project: Path, run_forge: RunForge
) -> None:
    requires(project, ">=3.9")
    (project / "kind.py").write_text(MATCH, encoding="utf-8")
    result = syntax(run_forge, "kind.py")
    assert not result["passed"], result
    first = result["locations"][0]  # type: ignore[index]
    assert (first["line"], first["column"], first["message"]) == (
        2,
        5,
        "a `match` statement needs Python 3.10; requires-python allows 3.9",
    )
    # The honest twins: 3.9-valid code, and the same match where 3.10 is the minimum.
    (project / "kind.py").write_text(OLDER, encoding="utf-8")
    assert syntax(run_forge, "kind.py")["passed"]
    (project / "kind.py").write_text(MATCH, encoding="utf-8")
    requires(project, ">=3.10")
    assert syntax(run_forge, "kind.py")["passed"]


@pytest.mark.parametrize(
    ("specifier", "source", "message"),
    [
        (
            ">=3.7",
            "if (n := len('ab')) > 1:\n    pass\n",
            "an assignment expression (`:=`) needs Python 3.8; requires-python allows 3.7",
        ),
        (
            ">=3.9,<4",
            "def first[T](items: list[T]) -> T:\n    return items[0]\n",
            "type parameters needs Python 3.12; requires-python allows 3.9",
        ),
        (
            "~=3.10",
            "try:\n    pass\nexcept* ValueError:\n    pass\n",
            "`except*` needs Python 3.11; requires-python allows 3.10",
        ),
    ],
)
def test_newer_syntax_names_the_python_it_needs(
    project: Path, run_forge: RunForge, specifier: str, source: str, message: str
) -> None:
    requires(project, specifier)
    (project / "a.py").write_text(source, encoding="utf-8")
    result = syntax(run_forge, "a.py")
    assert not result["passed"], result
    assert result["locations"][0]["message"] == message  # type: ignore[index]


def test_without_requires_python_the_interpreter_judges(project: Path, run_forge: RunForge) -> None:
    (project / "kind.py").write_text(MATCH, encoding="utf-8")
    assert syntax(run_forge, "kind.py")["passed"]


def test_an_unknown_coding_is_an_encoding_problem(project: Path, run_forge: RunForge) -> None:
    (project / "a.py").write_text("# -*- coding: latin-9x -*-\nx = 1\n", encoding="utf-8")
    result = syntax(run_forge, "a.py")
    assert not result["passed"], result
    assert "encoding problem" in str(result["message"]) and "latin-9x" in str(result["message"])


def test_a_real_latin1_file_parses_and_a_false_declaration_fails(
    project: Path, run_forge: RunForge
) -> None:
    (project / "a.py").write_bytes(b'# -*- coding: latin-1 -*-\nname = "caf\xe9"\n')
    assert syntax(run_forge, "a.py")["passed"]
    # Declared ASCII, written UTF-8: CPython refuses it ("encoding problem: ascii").
    (project / "b.py").write_bytes(b'# coding: ascii\nname = "caf\xc3\xa9"\n')
    result = syntax(run_forge, "b.py")
    assert not result["passed"], result
    assert "ascii" in str(result["message"])
