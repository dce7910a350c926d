"""``spec_collection`` on JavaScript: a run that lists fewer spec tests than the base fails.

node's own runner (nothing installed) and mocha (installed from npm: slow, skipped
without the network) list their tests at the base (exported from git) and in the
worker's tree; each base test the work no longer lists is named, with its file:line
at the base. Renamed, moved and new tests pass.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from forge_testing import git, npm_installed
from js_calc_testing import CALC, PACKAGE, TESTS, calc_project, validate, write

if TYPE_CHECKING:
    from forge_testing import RunForge

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

MULTIPLIES = '\n  it("multiplies", () => {\n    assert.strictEqual(calc.mul(2, 3), 6);\n  });\n'
GONE = "test/calc.test.js::calc > multiplies"


def collection(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``spec_collection`` results of a report."""
    return [r for r in report["results"] if r["type"] == "spec_collection"]


def package(script: str) -> dict[str, str]:
    """``package.json`` with ``script`` as its test script."""
    return {"package.json": json.dumps({**PACKAGE, "scripts": {"test": script}}, indent=2) + "\n"}


NODE_MOVES = {
    "test deleted": {"test/calc.test.js": TESTS.replace(MULTIPLIES, "")},
    "script narrowed by name": package("node --test --test-name-pattern=adds"),
    "script narrowed to a file": {
        **package("node --test test/add.test.js"),
        "test/add.test.js": TESTS.replace(MULTIPLIES, ""),
    },
    "skip pattern in the script": package('node --test --test-skip-pattern "/MULTIPLIES/i"'),
}


@pytest.mark.parametrize("move", sorted(NODE_MOVES))
def test_a_node_run_listing_fewer_spec_tests_fails_naming_them(
    run_forge: RunForge, project: Path, move: str
) -> None:
    calc = calc_project(project)
    write(calc, {"src/calc.js": CALC, **NODE_MOVES[move]})
    code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert code == 1 and not result["passed"], result
    assert result["message"].startswith("1 of the 2 spec tests of main"), result
    assert GONE in result["message"], result
    assert [(p["path"], p["line"]) for p in result["locations"]] == [("test/calc.test.js", 10)]
    # The base's listing is cached beside the project's state, as pytest's is.
    assert list((calc / ".forge" / "cache" / "spec-collection").glob("*.json"))


HONEST = {
    "renamed": {"test/calc.test.js": TESTS.replace('it("multiplies"', 'it("multiplies two"')},
    "moved to another file": {
        "test/calc.test.js": TESTS.replace(MULTIPLIES, ""),
        "test/mul.test.js": TESTS.replace('it("adds"', 'it.skip("adds"').replace(
            'describe("calc"', 'describe("mul"'
        ),
    },
    "a test added": {
        "test/calc.test.js": TESTS.replace(
            "\n});\n",
            '\n  it("multiplies by 0", () => {\n    assert.strictEqual(calc.mul(0, 3), 0);'
            "\n  });\n});\n",
        )
    },
    "script gains a harmless option": package("node --test --test-concurrency=1"),
}


@pytest.mark.parametrize("edit", sorted(HONEST))
def test_honest_twins_keep_every_node_spec_test_listed(
    run_forge: RunForge, project: Path, edit: str
) -> None:
    calc = calc_project(project)
    write(calc, {"src/calc.js": CALC, **HONEST[edit]})
    _code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert result["passed"] and "all 2 spec tests of main" in result["message"], result["message"]


def test_a_setup_file_ending_the_listing_fails_it(run_forge: RunForge, project: Path) -> None:
    calc = calc_project(project)
    write(
        calc,
        {
            "src/calc.js": CALC,
            "setup.js": "process.exit(0);\n",
            **package("node -r ./setup.js --test"),
        },
    )
    code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert code == 1 and not result["passed"], result
    assert result["message"].startswith("cannot collect the tests: node could not list"), result


# --- mocha, installed from npm -------------------------------------------------------

MOCHA_TESTS = TESTS.replace('const { describe, it } = require("node:test");\n', "")
MOCHA_MOVES = {
    ".mocharc.json grep": {".mocharc.json": json.dumps({"grep": "adds"})},
    ".mocharc.json spec narrowed": {
        ".mocharc.json": json.dumps({"spec": "test/add.test.js"}),
        "test/add.test.js": MOCHA_TESTS.replace(MULTIPLIES, ""),
    },
    "script narrowed by grep": package("mocha --grep adds"),
    "it.only": {"test/calc.test.js": MOCHA_TESTS.replace('it("adds"', 'it.only("adds"')},
    "test deleted": {"test/calc.test.js": MOCHA_TESTS.replace(MULTIPLIES, "")},
}
MOCHA_HONEST = {
    "renamed": {"test/calc.test.js": MOCHA_TESTS.replace('it("multiplies"', 'it("times"')},
    "a test added": {"test/calc.test.js": MOCHA_TESTS.replace("\n});\n", MULTIPLIES.replace(
        "multiplies", "multiplies again") + "});\n")},
    "it.skip (switched off, still listed)": {
        "test/calc.test.js": MOCHA_TESTS.replace('it("multiplies"', 'it.skip("multiplies"')
    },
}  # fmt: skip


def mocha_project(project: Path) -> Path:
    """The calc project run by mocha (``npm test``), its ``node_modules`` linked in."""
    calc = calc_project(project)
    installed = npm_installed("mocha@12") / "node_modules"
    (calc / "node_modules").symlink_to(installed, target_is_directory=True)
    write(calc, {**package("mocha"), "test/calc.test.js": MOCHA_TESTS})
    git(calc, "commit", "-qam", "mocha")
    git(calc, "branch", "-f", "main", "HEAD")
    return calc


@pytest.mark.slow
@pytest.mark.parametrize("move", sorted(MOCHA_MOVES))
def test_a_mocha_run_listing_fewer_spec_tests_fails_naming_them(
    run_forge: RunForge, project: Path, move: str
) -> None:
    calc = mocha_project(project)
    write(calc, {"src/calc.js": CALC, **MOCHA_MOVES[move]})
    code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert code == 1 and not result["passed"], result
    assert GONE in result["message"], result
    assert ("test/calc.test.js", 9) in [(p["path"], p["line"]) for p in result["locations"]]


@pytest.mark.slow
@pytest.mark.parametrize("edit", sorted(MOCHA_HONEST))
def test_honest_twins_keep_every_mocha_spec_test_listed(
    run_forge: RunForge, project: Path, edit: str
) -> None:
    calc = mocha_project(project)
    write(calc, {"src/calc.js": CALC, **MOCHA_HONEST[edit]})
    _code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert result["passed"] and "all 2 spec tests of main" in result["message"], result["message"]


@pytest.mark.slow
def test_a_mocha_setup_file_calling_process_exit_fails_the_listing(
    run_forge: RunForge, project: Path
) -> None:
    calc = mocha_project(project)
    write(calc, {"setup.js": "process.exit(0);\n", ".mocharc.json": '{"require": "./setup.js"}'})
    code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert code == 1 and not result["passed"], result
    assert result["message"].startswith("cannot collect the tests: mocha could not list"), result


# --- vitest, installed from npm ------------------------------------------------------

VITEST_CALC = "export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n"
VITEST_TESTS = (
    MOCHA_TESTS.replace(
        'const assert = require("node:assert");\n',
        'import { describe, it, expect } from "vitest";\n',
    )
    .replace('const calc = require("../src/calc");', 'import * as calc from "../src/calc.js";')
    .replace("assert.strictEqual(calc.add(2, 3), 5)", "expect(calc.add(2, 3)).toBe(5)")
    .replace("assert.strictEqual(calc.mul(2, 3), 6)", "expect(calc.mul(2, 3)).toBe(6)")
)
VITEST_MULTIPLIES = MULTIPLIES.replace(
    "assert.strictEqual(calc.mul(2, 3), 6)", "expect(calc.mul(2, 3)).toBe(6)"
)
VITEST_MOVES = {
    "config include narrowed": {
        "vitest.config.js": "export default { test: { include: ['test/add.test.js'] } };\n",
        "test/add.test.js": VITEST_TESTS.replace(VITEST_MULTIPLIES, ""),
    },
    "script narrowed by -t": {"package.json": "vitest run -t adds"},
    "test deleted": {"test/calc.test.js": VITEST_TESTS.replace(VITEST_MULTIPLIES, "")},
}
VITEST_HONEST = {
    "renamed": {"test/calc.test.js": VITEST_TESTS.replace('it("multiplies"', 'it("times"')},
    "script gains a reporter": {"package.json": "vitest run --reporter=dot"},
}  # fmt: skip


def vitest_manifest(script: str) -> str:
    """An ES-module ``package.json`` whose test script is ``script``."""
    return json.dumps({**PACKAGE, "type": "module", "scripts": {"test": script}}, indent=2) + "\n"


def vitest_project(project: Path, files: dict[str, str]) -> Path:
    """The calc project as ES modules run by ``vitest run`` (``npm test``), then ``files``."""
    calc = calc_project(project)
    installed = npm_installed("vitest@3") / "node_modules"
    (calc / "node_modules").symlink_to(installed, target_is_directory=True)
    write(calc, {"package.json": vitest_manifest("vitest run"), "src/calc.js": VITEST_CALC,
                 "test/calc.test.js": VITEST_TESTS})  # fmt: skip
    git(calc, "commit", "-qam", "vitest")
    git(calc, "branch", "-f", "main", "HEAD")
    if "package.json" in files:  # the test script given
        files = {**files, "package.json": vitest_manifest(files["package.json"])}
    write(calc, files)
    return calc


@pytest.mark.slow
@pytest.mark.parametrize("move", sorted(VITEST_MOVES))
def test_a_vitest_run_listing_fewer_spec_tests_fails_naming_them(
    run_forge: RunForge, project: Path, move: str
) -> None:
    calc = vitest_project(project, VITEST_MOVES[move])
    code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert code == 1 and not result["passed"], result
    assert GONE in result["message"], result


@pytest.mark.slow
@pytest.mark.parametrize("edit", sorted(VITEST_HONEST))
def test_honest_twins_keep_every_vitest_spec_test_listed(
    run_forge: RunForge, project: Path, edit: str
) -> None:
    calc = vitest_project(project, VITEST_HONEST[edit])
    _code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert result["passed"] and "all 2 spec tests of main" in result["message"], result["message"]


def test_a_base_where_node_lists_no_test_is_skipped_not_passed(
    run_forge: RunForge, project: Path
) -> None:
    calc = calc_project(project)
    write(calc, {"test/calc.test.js": 'require("node:test");\n'})
    git(calc, "commit", "-qam", "no tests yet")
    git(calc, "branch", "-f", "main", "HEAD")
    write(calc, {"test/calc.test.js": TESTS})
    _code, report = validate(run_forge, calc)
    (result,) = collection(report)
    assert result.get("skipped") and "node listed no test" in result["message"], result
