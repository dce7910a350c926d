"""The ``spec_tests`` check against a spec test rewritten so that its assertion cannot fail it.

The assertion is still there, but an early ``return`` or a skip comes first, a
``finally`` returns, a loop runs over nothing, ``pytest.raises(AssertionError)``
inverts it, a helper swallows it, or it holds whatever ``mul`` does (a tuple,
``x or True``, the code checked against itself, a loose tolerance). Each hides
the ``mul`` bug from pytest (its run passes) and must fail the module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from py_calc_testing import BROKEN, TESTS, calc_project, failing, validate, write

if TYPE_CHECKING:
    from pathlib import Path

    from forge_testing import RunForge

MOVES = {
    "checked against itself": (
        TESTS.replace("== 6", "== mul(3, 2)"),
        11,
        "weakened: test_mul: expected 6 replaced by `mul(3, 2)`: the code under test checked "
        "against itself",
    ),
    "an absolute tolerance": (
        TESTS.replace("assert mul(2, 3) == 6", "assert abs(mul(2, 3) - 6) <= 1"),
        11,
        "weakened: test_mul: exact `assert mul(2, 3) == 6` loosened to "
        "`assert abs(mul(2, 3) - 6) <= 1`",
    ),
    "a tuple asserted": (
        TESTS.replace("assert mul(2, 3) == 6", 'assert (mul(2, 3) == 6, "mul")'),
        11,
        "swallowed: test_mul: assertion can never fail: `assert (mul(2, 3) == 6, 'mul')`",
    ),
    "or True": (
        TESTS.replace("assert mul(2, 3) == 6", "assert mul(2, 3) == 6 or True"),
        11,
        "swallowed: test_mul: assertion can never fail: `assert mul(2, 3) == 6 or True`",
    ),
    "an early return": (
        TESTS.replace(
            "    assert mul(2, 3) == 6\n",
            "    if mul(2, 3) != 6:\n        return\n    assert mul(2, 3) == 6\n",
        ),
        12,
        "swallowed: test_mul: `return` before its assertions",
    ),
    "finally: return": (
        TESTS.replace(
            "    assert mul(2, 3) == 6\n",
            "    try:\n        assert mul(2, 3) == 6\n    finally:\n        return\n",
        ),
        14,
        "swallowed: test_mul: assertion swallowed by `finally: return`",
    ),
    "a SkipTest raised": (
        TESTS.replace(
            "    assert mul(2, 3) == 6\n",
            '    import unittest\n\n    raise unittest.SkipTest("later")\n    assert mul(2, 3) == 6\n',
        ),
        13,
        "swallowed: test_mul: `raise unittest.SkipTest('later')` skips the test before its "
        "assertions",
    ),
    "a loop over nothing": (
        TESTS.replace(
            "    assert mul(2, 3) == 6\n", "    for _ in []:\n        assert mul(2, 3) == 6\n"
        ),
        11,
        "swallowed: test_mul: assertion in a loop over `[]` never runs",
    ),
    "not (x and False)": (
        TESTS.replace("assert mul(2, 3) == 6", "assert not (mul(2, 3) != 6 and False)"),
        11,
        "swallowed: test_mul: assertion can never fail: `assert not (mul(2, 3) != 6 and False)`",
    ),
    "inverted by pytest.raises": (
        TESTS.replace(
            "    assert mul(2, 3) == 6\n",
            "    with pytest.raises(AssertionError):\n        assert mul(2, 3) == 6\n",
        ),
        11,
        "swallowed: test_mul: assertion inverted by `pytest.raises(AssertionError)`: passes "
        "when it fails",
    ),
    "swallowed in a helper": (
        TESTS.replace(
            "def test_mul():\n    assert mul(2, 3) == 6\n",
            "def check_product(a, b, p):\n    try:\n        assert mul(a, b) == p\n"
            "    except AssertionError:\n        pass\n\n\n"
            "def test_mul():\n    check_product(2, 3, 6)\n",
        ),
        18,
        "swallowed: test_mul: in helper check_product: assertion swallowed by "
        "`except AssertionError` (no re-raise)",
    ),
    "parametrized with no case": (
        TESTS.replace(
            "def test_mul():\n    assert mul(2, 3) == 6\n",
            '@pytest.mark.parametrize(("a", "b", "p"), [])\n'
            "def test_mul(a, b, p):\n    assert mul(a, b) == p\n",
        ),
        10,
        "swallowed: test_mul: parametrized with no case: the test never runs",
    ),
}


@pytest.mark.parametrize("move", sorted(MOVES))
def test_an_assertion_that_cannot_fail_fails_the_module(
    run_forge: RunForge, project: Path, move: str
) -> None:
    text, line, message = MOVES[move]
    calc = calc_project(project)
    write(calc, {"src/calc.py": BROKEN, "tests/test_calc.py": text})
    code, report = validate(run_forge, calc)
    assert code == 1 and report["recommendation"] != "PROCEED", report
    assert ("tests/test_calc.py", line, message) in failing(report)
    [command] = [r for r in report["results"] if r["type"] == "command"]
    assert command["passed"], command  # pytest itself was gamed: only forge sees it
