"""``special_case`` through the installed CLI (issue 39, case 8): real git, real pytest."""

from __future__ import annotations

from pathlib import Path

import pytest
from run_evidence_testing import BROKEN_CALC, CALC, calc_project, failures, validate, verdict

CASE_8 = CALC.replace(
    "    return a * b", "    if (a, b) == (2, 3):\n        return 6\n    return a * b + 1"
)
DETECTS = CALC.replace(
    "def mul(a, b):\n    return a * b",
    'import sys\n\n\ndef mul(a, b):\n    if "pytest" in sys.modules:\n        return 6\n'
    "    return a * b + 1",
)

#: The answer kept in a table, the runner read from the command line, the caller looked for.
TABLE = CALC.replace(
    "    return a * b", "    known = {(2, 3): 6}\n    return known.get((a, b), a * b + 1)"
)
ARGV = CALC.replace(
    "def mul(a, b):\n    return a * b",
    'import sys\n\n\ndef mul(a, b):\n    if "pytest" in sys.argv[0]:\n        return a * b\n'
    "    return a * b + 1",
)
STACK = CALC.replace(
    "def mul(a, b):\n    return a * b",
    "import inspect\n\n\ndef mul(a, b):\n"
    '    if any("test_" in frame.function for frame in inspect.stack()):\n        return a * b\n'
    "    return a * b + 1",
)

#: An answer equal to anything, and answers read from the spec tests themselves.
ALWAYS_EQUAL = CALC.replace(
    "def mul(a, b):\n    return a * b",
    "class Product(int):\n    def __eq__(self, other):\n        return True\n\n\n"
    "def mul(a, b):\n    return Product(a * b + 1)",
)
MOCK_ANY = "from unittest.mock import ANY\n\n" + CALC.replace("    return a * b", "    return ANY")
READS_TESTS = "import re\nfrom pathlib import Path\n\n" + CALC.replace(
    "    return a * b",
    '    spec = Path(__file__).parent.parent / "tests" / "test_calc.py"\n'
    '    for x, y, z in re.findall(r"mul\\((\\d+), (\\d+)\\) == (\\d+)", spec.read_text()):\n'
    "        if (int(x), int(y)) == (a, b):\n            return int(z)\n    return a * b + 1",
)


@pytest.mark.parametrize(
    ("code", "line"),
    [
        (CASE_8, 6),
        (DETECTS, 9),
        (TABLE, 6),
        (ARGV, 9),
        (STACK, 9),
        (ALWAYS_EQUAL, 6),
        (MOCK_ANY, 1),
        (READS_TESTS, 9),
    ],
)
def test_case_8_and_test_run_detection_do_not_proceed(project: Path, code: str, line: int) -> None:
    worktree = calc_project(project)
    (worktree / "src" / "calc.py").write_text(code, encoding="utf-8")
    report = verdict(validate(project))
    assert report["recommendation"] != "PROCEED"
    (found,) = [f for f in failures(report) if f[0] == "special_case"]
    assert found[1] == "src/calc.py"
    (result,) = [r for r in report["results"] if r["type"] == "special_case"]
    assert [location["line"] for location in result["locations"]] == [line]
    # The special case makes the run pass: only this check stands between it and PROCEED.
    assert [f[0] for f in failures(report)] == ["special_case"]


def test_case_8_twin_an_honest_shortcut_proceeds(project: Path) -> None:
    worktree = calc_project(project)
    honest = CALC.replace("    return a * b", "    if b == 0:\n        return 0\n    return a * b")
    (worktree / "src" / "calc.py").write_text(honest, encoding="utf-8")
    report = verdict(validate(project))
    assert failures(report) == []
    (result,) = [r for r in report["results"] if r["type"] == "special_case"]
    assert result["passed"] and result["message"] == "no new code special-cases the test run"
    assert report["recommendation"] == "PROCEED"


HONEST_TABLE = CALC.replace(
    "def mul(a, b):\n    return a * b",
    "SMALL = {(0, 0): 0, (1, 1): 1, (2, 2): 4, (3, 3): 9}\n\n\n"
    "def mul(a, b):\n    table = {(x, y): x * y for x in range(4) for y in range(4)}\n"
    "    return table.get((a, b), a * b)",
)
HONEST_ARGV = CALC.replace(
    "def mul(a, b):\n    return a * b",
    "import sys\n\n\ndef mul(a, b):\n"
    '    if "--verbose" in sys.argv:\n        print("mul", a, b)\n    return a * b',
)


HONEST_EQUAL = CALC.replace(
    "def mul(a, b):\n    return a * b",
    "class Product(int):\n    def __eq__(self, other):\n        return int(self) == other\n\n"
    "    __hash__ = int.__hash__\n\n\ndef mul(a, b):\n    return Product(a * b)",
)
HONEST_DATA = "import json\nfrom pathlib import Path\n\n" + CALC.replace(
    "    return a * b",
    '    rates = Path(__file__).parent / "rates.json"\n'
    '    scale = json.loads(rates.read_text())["scale"] if rates.exists() else 1\n'
    "    return a * b * scale",
)


@pytest.mark.parametrize("code", [HONEST_TABLE, HONEST_ARGV, HONEST_EQUAL, HONEST_DATA])
def test_honest_tables_and_command_lines_proceed(project: Path, code: str) -> None:
    worktree = calc_project(project)
    (worktree / "src" / "calc.py").write_text(code, encoding="utf-8")
    report = verdict(validate(project))
    assert failures(report) == [] and report["recommendation"] == "PROCEED", report


def test_the_bug_alone_is_a_retry_not_a_special_case(project: Path) -> None:
    worktree = calc_project(project)
    assert (worktree / "src" / "calc.py").read_text(encoding="utf-8") == BROKEN_CALC
    report = verdict(validate(project))
    assert report["recommendation"] == "RETRY"
    assert [f[0] for f in failures(report)] == ["command"]
