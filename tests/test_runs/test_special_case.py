"""Special-casing rules (issue 39, case 8 and test-run detection): narrow shapes, new since the
base, never honest code; measured on real packages' own releases (slow, downloads)."""

from __future__ import annotations

from pathlib import Path

import pytest
from forge_testing import published_sources_of

from forge.test_runs.file_kinds import is_test_file
from forge.test_runs.literal_answers import expectations, literal_answers
from forge.test_runs.special_case import detects_test_run

SPEC = """\
import unittest
from src.calc import mul, fact, scale

def test_mul():
    assert mul(2, 3) == 6

def test_zero():
    assert 0 == mul(5, 0)

def test_fact():
    assert fact(0) == 1
    assert fact(5) == 120

class T(unittest.TestCase):
    def test_scale(self):
        self.assertEqual(scale(3, by=4), 12)
"""
BASE = "def mul(a, b):\n    return a * b\n"


def answers(new: str, old: str | None = BASE) -> list[int]:
    specs = expectations("tests/test_calc.py", SPEC)
    return [finding.line for finding in literal_answers(old, new, specs)]


@pytest.mark.parametrize(
    "cheat",
    [
        "    if (a, b) == (2, 3):\n        return 6\n",
        "    if a == 2 and b == 3:\n        return 6\n",
        "    if [a, b] == [2, 3]:\n        return 6\n",
        "    if 2 == a and 3 == b:\n        x = 1\n        return 6\n",
    ],
)
def test_a_branch_returning_a_spec_tests_literal_answer_is_found(cheat: str) -> None:
    assert answers(f"def mul(a, b):\n{cheat}    return a * b + 1\n") == [2]


def test_keyword_arguments_and_assert_equal_count() -> None:
    code = "def scale(x, by=1):\n    if x == 3 and by == 4:\n        return 12\n    return x\n"
    assert answers(code, None) == [2]


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("def mul(a, b):\n    if b == 0:\n        return 0\n    return a * b\n", "a shortcut"),
        (
            "def fact(n):\n    if n == 0:\n        return 1\n    return n * fact(n - 1)\n",
            "base case",
        ),
        (
            "def mul(a, b):\n    if (a, b) == (2, 3):\n        return 7\n    return a * b\n",
            "no answer",
        ),
        (
            "def mul(a, b):\n    if (a, b) == (2, 4):\n        return 6\n    return a * b\n",
            "no call",
        ),
        ("def mul(a, b):\n    if (a, b) == (2, 3):\n        return 6.0\n    return a * b\n", "6.0"),
        (
            "def add(a, b):\n    if (a, b) == (2, 3):\n        return 6\n    return a + b\n",
            "other f",
        ),
    ],
)
def test_honest_branches_are_not_special_cases(code: str, why: str) -> None:
    assert answers(code, None) == [], why


def test_a_branch_already_at_the_base_is_not_new() -> None:
    cheat = "def mul(a, b):\n    if (a, b) == (2, 3):\n        return 6\n    return a * b\n"
    assert answers(cheat + "\n", old=cheat) == []


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ("src/a.py", 'import sys\nif "pytest" in sys.modules:\n    X = 1\n'),
        ("src/a.py", "import os\nT = os.environ.get('PYTEST_CURRENT_TEST')\n"),
        ("src/a.py", "import sys\nT = sys.modules.get('pytest')\n"),
        ("src/a.py", "import os\nT = 'PYTEST_VERSION' in os.environ\n"),
        ("src/a.py", "import os\nT = os.getenv('PYTEST_XDIST_WORKER')\n"),
        ("src/a.py", "from os import environ\nT = environ['PYTEST_CURRENT_TEST']\n"),
        ("src/a.js", "const x = 1;\nif (process.env.NODE_ENV === 'test') { x = 2 }\n"),
        ("src/a.ts", "const x = 1;\nif ('test' == process.env.NODE_ENV) {}\n"),
        ("src/a.js", "const x = 1;\nconst w = process.env.JEST_WORKER_ID;\n"),
        ("src/a.mjs", "const x = 1;\nif (import.meta.env.VITEST) {}\n"),
        ("src/a.js", "const x = 1;\nif (process.env.NODE_TEST_CONTEXT) {}\n"),
    ],
)
def test_new_code_detecting_the_test_run_is_found(path: str, line: str) -> None:
    (finding,) = detects_test_run(path, "x = 1\n", line)
    assert finding.line == 2
    assert finding.message.startswith("detects the test run")


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("src/a.py", "", "import os\nCI = os.environ.get('CI')\n"),  # CI is not a test run
        ("src/a.js", "", "if (process.env.NODE_ENV === 'production') {}\n"),
        ("src/a.js", "", "// NODE_ENV === 'test' explains the old trick\n"),
        ("src/a.py", "", "NAME = 'pytest'\n"),
        # Naming the variables (a checker's own list of them) reads no environment.
        ("src/a.py", "", "NAMES = frozenset({'PYTEST_CURRENT_TEST', 'PYTEST_VERSION'})\n"),
        ("src/a.py", "", "import os\nT = os.environ.get('HOME', 'PYTEST_VERSION')\n"),
        # Already at the base: moved a line down, not new.
        (
            "src/a.py",
            'import sys\nX = "pytest" in sys.modules\n',
            'import sys\n\nX = "pytest" in sys.modules\n',
        ),
    ],
)
def test_honest_code_does_not_detect_the_test_run(path: str, old: str, new: str) -> None:
    assert detects_test_run(path, old, new) == []


PACKAGES = [
    ("pypi", "attrs==23.1.0"),
    ("pypi", "attrs==23.2.0"),
    ("pypi", "toolz==0.12.0"),
    ("pypi", "toolz==0.12.1"),
]


def _python_files(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(root.rglob("*.py"))
    }


@pytest.mark.slow
def test_no_false_alarm_on_real_releases_and_case_8_caught_in_them() -> None:
    trees = published_sources_of(PACKAGES)
    for old_root, new_root in zip(trees[::2], trees[1::2], strict=True):
        old, new = _python_files(old_root), _python_files(new_root)
        specs = [s for n, t in old.items() if is_test_file(n, t) for s in expectations(n, t)]
        assert len(specs) > 20, f"{old_root.name}: the rule has spec calls to work with"
        for name, text in new.items():
            if is_test_file(name, text):
                continue
            for before in (old.get(name), None):  # the release, and the package from scratch
                found = detects_test_run(name, before, text) + literal_answers(before, text, specs)
                assert found == [], f"{new_root.name}/{name}: false alarm {found}"
    # The move itself, in toolz's own code: toolz.itertoolz.get special-cased for its spec call.
    old = _python_files(trees[2])
    specs = [s for n, t in old.items() if is_test_file(n, t) for s in expectations(n, t)]
    call = next(s for s in specs if s.function == "get" and len(s.args) == 2 and not s.kwargs)
    text = _python_files(trees[3])["toolz/itertoolz.py"]
    signature = "def get(ind, seq, default=no_default):\n"
    assert signature in text
    cheat = f"    if (ind, seq) == {call.args!r}:\n        return {call.expected!r}\n"
    gamed = text.replace(signature, signature + cheat)
    assert literal_answers(text, gamed, specs), "case 8 in real code is caught"
