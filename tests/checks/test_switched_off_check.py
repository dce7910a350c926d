"""The ``switched_off`` check: a real git repository, a base revision, the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

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
