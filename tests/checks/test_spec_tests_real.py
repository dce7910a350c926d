"""The ``spec_tests`` check on a real suite: more-itertools' own tests, downloaded at test time.

A real bug in ``more_itertools.first`` makes its real test ``FirstTests.test_many``
fail; each move hides it from pytest, and forge must still fail the module. An
honest edit of the same tests (a rename, a new test, reformatting) passes.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from forge_testing import RunForge, commit, copy_of_published, git

pytestmark = pytest.mark.slow

PACKAGE = "more-itertools==11.2.1"
FIRST = "    for item in iterable:\n        return item\n    if default is _marker:"
#: first() of anything falsy gives None: first(range(4)) is None, not 0.
BUG = "    for item in iterable:\n        return item or None\n    if default is _marker:"
MANY = "self.assertEqual(mi.first(x for x in range(4)), 0)"
TEST_MANY = "    def test_many(self):"
#: Each move of the tests, as (old, new) replacements in tests/test_more.py, and its finding.
MOVES: dict[str, tuple[list[tuple[str, str]], str]] = {
    "skipTest": (
        [(TEST_MANY, TEST_MANY + '\n        self.skipTest("flaky")')],
        "FirstTests.test_many: self.skipTest() added",
    ),
    "deleted": (
        [(f"{TEST_MANY}\n", "    def _gone(self):\n")],
        "FirstTests::test_many removed",
    ),
    "expected changed": (
        [(MANY, MANY.replace(", 0)", ", None)"))],
        "FirstTests::test_many: expected 0 changed to None",
    ),
    "weakened": (
        [(MANY, "self.assertIsNone(mi.first(x for x in range(4)))")],
        "FirstTests::test_many: `self.assertEqual(mi.first((x for x in range(4))), 0)` weakened",
    ),
    "swallowed": (
        [
            (
                f"        {MANY}",
                f"        try:\n            {MANY}\n        except Exception:\n            pass",
            )
        ],
        "FirstTests::test_many: assertion swallowed by `except Exception` (no re-raise)",
    ),
    "mocked": (
        [
            (
                f"        {MANY}",
                f"        with mock.patch.object(mi, 'first', return_value=0):\n            {MANY}",
            ),
        ],
        "FirstTests::test_many: patches more_itertools.first, the module's own code",
    ),
}


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """more-itertools' sources, as a git repository on main."""
    repo = copy_of_published("pypi", PACKAGE, tmp_path_factory.mktemp("real") / "mi")
    git(repo, "init", "-q", "-b", "main")
    plan = {
        "modules": [
            {
                "id": "first",
                "title": "first()",
                "objective": "first() returns the first item.",
                "files": ["more_itertools/more.py"],
                "mayChange": ["tests/**"],
                "verify": [
                    "python -m pytest -q -p no:cacheprovider tests/test_more.py::FirstTests"
                ],
                "doneWhen": "The tests pass.",
            }
        ]
    }
    commit(repo, {".gitignore": ".forge/\n", ".forge/plans/p.json": json.dumps(plan)}, "base")
    return repo


def validate(run_forge: RunForge, repo: Path) -> tuple[int, Any]:
    """``forge validate`` of module ``first`` against main: (exit code, report)."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    completed = run_forge(
        "validate", "--plan", ".forge/plans/p.json", "--module", "first", "--base", "main",
        "--json", cwd=repo, env={"PATH": path, "FORGE_CWD": str(repo)}, timeout=300,
    )  # fmt: skip
    assert completed.returncode in {0, 1}, completed.stderr
    return completed.returncode, json.loads(completed.stdout)


def worker(repo: Path, name: str, source: str, tests: str) -> None:
    """A fresh branch ``name`` from main with ``more.py`` and ``test_more.py`` as given."""
    git(repo, "checkout", "-q", "-f", "-B", name, "main")
    (repo / "more_itertools" / "more.py").write_text(source, encoding="utf-8")
    (repo / "tests" / "test_more.py").write_text(tests, encoding="utf-8")


def test_real_moves_that_hide_a_real_bug_fail_and_an_honest_edit_passes(
    run_forge: RunForge, suite: Path
) -> None:
    source = (suite / "more_itertools" / "more.py").read_text(encoding="utf-8")
    tests = (suite / "tests" / "test_more.py").read_text(encoding="utf-8")
    assert FIRST in source and MANY in tests
    broken = source.replace(FIRST, BUG)
    worker(suite, "bug", broken, tests)
    code, report = validate(run_forge, suite)
    assert code == 1 and report["recommendation"] == "RETRY"  # the bug alone: pytest fails
    for move, (edits, finding) in MOVES.items():
        moved = tests
        for old, new in edits:
            assert old in moved, (move, old)
            moved = moved.replace(old, new, 1)
        worker(suite, f"move-{len(finding)}", broken, moved)
        code, report = validate(run_forge, suite)
        [command] = [r for r in report["results"] if r["type"] == "command"]
        spec = [r for r in report["results"] if r["type"] == "spec_tests"]
        assert command["passed"], (move, command)  # the move hid the bug from pytest
        assert code == 1, (move, spec)
        assert any(finding in r["message"] for r in spec if not r["passed"]), (move, spec)
    honest = tests.replace(TEST_MANY, "    def test_many_items(self):").replace(
        "    def test_one(self):",
        "    def test_first_of_a_tuple(self):\n        self.assertEqual(mi.first((5, 6)), 5)\n\n"
        "    def test_one(self):",
    )
    honest = honest.replace(
        "self.assertEqual(mi.first([3]), 3)",
        "self.assertEqual(\n            mi.first([3]), 3\n        )",
    )
    worker(suite, "honest", source, honest)
    code, report = validate(run_forge, suite)
    spec = [r for r in report["results"] if r["type"] == "spec_tests"]
    assert code == 0 and spec and all(r["passed"] for r in spec), spec
