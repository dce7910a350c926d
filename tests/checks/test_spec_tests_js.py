"""The ``spec_tests`` check on JavaScript: node's own runner through ``npm test``, mocha's forms.

The module ``calc`` owns ``src/calc.js`` and is verified by ``npm test``
(``node --test``, node's built-in runner: nothing installed). Each move hides
the bug in ``mul`` from the runner; forge must fail the module. mocha's own
forms (``xit``, ``.mocharc.json``) are judged from the files alone: the check
reads, it never runs mocha.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from forge_testing import git
from js_calc_testing import BROKEN, PACKAGE, TESTS, calc_project, validate, write

if TYPE_CHECKING:
    from forge_testing import RunForge

pytestmark = pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")


@pytest.fixture
def calc(project: Path) -> Path:
    """The project on branch ``work``, forked from ``main`` where the spec tests pass."""
    return calc_project(project)


def failing(report: Any) -> list[tuple[str, int, str]]:
    """(target, line, message) of each counted place of a failing ``spec_tests`` result."""
    return [
        (result["target"], place["line"], place["message"])
        for result in report["results"]
        if result["type"] == "spec_tests" and not result["passed"]
        for place in result["locations"]
        if not place.get("informational")
    ]


NARROWED = {**PACKAGE, "scripts": {"test": "node --test test/add.test.js"}}
#: Moves node's runner is fooled by: the verify command passes, forge must not.
MOVES = {
    "it.skip": (
        {"test/calc.test.js": TESTS.replace('it("multiplies"', 'it.skip("multiplies"')},
        ("test/calc.test.js", 10, "turned_off: multiplies: it.skip added"),
    ),
    "node:test { skip: true }": (
        {
            "test/calc.test.js": TESTS.replace(
                'it("multiplies", ', 'it("multiplies", { skip: true }, '
            )
        },
        ("test/calc.test.js", 10, "turned_off: multiplies: { skip: ... } added"),
    ),
    "it() deleted": (
        {
            "test/calc.test.js": TESTS.replace(
                '\n  it("multiplies", () => {\n    assert.strictEqual(calc.mul(2, 3), 6);\n  });\n',
                "",
            )
        },
        (
            "test/calc.test.js",
            1,
            "removed: calc > multiplies removed (line 10 at the base); no test with its body "
            "is left",
        ),
    ),
    "expected changed": (
        {"test/calc.test.js": TESTS.replace("calc.mul(2, 3), 6", "calc.mul(2, 3), 5")},
        ("test/calc.test.js", 11, "expected_changed: calc > multiplies: expected 6 changed to 5"),
    ),
    "weakened": (
        {
            "test/calc.test.js": TESTS.replace(
                "assert.strictEqual(calc.mul(2, 3), 6)", "assert.ok(calc.mul(2, 3))"
            )
        },
        (
            "test/calc.test.js",
            11,
            "weakened: calc > multiplies: `assert.strictEqual(calc.mul(2, 3), 6)` weakened to "
            "`assert.ok(calc.mul(2, 3))`",
        ),
    ),
    "node:test's t.assert weakened": (
        {
            "test/calc.test.js": TESTS.replace(
                '"multiplies", () => {\n    assert.strictEqual(calc.mul(2, 3), 6)',
                '"multiplies", (t) => {\n    t.assert.ok(calc.mul(2, 3))',
            )
        },
        (
            "test/calc.test.js",
            11,
            "weakened: calc > multiplies: `assert.strictEqual(calc.mul(2, 3), 6)` weakened to "
            "`t.assert.ok(calc.mul(2, 3))`",
        ),
    ),
    "try/catch": (
        {
            "test/calc.test.js": TESTS.replace(
                "    assert.strictEqual(calc.mul(2, 3), 6);\n",
                "    try {\n      assert.strictEqual(calc.mul(2, 3), 6);\n    } catch (e) {}\n",
            )
        },
        ("test/calc.test.js", 11, "swallowed: calc > multiplies: assertion swallowed by try/catch"),
    ),
    "package.json script narrowed": (
        {
            "package.json": json.dumps(NARROWED, indent=2) + "\n",
            "test/add.test.js": TESTS.split('\n  it("multiplies"')[0] + "\n});\n",
        },
        (
            "package.json",
            1,
            "runner_config: package.json: test no longer runs 1 spec file(s): test/calc.test.js",
        ),
    ),
    "module function stubbed": (
        {
            "test/calc.test.js": TESTS.replace(
                'const { describe, it } = require("node:test");',
                'const { describe, it, mock } = require("node:test");',
            ).replace(
                '  it("multiplies", () => {\n',
                '  it("multiplies", () => {\n    mock.method(calc, "mul", () => 6);\n',
            )
        },
        (
            "test/calc.test.js",
            11,
            "mocked: test/calc.test.js: mocks src/calc.js:mul, the module's own code: the test "
            "no longer tests it",
        ),
    ),
}
ASSERT_MUL = "    assert.strictEqual(calc.mul(2, 3), 6);\n"
#: A test rewritten so that its assertion cannot fail it: (the new lines, the line, what is said).
CANNOT_FAIL = {
    "checked against itself": (
        "    assert.strictEqual(calc.mul(2, 3), calc.mul(3, 2));\n",
        11,
        "weakened: calc > multiplies: expected 6 replaced by `calc . mul ( 3 2 )`: the code "
        "under test checked against itself",
    ),
    "an absolute tolerance": (
        "    assert.ok(Math.abs(calc.mul(2, 3) - 6) <= 1);\n",
        11,
        "weakened: calc > multiplies: exact `assert.strictEqual(calc.mul(2, 3), 6)` loosened "
        "to `assert.ok(Math.abs(calc.mul(2, 3) - 6) <= 1)`",
    ),
    "an array asserted": (
        '    assert.ok([calc.mul(2, 3) === 6, "mul"]);\n',
        11,
        "swallowed: calc > multiplies: assertion can never fail: "
        '`assert.ok([calc.mul(2, 3) === 6, "mul"])`',
    ),
    "|| true": (
        "    assert.ok(calc.mul(2, 3) === 6 || true);\n",
        11,
        "swallowed: calc > multiplies: assertion can never fail: "
        "`assert.ok(calc.mul(2, 3) === 6 || true)`",
    ),
    "an early return": (
        "    if (calc.mul(2, 3) !== 6) return;\n" + ASSERT_MUL,
        11,
        "swallowed: calc > multiplies: `return` before its assertions",
    ),
    "finally returns": (
        "    try {\n  " + ASSERT_MUL + "    } finally {\n      return;\n    }\n",
        11,
        "swallowed: calc > multiplies: assertion swallowed by a `finally` that returns",
    ),
}
for move, (lines, line, says) in CANNOT_FAIL.items():
    MOVES[move] = (
        {"test/calc.test.js": TESTS.replace(ASSERT_MUL, lines)},
        ("test/calc.test.js", line, says),
    )
MOVES["t.skip() when it would fail"] = (
    {
        "test/calc.test.js": TESTS.replace(
            '  it("multiplies", () => {\n',
            '  it("multiplies", (t) => {\n    if (calc.mul(2, 3) !== 6) {\n      t.skip();\n'
            "      return;\n    }\n",
        )
    },
    (
        "test/calc.test.js",
        12,
        "swallowed: calc > multiplies: `t.skip()` skips the test before its assertions",
    ),
)


@pytest.mark.parametrize("move", sorted(MOVES))
def test_a_move_that_hides_the_bug_from_node_fails_the_module(
    run_forge: RunForge, calc: Path, move: str
) -> None:
    files, finding = MOVES[move]
    write(calc, {"src/calc.js": BROKEN, **files})
    code, report = validate(run_forge, calc)
    [command] = [r for r in report["results"] if r["type"] == "command"]
    assert command["passed"], command  # node's runner was gamed: only forge sees it
    assert code == 1 and finding in failing(report), report


#: mocha's forms, judged from the files: the verify command may fail too, the finding stands.
MOCHA = {
    "xit": (
        {"test/calc.test.js": TESTS.replace('it("multiplies"', 'xit("multiplies"')},
        ("test/calc.test.js", 10, "turned_off: multiplies: xit added"),
    ),
    "it.only": (
        {"test/calc.test.js": TESTS.replace('it("adds"', 'it.only("adds"')},
        (
            "test/calc.test.js",
            6,
            "turned_off: adds: it.only added: every other test in the file is switched off",
        ),
    ),
    ".mocharc.json grep": (
        {".mocharc.json": json.dumps({"grep": "adds"})},
        (".mocharc.json", 1, "runner_config: .mocharc.json: grep set to 'adds'"),
    ),
    "expect().toBe() to toBeDefined()": (
        {
            "test/calc.test.js": TESTS.replace(
                "assert.strictEqual(calc.mul(2, 3), 6)", "expect(calc.mul(2, 3)).toBeDefined()"
            )
        },
        (
            "test/calc.test.js",
            11,
            "weakened: calc > multiplies: `assert.strictEqual(calc.mul(2, 3), 6)` weakened to "
            "`expect(calc.mul(2, 3)).toBeDefined()`",
        ),
    ),
}


@pytest.mark.parametrize("move", sorted(MOCHA))
def test_mochas_forms_fail_the_module(run_forge: RunForge, calc: Path, move: str) -> None:
    files, finding = MOCHA[move]
    package = {**PACKAGE, "scripts": {"test": "mocha"}}
    write(calc, {"package.json": json.dumps(package, indent=2) + "\n"})
    git(calc, "commit", "-qam", "mocha")
    git(calc, "branch", "-f", "main", "HEAD")
    write(calc, files)
    code, report = validate(run_forge, calc)
    assert code == 1 and finding in failing(report), report


HONEST = {
    "new test": TESTS.replace(
        "\n});\n",
        '\n\n  it("multiplies negatives", () => {\n'
        "    assert.strictEqual(calc.mul(-2, 3), -6);\n  });\n});\n",
    ),
    "renamed": TESTS.replace('it("multiplies"', 'it("multiplies two numbers"'),
    "reformatted": TESTS.replace(
        "assert.strictEqual(calc.mul(2, 3), 6);",
        "// the spec\n    assert.strictEqual(\n      calc.mul(2, 3),\n      6,\n    );",
    ),
    "a return after the assertions": TESTS.replace(ASSERT_MUL, ASSERT_MUL + "    return;\n"),
    "a callback returning before them": TESTS.replace(
        ASSERT_MUL,
        "    const products = [2, 3].map((n) => {\n      return n * 2;\n    });\n"
        "    assert.deepStrictEqual(products, [4, 6]);\n" + ASSERT_MUL,
    ),
    "an expectation computed": TESTS.replace("calc.mul(2, 3), 6", "calc.mul(2, 3), 2 * 3"),
    "stricter": TESTS.replace(
        "assert.strictEqual(calc.mul(2, 3), 6);",
        "assert.strictEqual(calc.mul(2, 3), 6);\n    assert.strictEqual(calc.mul(3, 3), 9);",
    ),
}


@pytest.mark.parametrize("edit", sorted(HONEST))
def test_an_honest_edit_of_the_js_tests_passes(run_forge: RunForge, calc: Path, edit: str) -> None:
    write(calc, {"test/calc.test.js": HONEST[edit]})
    code, report = validate(run_forge, calc)
    spec = [r for r in report["results"] if r["type"] == "spec_tests"]
    assert spec and all(r["passed"] for r in spec), report
    assert code == 0, report
