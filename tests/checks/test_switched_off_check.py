"""The ``switched_off`` check: a real git repository, a base revision, the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from forge_testing import commit, git

if TYPE_CHECKING:
    from forge_testing import RunForge

BASE = """\
import pytest


def test_add():
    assert 1 + 1 == 2


@pytest.mark.skip(reason="flaky for years")
def test_old():
    assert False
"""

SWITCHED = """\
import pytest


@pytest.mark.skip(reason="later")
def test_add():
    assert 1 + 1 == 2


@pytest.mark.skip(reason="flaky for years")
def test_old():
    assert False


def test_new():
    pass
"""


def test_tests_switched_off_since_the_base_fail(run_forge: RunForge, project: Path) -> None:
    git(project, "init", "-q", "-b", "main")
    commit(project, {"tests/test_math.py": BASE, "src/app.py": "x = 1\n"}, "base")
    (project / "tests" / "test_math.py").write_text(SWITCHED, encoding="utf-8")
    args = ["validate", "--files", "tests/test_math.py", "src/app.py", "--json"]
    completed = run_forge(*args, "--base", "HEAD")
    assert completed.returncode == 1, completed.stderr
    results = [r for r in json.loads(completed.stdout)["results"] if r["type"] == "switched_off"]
    assert len(results) == 1  # src/app.py is not a test file
    [result] = results
    assert result["target"] == "tests/test_math.py" and result["passed"] is False
    # test_new, new since the base, has no assertion: it hides no test of the base.
    assert result["message"] == "1 test switched off: test_add: @pytest.mark.skip added"
    assert [(loc["line"], loc["column"]) for loc in result["locations"]] == [(4, 2)]
    # Without a base there is nothing to compare with: no result at all.
    plain = json.loads(run_forge(*args).stdout)["results"]
    assert not [r for r in plain if r["type"] == "switched_off"]
    # The base itself switched nothing off.
    (project / "tests" / "test_math.py").write_text(BASE, encoding="utf-8")
    again = json.loads(run_forge(*args, "--base", "HEAD").stdout)["results"]
    [result] = [r for r in again if r["type"] == "switched_off"]
    assert result["passed"] is True


CLASS_BASE = """\
import sys
import unittest

import pytest


class CalcTests(unittest.TestCase):
    def test_mul(self):
        self.assertEqual(2 * 3, 6)


class TestPaths:
    pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="posix")

    def test_root(self):
        assert "/".startswith("/")
"""
#: A marker over a class or the whole file switches off every spec test under it.
WHOLE = {
    "pytestmark": (
        CLASS_BASE.replace(
            "\n\nclass CalcTests",
            '\npytestmark = pytest.mark.skip(reason="later")\n\nclass CalcTests',
        ),
        "1 test switched off: pytestmark: @pytest.mark.skip added: every test in the file is "
        "switched off",
    ),
    "a class decorator": (
        CLASS_BASE.replace("class CalcTests", '@unittest.skip("later")\nclass CalcTests'),
        "1 test switched off: CalcTests: @unittest.skip added: every test of CalcTests is "
        "switched off",
    ),
    "pytest.skip at module level": (
        CLASS_BASE.replace(
            "\n\nclass CalcTests",
            '\npytest.skip("later", allow_module_level=True)\n\nclass CalcTests',
        ),
        "1 test switched off: pytest.skip() added: every test in the file is switched off",
    ),
}


@pytest.mark.parametrize("move", sorted(WHOLE))
def test_a_class_or_file_of_spec_tests_switched_off_fails(
    run_forge: RunForge, project: Path, move: str
) -> None:
    text, message = WHOLE[move]
    git(project, "init", "-q", "-b", "main")
    commit(project, {"tests/test_calc.py": CLASS_BASE}, "base")
    (project / "tests" / "test_calc.py").write_text(text, encoding="utf-8")
    completed = run_forge("validate", "--files", "tests/test_calc.py", "--base", "HEAD", "--json")
    [result] = [r for r in json.loads(completed.stdout)["results"] if r["type"] == "switched_off"]
    assert result["message"] == message


def test_a_class_or_file_of_new_tests_skipped_on_a_condition_passes(
    run_forge: RunForge, project: Path
) -> None:
    git(project, "init", "-q", "-b", "main")
    commit(project, {"tests/test_calc.py": CLASS_BASE}, "base")
    # TestPaths moved to a file of its own with its marker; a new posix-only file and class.
    left = CLASS_BASE[: CLASS_BASE.index("\n\nclass TestPaths")] + "\n"
    left += '\n\n@pytest.mark.skipif(not hasattr(sys, "getwindowsversion"), reason="windows")\n'
    left += "class TestDrives:\n    def test_drive(self):\n        assert 'C:'\n"
    moved = "import sys\n\nimport pytest\n\n\n" + CLASS_BASE[CLASS_BASE.index("class TestPaths") :]
    posix = "import sys\n\nimport pytest\n\n"
    posix += 'pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="")\n'
    posix += "\n\ndef test_links():\n    assert True\n"
    files = {"tests/test_calc.py": left, "tests/test_paths.py": moved, "tests/test_posix.py": posix}
    for name, text in files.items():
        (project / name).write_text(text, encoding="utf-8")
    completed = run_forge("validate", "--files", *files, "--base", "HEAD", "--json")
    results = [r for r in json.loads(completed.stdout)["results"] if r["type"] == "switched_off"]
    assert len(results) == 3 and all(r["passed"] for r in results), results
