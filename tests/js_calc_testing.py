"""A JavaScript project for the spec-test checks: module ``calc`` owns ``src/calc.js``,
may change ``test/**``, ``package.json`` and ``.mocharc.json``, verified by ``npm test``
(``node --test``, node's built-in runner: nothing installed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

module.exports = { add, mul };
"""
BROKEN = CALC.replace("return a * b", "return a + b")
TESTS = """\
const { describe, it } = require("node:test");
const assert = require("node:assert");
const calc = require("../src/calc");

describe("calc", () => {
  it("adds", () => {
    assert.strictEqual(calc.add(2, 3), 5);
  });

  it("multiplies", () => {
    assert.strictEqual(calc.mul(2, 3), 6);
  });
});
"""
PACKAGE = {"name": "calc", "version": "1.0.0", "private": True, "scripts": {"test": "node --test"}}
PLAN = {
    "modules": [
        {
            "id": "calc",
            "title": "Calc",
            "objective": "Multiplication works.",
            "files": ["src/calc.js"],
            "mayChange": ["test/**", "package.json", ".mocharc.json"],
            "verify": ["npm test"],
            "doneWhen": "The tests pass.",
        }
    ]
}


def calc_project(project: Path) -> Path:
    """The project on branch ``work``, forked from ``main`` where the spec tests pass."""
    git(project, "init", "-q", "-b", "main")
    plan = project / ".forge" / "plans" / "p.json"
    plan.parent.mkdir(parents=True)
    plan.write_text(json.dumps(PLAN), encoding="utf-8")
    commit(
        project,
        {
            ".gitignore": ".forge/\nnode_modules/\n",
            "package.json": json.dumps(PACKAGE, indent=2) + "\n",
            "src/calc.js": CALC,
            "test/calc.test.js": TESTS,
        },
        "base",
    )
    git(project, "checkout", "-q", "-b", "work")
    return project


def validate(run_forge: RunForge, project: Path) -> tuple[int, Any]:
    """``forge validate --plan P --module calc --base main --json``: (exit code, report)."""
    completed = run_forge(
        "validate", "--plan", ".forge/plans/p.json", "--module", "calc", "--base", "main", "--json"
    )
    assert completed.returncode in {0, 1}, completed.stderr
    return completed.returncode, json.loads(completed.stdout)


def write(project: Path, files: dict[str, str]) -> None:
    """The worker's edit, uncommitted."""
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
