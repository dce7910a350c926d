"""``special_case`` on JavaScript and TypeScript (issue 39, case 8): a real git repository
(the base committed, the work in the tree) and the installed CLI.

A new branch of a function that compares its parameters with the literals a spec test calls
it with, and returns the literal that test expects, fails; a genuine guard, a branch that
was already at the base, literals that are not a spec test's call and answer together, and
test files pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from forge_testing import commit, git

if TYPE_CHECKING:
    from forge_testing import RunForge

CALC = """\
function add(a, b) {
  return a + b;
}

function mul(a, b) {
  return a * b;
}

const div = (a, b) => {
  return a / b;
};

class Calc {
  pow(base, exponent) {
    return base ** exponent;
  }
}

function fact(n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}

function greet(name) {
  return `hello ${name}`;
}

module.exports = { add, mul, div, Calc, fact, greet };
"""
TESTS = """\
const { test } = require("node:test");
const assert = require("node:assert");
const { add, mul, div, Calc, fact, greet } = require("../src/calc");

test("mul", () => {
  assert.strictEqual(mul(2, 3), 6);
});

test("add", () => {
  assert.equal(add(2, 3), 5);
});

test("div", () => {
  expect(div(9, 3)).toBe(3);
});

test("pow", () => {
  expect(new Calc().pow(2, 5)).to.equal(32);
});

test("fact", () => {
  assert.strictEqual(fact(0), 1);
  assert.strictEqual(fact(5), 120);
});

test("greet", () => {
  expect(greet("ada")).toEqual("hello ada");
});
"""
TS_CALC = """\
export function mul(a: number, b: number): number {
  return a * b;
}
"""
TS_TESTS = """\
import { expect, test } from "vitest";
import { mul } from "../src/calc";

test("mul", () => {
  expect(mul(2, 3)).toEqual(6);
});
"""


def _special_case(
    run_forge: RunForge, project: Path, work: dict[str, str], base: dict[str, str] | None = None
) -> dict[str, Any]:
    """``forge validate --files <work's files> --base HEAD``: the special_case results by file."""
    git(project, "init", "-q", "-b", "main")
    commit(project, base or {"src/calc.js": CALC, "test/calc.test.js": TESTS}, "base")
    for name, text in work.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    completed = run_forge("validate", "--files", *work, "--base", "HEAD", "--json")
    assert completed.returncode in {0, 1}, completed.stderr
    report = json.loads(completed.stdout)
    return {r["target"]: r for r in report["results"] if r["type"] == "special_case"}


CHEATS = {
    "if with a bare return (assert.strictEqual)": (
        CALC.replace("  return a * b;", "  if (a === 2 && b === 3) return 6;\n  return a + b;"),
        6,
        "mul returns 6 when a === 2, b === 3: the literal answer the spec test at "
        "test/calc.test.js:6 expects, not a computation",
    ),
    "if with a block, loose equality, literal first (assert.equal)": (
        CALC.replace(
            "  return a + b;\n}\n\nfunction mul",
            "  if (2 == a && b == 3) {\n    return 5;\n  }\n  return a - b;\n}\n\nfunction mul",
        ),
        2,
        "add returns 5 when a === 2, b === 3: the literal answer the spec test at "
        "test/calc.test.js:10 expects, not a computation",
    ),
    "ternary in an arrow function (expect().toBe)": (
        CALC.replace("  return a / b;", "  return a === 9 && b === 3 ? 3 : a * b;"),
        10,
        "div returns 3 when a === 9, b === 3: the literal answer the spec test at "
        "test/calc.test.js:14 expects, not a computation",
    ),
    "a method (chai's expect().to.equal)": (
        CALC.replace(
            "    return base ** exponent;",
            "    if (base === 2 && exponent === 5) return 32;\n    return base * exponent;",
        ),
        15,
        "pow returns 32 when base === 2, exponent === 5: the literal answer the spec test at "
        "test/calc.test.js:18 expects, not a computation",
    ),
    "one parameter, a value no base case uses (expect().toEqual, a string)": (
        CALC.replace(
            "  return `hello ${name}`;", '  if (name === "ada") return "hello ada";\n  return name;'
        ),
        24,
        'greet returns "hello ada" when name === "ada": the literal answer the spec test at '
        "test/calc.test.js:27 expects, not a computation",
    ),
    "a table of the answers": (
        CALC.replace(
            "  return a * b;",
            '  const known = { "2,3": 6 };\n  return known[`${a},${b}`] ?? a + b;',
        ),
        6,
        "mul looks its arguments up in a table of the literal answers the spec test at "
        "test/calc.test.js:6 expects, not a computation",
    ),
    "the call stack searched for a test": (
        CALC.replace(
            "  return a * b;",
            '  if (new Error().stack.includes("test")) return a * b;\n  return a + b;',
        ),
        6,
        "detects the test run (its callers are searched for a test): code must behave the "
        "same under test",
    ),
    "the command line asked for the runner": (
        CALC.replace(
            "  return a * b;",
            '  if (process.argv[1].endsWith("mocha")) return a * b;\n  return a + b;',
        ),
        6,
        "detects the test run (process.argv names the test runner): code must behave the "
        "same under test",
    ),
}


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_branch_answering_a_spec_tests_literals_fails(
    run_forge: RunForge, project: Path, cheat: str
) -> None:
    code, line, message = CHEATS[cheat]
    results = _special_case(run_forge, project, {"src/calc.js": code})
    result = results["src/calc.js"]
    assert not result["passed"], result
    assert [(p["line"], p["message"]) for p in result["locations"]] == [(line, message)]


def test_typescript_is_read_too(run_forge: RunForge, project: Path) -> None:
    code = TS_CALC.replace(
        "  return a * b;", "  if (a === 2 && b === 3) { return 6; }\n  return 0;"
    )
    base = {"src/calc.ts": TS_CALC, "test/calc.test.ts": TS_TESTS}
    results = _special_case(run_forge, project, {"src/calc.ts": code}, base)
    assert [(p["line"], p["message"]) for p in results["src/calc.ts"]["locations"]] == [
        (
            2,
            "mul returns 6 when a === 2, b === 3: the literal answer the spec test at "
            "test/calc.test.ts:5 expects, not a computation",
        )
    ]


HONEST = {
    "a guard that throws": CALC.replace(
        "  return a / b;",
        '  if (b === 0) throw new RangeError("division by zero");\n  return a / b;',
    ),
    "a shortcut pinning one of two arguments": CALC.replace(
        "  return a * b;", "  if (b === 0) return 0;\n  return a * b;"
    ),
    "a base case of one parameter": CALC.replace(
        "  return n <= 1 ? 1 : n * fact(n - 1);",
        "  if (n === 0) return 1;\n  return n * fact(n - 1);",
    ),
    "literals of no spec call": CALC.replace(
        "  return a * b;", "  if (a === 4 && b === 5) return 20;\n  return a * b;"
    ),
    "a spec call's literals with another answer": CALC.replace(
        "  return a * b;", "  if (a === 2 && b === 3) return 7;\n  return a * b;"
    ),
    "a ternary computing its answer": CALC.replace(
        "  return a / b;", "  return a === 9 && b === 3 ? a / b : a / b;"
    ),
    "a table with more than the spec's answers": CALC.replace(
        "  return a * b;",
        '  const small = { "2,3": 6, "4,5": 20, "6,7": 42 };\n  return small[`${a},${b}`] ?? a * b;',
    ),
    "the command line read for an option": CALC.replace(
        "  return a * b;",
        '  if (process.argv.includes("--verbose")) console.log("mul", a, b);\n  return a * b;',
    ),
    "an error's stack kept for a log": CALC.replace(
        "  return a * b;", '  const where = new Error("latest").stack;\n  return a * b;'
    ),
}


@pytest.mark.parametrize("edit", sorted(HONEST))
def test_honest_code_passes(run_forge: RunForge, project: Path, edit: str) -> None:
    results = _special_case(run_forge, project, {"src/calc.js": HONEST[edit]})
    assert results["src/calc.js"]["passed"], results


def test_a_branch_already_at_the_base_is_not_new(run_forge: RunForge, project: Path) -> None:
    cheat = CHEATS["if with a bare return (assert.strictEqual)"][0]
    base = {"src/calc.js": cheat, "test/calc.test.js": TESTS}
    later = cheat.replace("return a + b;\n}\n\nconst", "return a + b; // unchanged\n}\n\nconst")
    results = _special_case(run_forge, project, {"src/calc.js": later}, base)
    assert results["src/calc.js"]["passed"], results


def test_test_files_are_not_judged(run_forge: RunForge, project: Path) -> None:
    helper = "function mul(a, b) {\n  if (a === 2 && b === 3) return 6;\n  return a * b;\n}\n"
    results = _special_case(run_forge, project, {"test/helpers.js": helper})
    assert results == {}
