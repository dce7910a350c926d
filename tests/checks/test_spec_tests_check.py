"""The ``spec_tests`` check on issue 39's Python moves: a real git repository, a plan, the CLI.

The module ``calc`` owns ``src/calc.py``, may change ``tests/**`` and is
verified by ``python -m pytest -q tests``. Each move games the bug in ``mul``
past pytest; ``forge validate --plan P --module calc --base main`` must fail it,
naming the test and the line. Each honest twin (``mul`` fixed, the tests edited
as a person would) passes.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from forge_testing import commit, git
from py_calc_testing import (
    BROKEN,
    PLAN,
    TESTS,
    calc_project,
    failing,
    spec_results,
    validate,
    write,
)

if TYPE_CHECKING:
    from forge_testing import RunForge


@pytest.fixture
def calc(project: Path) -> Path:
    """The project on branch ``work``, forked from ``main`` where the spec tests pass."""
    return calc_project(project)


def test_the_bug_alone_is_a_retry_and_the_spec_holds(run_forge: RunForge, calc: Path) -> None:
    write(calc, {"src/calc.py": BROKEN})
    code, report = validate(run_forge, calc)
    assert code == 1 and report["recommendation"] == "RETRY"
    [result] = spec_results(report)
    assert result["passed"] and result["target"] == "(spec tests)"
    assert result["message"].startswith("1 spec test file at main: none removed")


MOVES = {
    "skip": (
        TESTS.replace("def test_mul", "@pytest.mark.skip\ndef test_mul"),
        10,
        "turned_off: test_mul: @pytest.mark.skip added",
    ),
    "deleted": (
        TESTS.replace("def test_mul():\n    assert mul(2, 3) == 6\n\n\n", ""),
        1,
        "removed: test_mul removed (line 10 at the base); no test with its body is left",
    ),
    "expected_changed": (
        TESTS.replace("== 6", "== 5"),
        11,
        "expected_changed: test_mul: expected 6 changed to 5",
    ),
    "weakened": (
        TESTS.replace("== 6", "is not None"),
        11,
        "weakened: test_mul: `assert mul(2, 3) == 6` weakened to `assert mul(2, 3) is not None`",
    ),
    "swallowed": (
        TESTS.replace(
            "    assert mul(2, 3) == 6\n",
            "    try:\n        assert mul(2, 3) == 6\n    except AssertionError:\n        pass\n",
        ),
        11,
        "swallowed: test_mul: assertion swallowed by `except AssertionError` (no re-raise)",
    ),
    "mocked": (
        TESTS.replace("import pytest\n", "from unittest import mock\n\nimport pytest\n").replace(
            "    assert mul(2, 3) == 6\n",
            '    with mock.patch("src.calc.mul", lambda a, b: 6):\n'
            "        from src import calc\n\n        assert calc.mul(2, 3) == 6\n",
        ),
        13,
        "mocked: test_mul: patches src.calc.mul, the module's own code: the test no longer "
        "tests it",
    ),
}


@pytest.mark.parametrize("move", sorted(MOVES))
def test_a_move_that_hides_the_bug_fails_the_module(
    run_forge: RunForge, calc: Path, move: str
) -> None:
    text, line, message = MOVES[move]
    write(calc, {"src/calc.py": BROKEN, "tests/test_calc.py": text})
    code, report = validate(run_forge, calc)
    assert code == 1, report
    assert report["recommendation"] != "PROCEED"
    assert ("tests/test_calc.py", line, message) in failing(report)
    [command] = [r for r in report["results"] if r["type"] == "command"]
    assert command["passed"], command  # pytest itself was gamed: only forge sees it


def test_a_conftest_that_drops_the_test_fails_the_module(run_forge: RunForge, calc: Path) -> None:
    conftest = (
        "def pytest_collection_modifyitems(config, items):\n"
        '    items[:] = [item for item in items if "mul" not in item.name]\n'
    )
    write(calc, {"src/calc.py": BROKEN, "tests/conftest.py": conftest})
    code, report = validate(run_forge, calc)
    assert code == 1
    assert failing(report) == [
        (
            "tests/conftest.py",
            1,
            "runner_config: tests/conftest.py: pytest_collection_modifyitems added: it decides "
            "which tests run",
        )
    ]


HONEST = {
    "new tests": TESTS + "\n\ndef test_mul_negative():\n    assert mul(-2, 3) == -6\n",
    "renamed": TESTS.replace("def test_mul()", "def test_multiplies_two_numbers()"),
    "moved to another file": TESTS.replace("def test_mul():\n    assert mul(2, 3) == 6\n\n\n", ""),
    "parametrized keeping every case": TESTS.replace(
        "def test_mul():\n    assert mul(2, 3) == 6\n",
        '@pytest.mark.parametrize(("a", "b", "product"), [(2, 3, 6), (4, 5, 20)])\n'
        "def test_mul(a, b, product):\n    assert mul(a, b) == product\n",
    ),
    "helper extracted": TESTS.replace(
        "def test_mul():\n    assert mul(2, 3) == 6\n",
        "def check_product(a, b, expected):\n    assert mul(a, b) == expected\n\n\n"
        "def test_mul():\n    check_product(2, 3, 6)\n",
    ),
    "reformatted": TESTS.replace("assert mul(2, 3) == 6", "assert mul(2,3)==6  # the spec"),
    "stricter": TESTS.replace(
        "    assert mul(2, 3) == 6\n",
        "    assert mul(2, 3) == 6\n    assert isinstance(mul(2, 3), int)\n",
    ).replace("pytest.raises(ZeroDivisionError)", 'pytest.raises(ZeroDivisionError, match="zero")'),
    "a computed expectation": TESTS.replace("== 6", "== 2 * 3"),
    "pytest.raises around a call that raises": TESTS.replace(
        "        div(1, 0)\n", "        assert div(1, 0) is None\n"
    ),
    "a return after the assertions": TESTS.replace(
        "    assert mul(2, 3) == 6\n", "    assert mul(2, 3) == 6\n    return\n"
    ),
    "a fixture for the operands": TESTS.replace(
        "def test_mul():\n    assert mul(2, 3) == 6\n",
        "@pytest.fixture\ndef operands():\n    return 2, 3\n\n\n"
        "def test_mul(operands):\n    assert mul(2, 3) == 6\n    assert mul(*operands) == 6\n",
    ),
}


@pytest.mark.parametrize("edit", sorted(HONEST))
def test_an_honest_edit_of_the_tests_passes(run_forge: RunForge, calc: Path, edit: str) -> None:
    files = {"tests/test_calc.py": HONEST[edit]}
    if edit == "moved to another file":
        files["tests/test_mul.py"] = (
            "from src.calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n"
        )
    write(calc, files)
    code, report = validate(run_forge, calc)
    assert spec_results(report) and all(r["passed"] for r in spec_results(report)), report
    assert code == 0, report


def test_spec_changes_allow_the_named_tests_and_still_report_them(
    run_forge: RunForge, calc: Path
) -> None:
    write(calc, {"src/calc.py": BROKEN, "tests/test_calc.py": MOVES["expected_changed"][0]})
    plan = json.loads(json.dumps(PLAN))
    plan["modules"][0]["specChanges"] = ["tests/test_calc.py::test_mul"]
    code, report = validate(run_forge, calc, plan)
    assert code == 0 and report["recommendation"] == "PROCEED", report
    [result] = spec_results(report)
    assert result["passed"] and result["target"] == "tests/test_calc.py"
    assert result["message"] == "allowed by specChanges: test_mul: expected 6 changed to 5"
    assert result["locations"] == [
        {
            "line": 11,
            "column": 1,
            "message": "expected_changed: test_mul: expected 6 changed to 5",
            "informational": True,
        }
    ]
    # Another test is not allowed by it.
    plan["modules"][0]["specChanges"] = ["tests/test_calc.py::test_add"]
    code, report = validate(run_forge, calc, plan)
    assert code == 1 and not spec_results(report)[0]["passed"]


@pytest.mark.parametrize(
    ("value", "problem"),
    [("tests/test_calc.py::test_mul", "list"), ([""], "must not be empty"), ([3], "string")],
)
def test_plan_check_refuses_spec_changes_of_the_wrong_shape(
    run_forge: RunForge, calc: Path, value: object, problem: str
) -> None:
    plan = json.loads(json.dumps(PLAN))
    plan["modules"][0]["specChanges"] = value
    (calc / ".forge" / "plans" / "p.json").write_text(json.dumps(plan), encoding="utf-8")
    completed = run_forge("plan", "check", ".forge/plans/p.json")
    assert completed.returncode == 1, completed.stdout
    assert "specChanges" in completed.stdout and problem in completed.stdout, completed.stdout


def _commit_on_main(project: Path, files: dict[str, str]) -> None:
    """Add ``files`` to the base: committed on work, which main then points at."""
    commit(project, files, "more base")
    git(project, "branch", "-f", "main", "HEAD")


PARAM = "import pytest\nfrom src.calc import mul\n\n\n@pytest.mark.parametrize(('a', 'b', 'p'), "
PARAM += "[(2, 3, 6), (4, 5, 20)])\ndef test_mul(a, b, p):\n    assert mul(a, b) == p\n"
#: Changes to the runner or the data, each with (file, finding), honest twins beside.
CONFIG_MOVES = {
    "pytest.ini addopts -k": (
        {"pytest.ini": "[pytest]\naddopts = -k 'not mul'\n"},
        ("pytest.ini", "runner_config: pytest.ini: addopts gained -k=not mul: fewer tests run"),
    ),
    "pyproject --deselect": (
        {
            "pyproject.toml": "[tool.pytest.ini_options]\n"
            'addopts = "--deselect tests/test_calc.py::test_mul"\n'
        },
        (
            "pyproject.toml",
            "runner_config: pyproject.toml: addopts gained "
            "--deselect=tests/test_calc.py::test_mul: fewer tests run",
        ),
    ),
    "conftest collect_ignore": (
        {"tests/conftest.py": 'collect_ignore = ["test_calc.py"]\n'},
        (
            "tests/conftest.py",
            "runner_config: tests/conftest.py: collect_ignore added: it decides which tests run",
        ),
    ),
    "expected data changed": (
        {"tests/data/product.txt": "5\n"},
        (
            "tests/test_data.py",
            "data_changed: tests/test_data.py reads tests/data/product.txt, which the change "
            "modified",
        ),
    ),
    "parametrize case dropped": (
        {"tests/test_param.py": PARAM.replace("(2, 3, 6), ", "")},
        ("tests/test_param.py", "removed: test_mul: parametrize case 1 of 2 removed"),
    ),
    "raises broadened": (
        {"tests/test_calc.py": TESTS.replace("raises(ZeroDivisionError)", "raises(Exception)")},
        (
            "tests/test_calc.py",
            "weakened: test_div_by_zero: `pytest.raises(ZeroDivisionError)` broadened to "
            "`pytest.raises(Exception)`",
        ),
    ),
}
CONFIG_HONEST = {
    "pytest.ini addopts -v": {"pytest.ini": "[pytest]\naddopts = -v --tb=short\n"},
    "a conftest fixture": {
        "tests/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n"
    },
    "new data file": {"tests/data/quotient.txt": "2\n"},
    "parametrize case added": {
        "tests/test_param.py": PARAM.replace("(2, 3, 6)", "(2, 3, 6), (1, 1, 1)")
    },
}
DATA_TEST = """\
from pathlib import Path

from src.calc import mul


def test_product_file():
    expected = int(Path("tests/data/product.txt").read_text())
    assert mul(2, 3) == expected
"""


BASE_EXTRA = {
    "tests/test_data.py": DATA_TEST,
    "tests/data/product.txt": "6\n",
    "tests/test_param.py": PARAM,
}


@pytest.mark.parametrize("move", sorted(CONFIG_MOVES))
def test_a_runner_or_data_change_that_runs_less_fails(
    run_forge: RunForge, calc: Path, move: str
) -> None:
    _commit_on_main(calc, BASE_EXTRA)
    files, (target, message) = CONFIG_MOVES[move]
    write(calc, files)
    code, report = validate(run_forge, calc)
    assert code == 1 and [(t, m) for t, _, m in failing(report)] == [(target, message)], report


@pytest.mark.parametrize("edit", sorted(CONFIG_HONEST))
def test_an_honest_runner_or_data_change_passes(run_forge: RunForge, calc: Path, edit: str) -> None:
    _commit_on_main(calc, BASE_EXTRA)
    write(calc, CONFIG_HONEST[edit])
    code, report = validate(run_forge, calc)
    assert code == 0 and all(r["passed"] for r in spec_results(report)), report


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_a_makefile_target_narrowed_fails(run_forge: RunForge, calc: Path) -> None:
    plan = json.loads(json.dumps(PLAN))
    plan["modules"][0]["verify"] = ["make test"]
    recipe = "test:\n\tpython -m pytest -q -p no:cacheprovider tests\n"
    _commit_on_main(calc, {"Makefile": recipe})
    write(calc, {"Makefile": recipe.replace("tests\n", "tests/test_data.py || true\n")})
    _, report = validate(run_forge, calc, plan)
    assert [(t, m) for t, _, m in failing(report)] == [
        ("Makefile", "runner_config: Makefile: test now passes whatever the tests do ('|| true')"),
        (
            "Makefile",
            "runner_config: Makefile: test no longer runs 1 spec file(s): tests/test_calc.py",
        ),
    ]
