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


#: A TypeScript package laid out as got and ky are, before anything is built: the shared
#: config (a package) sets outDir through ${configDir}; docs and tests import the output.
BUILT_LATER = {
    "package.json": json.dumps(
        {
            "name": "fetcher",
            "type": "module",
            "exports": {
                ".": {"types": "./dist/source/index.d.ts", "default": "./dist/source/index.js"},
                "./utils/*": "./dist/source/utils/*.js",
                "./internal": None,
            },
            "devDependencies": {"@acme/tsconfig": "1"},
        }
    ),
    "node_modules/@acme/tsconfig/package.json": json.dumps(
        {"name": "@acme/tsconfig", "exports": "./tsconfig.json"}
    ),
    "node_modules/@acme/tsconfig/tsconfig.json": (
        '{\n  // shared by every project\n  "compilerOptions": {"outDir": "${configDir}/dist",'
        ' "strict": true},\n}\n'
    ),
    "tsconfig.json": '{"extends": "@acme/tsconfig", "include": ["source", "test"]}\n',
    "source/index.ts": "export default function fetcher() {}\nexport const retry = 2;\n",
    "source/utils/merge.ts": "export function merge() {}\n",
}


def test_imports_of_the_build_output_are_checked_against_the_source(
    run_forge: RunForge, project: Path
) -> None:
    write(
        project,
        {
            **BUILT_LATER,
            "documentation/examples/basic.js": (
                "import fetcher, {retry} from '../../dist/source/index.js';\n"
                "import {retries} from '../../dist/source/index.js';\n"
                "import {x} from '../../dist/source/gone.js';\n"
            ),
            "test/self.ts": (
                "import fetcher, {retry} from 'fetcher';\n"
                "import {merge} from 'fetcher/utils/merge';\n"
                "import {mrege} from 'fetcher/utils/merge';\n"
                # Not exported: the project's own build may bundle or alias it (trpc's vendor/).
                "import {hidden} from 'fetcher/internal';\n"
            ),
        },
    )
    assert failures(run_forge, project, "documentation/examples/basic.js", "test/self.ts") == [
        "../../dist/source/gone.js -> documentation/examples/basic.js: "
        "'../../dist/source/gone.js' resolves to no file",
        "source/index.ts -> documentation/examples/basic.js: 1 name imported from "
        "source/index.ts is not exported: retries (did you mean retry?)",
        "source/utils/merge.ts -> test/self.ts: 1 name imported from source/utils/merge.ts "
        "is not exported: mrege (did you mean merge?)",
    ]


def test_a_subpath_an_installed_package_does_not_export_is_reported(
    run_forge: RunForge, project: Path
) -> None:
    exports = {
        ".": {"import": "./esm/index.js", "require": "./cjs/index.js"},
        "./feature/*": {"browser": "./browser/*.js", "default": "./esm/feature/*.js"},
        "./feature/private/*": None,
        "./package.json": "./package.json",
    }
    write(
        project,
        {
            "package.json": json.dumps({"name": "app", "dependencies": {"lib": "1"}}),
            "node_modules/lib/package.json": json.dumps({"name": "lib", "exports": exports}),
            "node_modules/plain/package.json": json.dumps({"name": "plain", "main": "x.js"}),
            "src/app.js": (
                "import lib from 'lib';\n"
                "import a from 'lib/feature/a';\n"
                "import meta from 'lib/package.json';\n"
                "import deep from 'plain/any/file.js';\n"
                "import secret from 'lib/feature/private/key';\n"
                "import util from 'lib/esm/util.js';\n"
            ),
        },
    )
    assert failures(run_forge, project, "src/app.js") == [
        "lib/esm/util.js -> src/app.js: 'lib/esm/util.js' is not exported by package 'lib' "
        "(its package.json \"exports\" has no './esm/util.js')",
        "lib/feature/private/key -> src/app.js: 'lib/feature/private/key' is not exported by "
        "package 'lib' (its package.json \"exports\" has no './feature/private/key')",
    ]


def test_path_aliases_of_a_tsconfig_a_package_provides_are_followed(
    run_forge: RunForge, project: Path
) -> None:
    write(
        project,
        {
            "package.json": '{"name": "app"}\n',
            "node_modules/@acme/base/package.json": '{"name": "@acme/base", "tsconfig": "base.json"}',
            "node_modules/@acme/base/base.json": (
                '{"compilerOptions": {"paths": {"@/*": ["${configDir}/src/*"]}}}\n'
            ),
            "tsconfig.json": '{"extends": ["@acme/base"]}\n',
            "src/util.ts": "export const util = 1;\n",
            "src/app.ts": "import { util } from '@/util';\nimport { other } from '@/util';\n",
        },
    )
    assert failures(run_forge, project, "src/app.ts") == [
        "src/util.ts -> src/app.ts: 1 name imported from src/util.ts is not exported: other"
    ]


def test_eslint_plugin_import_namespace_cases(run_forge: RunForge, project: Path) -> None:
    # Shaped like eslint-plugin-import's tests/files/deep and named-exports fixtures.
    write(
        project,
        {
            "src/deep/c.js": "export const e = 1;\n",
            "src/deep/b.js": "import * as c from './c.js';\nexport { c };\nexport const e = 2;\n",
            "src/deep/a.js": "import * as b from './b.js';\nexport { b };\n",
            "src/deep/default.js": "import * as b from './b.js';\nexport default b;\n",
            "src/named.js": "export const a = 1;\nexport const b = 2;\n",
            "src/valid.js": (
                "import * as names from './named.js';\n"
                "import * as a from './deep/a.js';\n"
                "import { b } from './deep/a.js';\n"
                "import d from './deep/default.js';\n"
                "const { a: first } = names;\nconsole.log(names['b'], b.e, b.c.e, d.e, first);\n"
                "var {b: {c: {e}}} = a;\n"
                # A function expression's own name is its own binding inside it.
                "const x = function names() { const { zz } = names; return zz; };\n"
            ),
            "src/broken.js": (
                "import * as names from './named.js';\n"
                "import * as a from './deep/a.js';\n"
                "import { b } from './deep/a.js';\n"
                "import d from './deep/default.js';\n"
                "const { c } = names;\nconsole.log(names['z'], b.f, b.c.g, d.h);\n"
                "var {b: {c: {i}}} = a;\n"
            ),
        },
    )
    assert failures(run_forge, project, "src/valid.js", "src/broken.js") == [
        "src/deep/a.js -> src/broken.js: 3 names imported from src/deep/a.js are not exported: "
        "b.c.i, b.f, b.c.g",
        "src/deep/default.js -> src/broken.js: 1 name imported from src/deep/default.js is not "
        "exported: default.h",
        "src/named.js -> src/broken.js: 2 names imported from src/named.js are not exported: c, z",
    ]


def test_eslint_plugin_import_no_unresolved_cases(run_forge: RunForge, project: Path) -> None:
    write(
        project,
        {
            "package.json": '{"name": "app"}\n',
            "node_modules/.package-lock.json": "{}\n",
            "src/bar.js": "exports.bar = 1;\n",
            "src/types.ts": "export type T = number;\n",
            "src/empty-folder/.gitkeep": "",
            "src/app.ts": (
                # Escapes are read as JavaScript reads them.
                "const bar = require(`./\\u0062ar`);\nconst baz = require('./\\x62ar');\n"
                # Type-only imports of a package: the type checker's business (typeRoots).
                "import type { JSONSchema7Type } from '@types/json-schema';\n"
                "export type { Other } from 'some-types';\n"
                "import type { T } from './types';\n"
            ),
            "src/broken.ts": (
                "import type { T } from './typos';\nimport folder from './empty-folder';\n"
                "import { Value } from 'some-types';\n"
            ),
        },
    )
    assert failures(run_forge, project, "src/app.ts", "src/broken.ts") == [
        "./empty-folder -> src/broken.ts: './empty-folder' resolves to no file",
        "./typos -> src/broken.ts: './typos' resolves to no file (did you mean './types'?)",
        "some-types -> src/broken.ts: package 'some-types' is not installed or declared",
    ]
