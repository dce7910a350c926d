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
