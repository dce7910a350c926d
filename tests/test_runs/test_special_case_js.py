"""JavaScript special-casing: the spec calls read from each assertion form, the function
shapes a branch may sit in, and honest code that must never match."""

from __future__ import annotations

import pytest

from forge.test_runs.special_case_js import js_expectations, js_literal_answers

SPEC = """\
const assert = require("node:assert");
const { expect } = require("chai");

it("forms", () => {
  assert.strictEqual(mul(2, 3), 6);
  assert.deepStrictEqual(pair(1, 7), [1, 7]);
  assert.equal(-4, neg(4));
  expect(calc.sum(10, 20)).toStrictEqual(30);
  expect(new Calc().mod(9, 4)).to.eql(1);
  expect(mul(5, 5)).not.toBe(26);
  expect(mul(x, 3)).toBe(6);
  expect(label(5)).toBe(`five ${x}`);
});
"""


def test_each_assertion_form_gives_its_call_and_answer() -> None:
    found = [(e.function, e.args, e.expected) for e in js_expectations("t.test.js", SPEC)]
    assert found == [
        ("mul", (2, 3), 6),
        ("pair", (1, 7), [1, 7]),
        ("neg", (4,), -4),
        ("sum", (10, 20), 30),
        ("mod", (9, 4), 1),
    ]


def lines(code: str, old: str | None = None, path: str = "src/calc.js") -> list[int]:
    specs = js_expectations("test/calc.test.js", SPEC)
    return [finding.line for finding in js_literal_answers(path, old, code, specs)]


@pytest.mark.parametrize(
    "code",
    [
        "const mul = (a, b) => (a === 2 && b === 3 ? 6 : a * b);",
        "exports.mul = function (a, b) {\n  if ((a === 2) && (3 === b)) return 6;\n  return 0;\n};",
        "module.exports = {\n  mul(a, b) {\n    if (a == 2 && b == 3) { log(); return 6; }\n  },\n};",
        "function mul(a, b = 1) {\n  return [a].map(() => {\n    if (a === 2 && b === 3) return 6;\n  });\n}",
        "function pair(a, b) {\n  if (a === 1 && b === 7) return [1, 7];\n}",
    ],
)
def test_a_literal_answer_is_found_in_every_function_shape(code: str) -> None:
    assert len(lines(code)) == 1


@pytest.mark.parametrize(
    "code",
    [
        # the branch pins a name that is not the function's parameter
        "function mul(x, y) {\n  if (a === 2 && b === 3) return 6;\n}",
        # another function of the same file with the spec's name as a callee
        "function twice(a, b) {\n  if (a === 2 && b === 3) return 6;\n  return mul(a, b);\n}",
        # a comparison that is not equality
        "function mul(a, b) {\n  if (a !== 2 && b === 3) return 6;\n}",
        # a destructured parameter: its position is not a name
        "function mul({ a }, b) {\n  if (a === 2 && b === 3) return 6;\n}",
        # JSON.stringify of the arguments is not read (precision first)
        'function mul(a, b) {\n  if (JSON.stringify([a, b]) === "[2,3]") return 6;\n}',
        # a negated expectation is no spec answer
        "function mul(a, b) {\n  if (a === 5 && b === 5) return 26;\n}",
    ],
)
def test_other_shapes_are_not_special_cases(code: str) -> None:
    assert lines(code) == []


def test_a_branch_at_the_base_reformatted_is_not_new() -> None:
    old = "function mul(a, b) {\n  if (a === 2 && b === 3) return 6;\n  return a * b;\n}\n"
    new = "// multiply\nfunction mul(a, b) {\n  if (a === 2  &&  b === 3)\n    return 6;\n  return a*b;\n}\n"
    assert lines(new, old) == []
    assert lines(new, "function mul(a, b) {\n  return a * b;\n}\n") == [3]


def test_typescript_parameters_are_read() -> None:
    code = "export const mul = (a: number, b?: number): number => a === 2 && b === 3 ? 6 : 0;\n"
    assert lines(code, path="src/calc.ts") == [1]
