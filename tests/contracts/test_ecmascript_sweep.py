"""JavaScript and TypeScript contracts, third accuracy sweep (issue 30).

Each construct comes from real code (eslint-plugin-import's rule tests, TypeScript
projects whose tests import their build output) and is rebuilt here as a small
project, with a look-alike that is really broken and must still be reported. Each
project is checked by the installed ``forge validate``.
"""

from __future__ import annotations

import json
from pathlib import Path

from forge_testing import RunForge


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def failures(run_forge: RunForge, root: Path, *files: str) -> list[str]:
    """``target: message`` of each failing contract_check of ``forge validate --files FILES``."""
    completed = run_forge("validate", "--json", "--cwd", str(root), "--files", *files)
    assert completed.returncode in (0, 1), completed.stderr
    results = json.loads(completed.stdout)["results"]
    contracts = [result for result in results if result["type"] == "contract_check"]
    assert contracts, "no contract was checked"
    return sorted(f"{r['target']}: {r['message']}" for r in contracts if not r["passed"])


def test_require_of_a_template_literal_without_expressions_resolves_like_a_string(
    run_forge: RunForge, project: Path
) -> None:
    write(
        project,
        {
            "package.json": '{"name": "app"}\n',
            "node_modules/.package-lock.json": "{}\n",
            "src/baz.js": "exports.bar = 1;\n",
            "src/app.js": (
                "const { bar } = require(`./baz`);\n"
                "const { nope } = require(`./baz`);\n"
                "const gone = require(`./gone`);\n"
                # An expression inside: the file is known only at run time.
                "const name = 'baz';\nconst dynamic = require(`./${name}`);\n"
            ),
        },
    )
    assert failures(run_forge, project, "src/app.js") == [
        "./gone -> src/app.js: './gone' resolves to no file",
        "src/baz.js -> src/app.js: 1 name imported from src/baz.js is not exported: nope",
    ]


def test_namespace_members_are_followed_into_namespaces_the_module_re_exports(
    run_forge: RunForge, project: Path
) -> None:
    # eslint-plugin-import's `namespace` rule: `ns.b.e` where the module re-exports `b` as a
    # namespace; a name missing at the second level is reported there.
    write(
        project,
        {
            "src/e.js": "export const e = 1;\nexport function f() {}\n",
            "src/b.js": "export * as b from './e.js';\nimport * as c from './e.js';\nexport { c };\n",
            "src/app.js": (
                "import * as ns from './b.js';\n"
                "console.log(ns.b.e, ns.b.f(), ns.c.e);\n"
                "console.log(ns.b.nope, ns.c.gone.deeper);\n"
            ),
        },
    )
    assert failures(run_forge, project, "src/app.js") == [
        "src/b.js -> src/app.js: 2 names imported from src/b.js are not exported: b.nope, c.gone"
    ]
