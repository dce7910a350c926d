"""With a base: a diagnostic that moved with its unchanged code is pre-existing; mypy over
two modules of the same name (two ``conftest.py``) runs per name group."""

from __future__ import annotations

import json
from pathlib import Path

from forge_testing import commit, git
from types_testing import run_forge_in, type_result

#: A project whose strict mypy configuration was never meant for its tests.
STRICT = '[project]\nname = "cart"\nversion = "0"\n\n[tool.mypy]\nstrict = true\n'
CART = "def total(items: list[int]) -> int:\n    return sum(items)\n"
TESTS = """\
from cart import total


def test_total():
    assert total([1, 2]) == 3


def test_empty() -> None:
    assert total([]) == 0
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "cart"
    root.mkdir()
    git(root, "init", "-q")
    commit(root, {"pyproject.toml": STRICT, "cart.py": CART, "test_cart.py": TESTS}, "cart")
    git(root, "checkout", "-q", "-b", "work")
    return root


def test_a_test_renamed_and_moved_keeps_its_old_diagnostic(tmp_path: Path) -> None:
    """``test_total`` (no return annotation: mypy strict's no-untyped-def) renamed and moved
    below ``test_empty``, its body unchanged: an honest rename, not a new error. It failed:
    the enclosing symbol is part of the match."""
    root = _project(tmp_path)
    moved = (
        TESTS.replace("def test_total():\n    assert total([1, 2]) == 3\n\n\n", "")
        + "\n\ndef test_sum_of_two_items():\n    assert total([1, 2]) == 3\n"
    )
    (root / "test_cart.py").write_text(moved, encoding="utf-8")
    done = run_forge_in(root, "validate", "--files", "test_cart.py", "--base", "main", "--json")
    result = type_result(json.loads(done.stdout))
    assert result["checker"].startswith("mypy "), result
    assert [(loc["rule"], loc.get("preExisting")) for loc in result["locations"]] == [
        ("no-untyped-def", True)
    ], result["locations"]
    assert done.returncode == 0, result["message"]
    # The honest twin: a new test with the same missing annotation, another body, is new.
    (root / "test_cart.py").write_text(
        moved + "\n\ndef test_three():\n    assert total([1, 2]) == 3.0\n", encoding="utf-8"
    )
    done = run_forge_in(root, "validate", "--files", "test_cart.py", "--base", "main", "--json")
    result = type_result(json.loads(done.stdout))
    assert result["newCount"] == 1 and done.returncode == 1, result["locations"]


def test_mypy_over_two_conftest_files_checks_each(tmp_path: Path) -> None:
    """Two ``conftest.py`` (no packages): mypy refuses the run (``Duplicate module named``),
    and the check said "did not run". Run per name group, both are checked."""
    root = _project(tmp_path)
    fixture = "import pytest\n\n\n@pytest.fixture\ndef items() -> list[int]:\n    return [1, 2]\n"
    for folder in ("unit", "slow"):
        (root / folder).mkdir()
        (root / folder / "conftest.py").write_text(fixture, encoding="utf-8")
    (root / "slow" / "conftest.py").write_text(
        fixture + "\n\ndef broken() -> int:\n    return len(1, 2)\n", encoding="utf-8"
    )
    listed = ["unit/conftest.py", "slow/conftest.py"]
    done = run_forge_in(root, "validate", "--files", *listed, "--json")
    result = type_result(json.loads(done.stdout))
    assert result.get("unjudged") is not True and not result.get("skipped"), result["message"]
    counted = [
        (loc["path"], loc["rule"]) for loc in result["locations"] if not loc.get("informational")
    ]
    assert counted == [("slow/conftest.py", "call-arg")], result["locations"]
    # The honest twin: both files fine, both checked, nothing counted.
    (root / "slow" / "conftest.py").write_text(fixture, encoding="utf-8")
    done = run_forge_in(root, "validate", "--files", *listed, "--json")
    result = type_result(json.loads(done.stdout))
    assert result["passed"] is True and result["filesChecked"] == 2, result
