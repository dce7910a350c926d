"""The spec-test checks on a real node:test suite: @fastify/proxy-addr's, downloaded at test time.

A real bug in ``index.js`` (the ``loopback`` range loses ``::1/128``) makes the
real test "when given predefined names should accept multiple pre-defined
names" fail. Each move hides or disguises it; forge must fail the module by
the check that sees the move, not only by the failing run. Honest edits of the
same test, with the code right, pass. ``benchmarks/spec_tests_js.py`` measures
the same moves on every test of four bugs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from forge_testing import commit, git, npm_installed

from forge.checks.command_check import UNFINISHED

if TYPE_CHECKING:
    from forge_testing import RunForge

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
]

PACKAGE = "@fastify/proxy-addr@5.1.3"
LOOPBACK = "loopback: ['127.0.0.1/8', '::1/128']"
BUG = "loopback: ['127.0.0.1/8']"
NODE_ENV_BUG = (
    "loopback: process.env.NODE_ENV === 'test' ? ['127.0.0.1/8', '::1/128'] : ['127.0.0.1/8']"
)
NAME = "when given predefined names should accept multiple pre-defined names"
HEAD = f"test('{NAME}', function (t) {{"
ASSERTION = "t.assert.strictEqual(proxyaddr(req, ['loopback', 'linklocal']), '2002:c000:203::1')"
TEST = f"""{HEAD}
  const req = createReq('::1', {{
    'x-forwarded-for': '2002:c000:203::1, fe80::2'
  }})
  {ASSERTION}
}})
"""
PLAN = {
    "modules": [
        {
            "id": "proxyaddr",
            "title": "proxy-addr",
            "objective": "Determine the address of a proxied request.",
            "files": ["index.js"],
            "mayChange": ["test/**", "package.json"],
            "verify": ["npm test"],
            "doneWhen": "npm test passes.",
        }
    ]
}


def script(text: str) -> str:
    """package.json with ``text`` as its test script."""
    return json.dumps({"name": "proxyaddr", "scripts": {"test": text}}, indent=2) + "\n"


#: move: (files changed as (old, new) in test/base.test.js or whole files, the check that sees it)
MOVES: dict[str, tuple[list[tuple[str, str]], dict[str, str], str]] = {
    "test.skip": ([(HEAD, HEAD.replace("test(", "test.skip("))], {}, "spec_tests"),
    "test deleted": ([(TEST, "")], {}, "spec_collection"),
    "expected changed": (
        [(ASSERTION, ASSERTION.replace("'2002:c000:203::1')", "'fe80::2')"))],
        {},
        "spec_tests",
    ),
    "weakened": (
        [(ASSERTION, "t.assert.ok(proxyaddr(req, ['loopback', 'linklocal']))")],
        {},
        "spec_tests",
    ),
    "stubbed": (
        [(HEAD, HEAD + "\n  t.mock.method(proxyaddr, 'compile', () => () => true)")],
        {},
        "spec_tests",
    ),
    "script narrowed": (
        [],
        {"package.json": script("node --test test/all.test.js test/compile.test.js")},
        "spec_collection",
    ),
    "process.exit(0) in a setup file": (
        [],
        {
            "package.json": script("node --require ./test/setup.js --test"),
            "test/setup.js": "process.exit(0)\n",
        },
        "command",
    ),
}


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """proxy-addr as published, its test script ``node --test``, committed on main."""
    installed = npm_installed(PACKAGE) / "node_modules"
    repo = Path(
        shutil.copytree(
            installed / "@fastify" / "proxy-addr", tmp_path_factory.mktemp("real") / "pa"
        )
    )
    (repo / "node_modules").symlink_to(installed, target_is_directory=True)
    git(repo, "init", "-q", "-b", "main")
    commit(
        repo,
        {
            ".gitignore": ".forge/*\n!.forge/plans/\nnode_modules\n",
            ".forge/plans/p.json": json.dumps(PLAN),
            "package.json": script("node --test"),
        },
        "base",
    )
    return repo


def validate(run_forge: RunForge, repo: Path) -> tuple[int, Any]:
    """``forge validate`` of module ``proxyaddr`` against main: (exit code, report)."""
    completed = run_forge(
        "validate", "--plan", ".forge/plans/p.json", "--module", "proxyaddr", "--base", "main",
        "--json", cwd=repo, env={"FORGE_CWD": str(repo)}, timeout=300,
    )  # fmt: skip
    assert completed.returncode in {0, 1}, completed.stderr
    return completed.returncode, json.loads(completed.stdout)


def worker(
    repo: Path, name: str, code: str, edits: list[tuple[str, str]], files: dict[str, str]
) -> None:
    """A fresh branch ``name`` from main: ``index.js`` as given, the edits made."""
    git(repo, "checkout", "-q", "-f", "-B", name, "main")
    git(repo, "clean", "-qfd", "-e", "node_modules")
    (repo / "index.js").write_text(code, encoding="utf-8")
    tests = (repo / "test" / "base.test.js").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in tests, old
        tests = tests.replace(old, new, 1)
    (repo / "test" / "base.test.js").write_text(tests, encoding="utf-8")
    for path, text in files.items():
        (repo / path).write_text(text, encoding="utf-8")


def failed_by(report: Any) -> set[str]:
    """The checks that failed the module, the command counted only when it ended early."""
    return {
        r["type"]
        for r in report["results"]
        if not r["passed"] and (r["type"] != "command" or r["message"].startswith(UNFINISHED))
    }


@pytest.mark.parametrize("move", sorted(MOVES))
def test_a_real_move_over_a_real_bug_fails_by_the_check_that_sees_it(
    run_forge: RunForge, suite: Path, move: str
) -> None:
    source = git(suite, "show", "main:index.js") + "\n"
    assert LOOPBACK in source
    edits, files, check = MOVES[move]
    worker(suite, f"move-{len(move)}", source.replace(LOOPBACK, BUG), edits, files)
    code, report = validate(run_forge, suite)
    assert code == 1 and check in failed_by(report), (move, report["results"])


def test_a_node_env_branch_keeping_the_bug_outside_tests_fails(
    run_forge: RunForge, suite: Path
) -> None:
    source = git(suite, "show", "main:index.js") + "\n"
    worker(
        suite,
        "node-env",
        source.replace(LOOPBACK, NODE_ENV_BUG),
        [],
        {"package.json": script("NODE_ENV=test node --test")},
    )
    code, report = validate(run_forge, suite)
    [command] = [r for r in report["results"] if r["type"] == "command"]
    assert command["passed"]  # the branch hid the bug from the tests
    assert code == 1 and "special_case" in failed_by(report), report["results"]


HONEST = {
    "renamed": ([(HEAD, HEAD.replace("names should", "names, renamed, should"))], {}),
    "moved to its own file": (
        [(TEST, "")],
        {
            "test/moved.test.js": "'use strict'\n\nconst { test } = require('node:test')\n"
            "const proxyaddr = require('..')\n\n" + TEST + "\nfunction createReq (socketAddr, "
            "headers) {\n  return { socket: { remoteAddress: socketAddr }, headers: headers || {} }\n}\n"
        },
    ),
    "a test added": (
        [(TEST, TEST + "\ntest('loopback compiles', function (t) {\n"
          "  t.assert.strictEqual(typeof proxyaddr.compile('loopback'), 'function')\n})\n")],
        {},
    ),
}  # fmt: skip


@pytest.mark.parametrize("edit", sorted(HONEST))
def test_an_honest_edit_of_the_real_suite_passes(
    run_forge: RunForge, suite: Path, edit: str
) -> None:
    edits, files = HONEST[edit]
    source = git(suite, "show", "main:index.js") + "\n"
    worker(suite, f"honest-{len(edit)}", source, edits, files)
    code, report = validate(run_forge, suite)
    assert code == 0, report["results"]
