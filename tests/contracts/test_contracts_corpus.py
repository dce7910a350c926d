"""The contract-check corpus: small real source trees, each an exporter/importer pair.

Each case is a dict of files plus what ``contract_check`` must say: the
missing names (in order of first use), a suggestion where one is expected,
whether the importer imports from the exporter at all, and whether the
exports can be known. True positives (renamed, removed, typo'd,
default-vs-named, missing namespace members and destructured keys) sit next
to the cases a regex tool gets wrong (aliases, multi-line lists, comments,
strings, ``.js`` specifiers in TypeScript, ``declare module`` blocks,
CommonJS reassignment, conditional definitions, submodules, ``__getattr__``).

``confirm`` names the real tool that agrees with the expectation. For every
case marked ``python`` and ``node``, that tool runs in a test below on the
same tree, so the expectation is checked against the real thing; ``tsc``
cases state what ``tsc --noEmit`` reports (TS2305 "has no exported member",
TS2614, TS1192 "has no default export", TS2339 for a namespace member).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from forge.checks.contract_check import forge_run_checks
from forge.config import ForgeConfig
from forge.languages import LanguageRegistry, ParseCache
from forge.models import ContractResult, ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.workspace import Workspace


def case(
    id: str,
    files: dict[str, str],
    missing: list[str],
    *,
    exporter: str,
    importer: str,
    imports: bool = True,
    known: bool = True,
    suggestions: dict[str, str] | None = None,
    confirm: str | None = None,
) -> Any:
    """One corpus entry, as a pytest param named ``id``."""
    spec = {
        "files": files,
        "missing": missing,
        "exporter": exporter,
        "importer": importer,
        "imports": imports,
        "known": known,
        "suggestions": suggestions or {},
        "confirm": confirm,
    }
    return pytest.param(spec, id=id)


JAVASCRIPT = [
    case(
        "js-named-ok",
        {
            "lib.mjs": "export function getUser() {}\n",
            "app.mjs": "import { getUser } from './lib.mjs';\ngetUser();\n",
        },
        [],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-renamed-export",
        {
            "lib.mjs": "export function fetchUser() {}\n",
            "app.mjs": "import { getUser } from './lib.mjs';\n",
        },
        ["getUser"],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-removed-export",
        {"lib.mjs": "export const a = 1;\n", "app.mjs": "import { a, b } from './lib.mjs';\n"},
        ["b"],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-typo-suggests-near-name",
        {
            "lib.mjs": "export function getUserById() {}\nexport function listUsers() {}\n",
            "app.mjs": "import { getUser } from './lib.mjs';\n",
        },
        ["getUser"],
        suggestions={"getUser": "getUserById"},
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-default-import-of-named-export",
        {
            "greet.mjs": "export function greet() {}\n",
            "app.mjs": "import greet from './greet.mjs';\n",
        },
        ["default"],
        suggestions={"default": "greet"},
        exporter="greet.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-named-import-of-default-export",
        {
            "greet.mjs": "export default function greet() {}\n",
            "app.mjs": "import { greet } from './greet.mjs';\n",
        },
        ["greet"],
        suggestions={"greet": "default"},
        exporter="greet.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-export-alias-imported-by-public-name",
        {
            "lib.mjs": "function internal() {}\nexport { internal as publicName };\n",
            "app.mjs": "import { publicName as p } from './lib.mjs';\np();\n",
        },
        [],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-export-alias-imported-by-internal-name",
        {
            "lib.mjs": "function internal() {}\nexport { internal as publicName };\n",
            "app.mjs": "import { internal } from './lib.mjs';\n",
        },
        ["internal"],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-multi-line-import-list-with-comments",
        {
            "lib.mjs": "export const one = 1, two = 2;\nexport let three = 3;\n",
            "app.mjs": textwrap.dedent(
                """\
                import {
                  one,
                  // four is coming later
                  two as second,
                  three,
                  four,
                } from './lib.mjs';
                """
            ),
        },
        ["four"],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-commented-out-export",
        {
            "lib.mjs": "// export function old() {}\n/* export const older = 1; */\nexport function current() {}\n",
            "app.mjs": "import { old, older, current } from './lib.mjs';\n",
        },
        ["old", "older"],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-export-inside-a-string",
        {
            "lib.mjs": "export const template = 'export function fake() {}';\nexport const real = `export const alsoFake = 1`;\n",
            "app.mjs": "import { fake, alsoFake, real } from './lib.mjs';\n",
        },
        ["fake", "alsoFake"],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-namespace-member-missing",
        {
            "api.mjs": "export function load() {}\nexport const VERSION = 1;\n",
            "app.mjs": "import * as api from './api.mjs';\napi.load();\nconsole.log(api.VERSION, api.save);\n",
        },
        ["save"],
        exporter="api.mjs",
        importer="app.mjs",
    ),
    case(
        "js-star-chain-followed",
        {
            "lib/index.mjs": "export * from './a.mjs';\nexport * from './b.mjs';\n",
            "lib/a.mjs": "export const x = 1;\n",
            "lib/b.mjs": "export const z = 1;\n",
            "app.mjs": "import { x, y, z } from './lib/index.mjs';\n",
        },
        ["y"],
        exporter="lib/index.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-star-from-package-is-open",
        {
            "lib.js": "export * from 'some-package';\nexport const local = 1;\n",
            "app.js": "import { anything, local } from './lib.js';\n",
        },
        [],
        known=False,
        exporter="lib.js",
        importer="app.js",
    ),
    case(
        "js-star-cycle-terminates",
        {
            "a.mjs": "export * from './b.mjs';\nexport const a = 1;\n",
            "b.mjs": "export * from './a.mjs';\nexport const b = 1;\n",
            "app.mjs": "import { a, b, c } from './a.mjs';\n",
        },
        ["c"],
        exporter="a.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-star-does-not-re-export-default",
        {
            "index.mjs": "export * from './impl.mjs';\n",
            "impl.mjs": "export default 42;\nexport const named = 1;\n",
            "app.mjs": "import answer, { named } from './index.mjs';\n",
        },
        ["default"],
        exporter="index.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-export-star-as-namespace",
        {
            "index.mjs": "export * as utils from './utils.mjs';\n",
            "utils.mjs": "export const pad = 1;\n",
            "app.mjs": "import { utils, pad } from './index.mjs';\n",
        },
        ["pad"],
        exporter="index.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-re-export-with-rename",
        {
            "index.mjs": "export { x as y } from './z.mjs';\n",
            "z.mjs": "export const x = 1;\n",
            "app.mjs": "import { y, x } from './index.mjs';\n",
        },
        ["x"],
        exporter="index.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-re-export-in-importer-checked-against-source",
        {
            "z.mjs": "export const x = 1;\n",
            "index.mjs": "export { x, w } from './z.mjs';\nexport * from './z.mjs';\n",
        },
        ["w"],
        exporter="z.mjs",
        importer="index.mjs",
        confirm="node",
    ),
    case(
        "cjs-exports-properties",
        {
            "lib.js": "exports.a = 1;\nmodule.exports.b = 2;\nObject.defineProperty(exports, 'c', { get() { return 3; } });\n",
            "app.js": "const { a, b, c, d } = require('./lib');\n",
        },
        ["d"],
        exporter="lib.js",
        importer="app.js",
    ),
    case(
        "cjs-later-module-exports-replaces-earlier",
        {
            "lib.js": "exports.old = 1;\nconst fresh = 2;\nmodule.exports = { fresh, helper() {} };\nexports.lost = 3;\n",
            "app.js": "const { old, fresh, helper, lost } = require('./lib.js');\n",
        },
        ["old", "lost"],
        exporter="lib.js",
        importer="app.js",
    ),
    case(
        "cjs-function-export-is-the-default",
        {
            "greet.js": "module.exports = function greet(name) { return name; };\n",
            "app.js": "const { greet } = require('./greet');\n",
        },
        ["greet"],
        suggestions={"greet": "default"},
        exporter="greet.js",
        importer="app.js",
    ),
    case(
        "cjs-function-export-required-whole",
        {
            "greet.js": "module.exports = function greet(name) { return name; };\n",
            "app.js": "const greet = require('./greet');\ngreet('x');\n",
        },
        [],
        exporter="greet.js",
        importer="app.js",
    ),
    # undici 7: `module.exports = class WrapHandler { static wrap () {} }`, required
    # as `WrapHandler.wrap(handler)`; `Object.assign(Dispatcher.prototype, api)`.
    case(
        "cjs-class-expression-statics-and-function-properties",
        {
            "wrap-handler.js": (
                "module.exports = class WrapHandler {\n"
                "  static wrap (handler) { return handler }\n"
                "  unwrap () {}\n"
                "}\n"
            ),
            "dispatcher.js": "class Dispatcher {}\nmodule.exports = Dispatcher\n",
            "app.js": (
                "const WrapHandler = require('./wrap-handler')\n"
                "const Dispatcher = require('./dispatcher')\n"
                "Object.assign(Dispatcher.prototype, { x: 1 })\n"
                "WrapHandler.wrap(WrapHandler.name, WrapHandler.unwrap)\n"
            ),
        },
        ["unwrap"],
        exporter="wrap-handler.js",
        importer="app.js",
    ),
    # fastify 5's lib/config-validator.js (ajv standalone): the exported function
    # sets its own `errors` from its body.
    case(
        "cjs-function-sets-its-own-properties-when-called",
        {
            "config-validator.js": (
                "module.exports = validate10;\n"
                "function validate10(data) {\n"
                "  if (typeof data !== 'object') {\n"
                "    validate10.errors = [{ message: 'must be object' }];\n"
                "    return false;\n  }\n"
                "  validate10.errors = null;\n  return true;\n}\n"
            ),
            "app.js": (
                "const validate = require('./config-validator')\n"
                "if (!validate({})) throw new Error(validate.errors.map(String).join())\n"
                "validate.warnings\n"
            ),
        },
        ["warnings"],
        exporter="config-validator.js",
        importer="app.js",
    ),
    case(
        "cjs-class-export-has-a-prototype",
        {
            "dispatcher.js": "class Dispatcher {}\nmodule.exports = Dispatcher\n",
            "app.js": (
                "const Dispatcher = require('./dispatcher')\n"
                "Object.assign(Dispatcher.prototype, { x: 1 })\nDispatcher.dispatch()\n"
            ),
        },
        ["dispatch"],
        exporter="dispatcher.js",
        importer="app.js",
    ),
    case(
        "cjs-function-properties-of-an-object-export-are-missing",
        {
            "lib.js": "module.exports = { wrap () {} }\n",
            "app.js": "const lib = require('./lib')\nlib.wrap(lib.prototype)\n",
        },
        ["prototype"],
        exporter="lib.js",
        importer="app.js",
    ),
    case(
        "cjs-require-member",
        {
            "lib.js": "module.exports = { present: 1 };\n",
            "app.js": "const p = require('./lib').present;\nconst q = require('./lib').absent;\n",
        },
        ["absent"],
        exporter="lib.js",
        importer="app.js",
    ),
    case(
        "cjs-binding-members",
        {
            "lib.js": "const api = { start() {}, stop() {} };\nmodule.exports = api;\n",
            "app.js": "const lib = require('./lib.js');\nlib.start();\nlib.restart();\n",
        },
        ["restart"],
        exporter="lib.js",
        importer="app.js",
    ),
    case(
        "cjs-computed-export-is-open",
        {
            "lib.js": "module.exports = build();\n",
            "app.js": "const { anything } = require('./lib');\n",
        },
        [],
        known=False,
        exporter="lib.js",
        importer="app.js",
    ),
    case(
        "js-same-basename-elsewhere-is-not-the-exporter",
        {
            "src/user.js": "export const name = 1;\n",
            "src/lib/user.js": "export const other = 1;\n",
            "src/app.js": "import { other } from './lib/user.js';\n",
        },
        [],
        imports=False,
        exporter="src/user.js",
        importer="src/app.js",
    ),
    case(
        "js-path-containing-exporter-name-is-not-the-exporter",
        {
            "src/api.js": "export const a = 1;\n",
            "src/api-client.js": "export const b = 1;\n",
            "src/app.js": "import { b } from './api-client.js';\n",
        },
        [],
        imports=False,
        exporter="src/api.js",
        importer="src/app.js",
    ),
    case(
        "js-side-effect-import-counts",
        {"polyfill.js": "globalThis.x = 1;\n", "app.js": "import './polyfill.js';\n"},
        [],
        exporter="polyfill.js",
        importer="app.js",
    ),
    case(
        "js-directory-index",
        {
            "lib/index.js": "export const a = 1;\n",
            "app.js": "import { a, b } from './lib';\n",
        },
        ["b"],
        exporter="lib/index.js",
        importer="app.js",
    ),
    case(
        "js-dynamic-import-destructured",
        {
            "lib.mjs": "export const a = 1;\n",
            "app.mjs": "const { a, b } = await import('./lib.mjs');\n",
        },
        ["b"],
        exporter="lib.mjs",
        importer="app.mjs",
    ),
    case(
        "js-destructured-export-declaration",
        {
            "lib.mjs": "const obj = { p: 1, q: 2 };\nexport const { p, q: renamed } = obj;\n",
            "app.mjs": "import { p, renamed, q } from './lib.mjs';\n",
        },
        ["q"],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-generator-and-async-exports",
        {
            "lib.mjs": "export function* gen() {}\nexport async function load() {}\nexport class Store {}\nexport var legacy = 1;\n",
            "app.mjs": "import { gen, load, Store, legacy, missing } from './lib.mjs';\n",
        },
        ["missing"],
        exporter="lib.mjs",
        importer="app.mjs",
        confirm="node",
    ),
    case(
        "js-does-not-import-exporter",
        {"lib.js": "export const a = 1;\n", "app.js": "const x = 1;\n"},
        [],
        imports=False,
        exporter="lib.js",
        importer="app.js",
    ),
    # issue 14, 1: express's own `exports = module.exports = f; exports.Router = Router`
    case(
        "cjs-express-exports-alias-chain",
        {
            "lib/express.js": (
                "exports = module.exports = createApplication;\n"
                "function createApplication() { return {}; }\n"
                "exports.application = {};\n"
                "exports.Router = Router;\n"
                "function Router() {}\n"
            ),
            "app.js": (
                "const express = require('./lib/express');\n"
                "const app = express();\n"
                "express.Router();\nexpress.application;\nexpress.Routr;\n"
            ),
        },
        ["Routr"],
        suggestions={"Routr": "Router"},
        exporter="lib/express.js",
        importer="app.js",
    ),
    case(
        "cjs-module-exports-equals-exports-chain",
        {
            "lib.js": "module.exports = exports = create;\nfunction create() {}\nexports.Router = 1;\n",
            "app.js": "const lib = require('./lib');\nlib.Router;\n",
        },
        [],
        exporter="lib.js",
        importer="app.js",
    ),
    # issue 14, 5: a near spelling of "default" is no reason to say "import the default"
    case(
        "cjs-member-near-default-is-not-the-default",
        {
            "cjs.js": "module.exports = { alpha: 1, gamma: 2 };\n",
            "app.js": "const m = require('./cjs');\nm.alpha;\nm.delta;\n",
        },
        ["delta"],
        exporter="cjs.js",
        importer="app.js",
    ),
    case(
        "cjs-class-static-members",
        {
            "store.js": "class Store {\n  static create() { return new Store(); }\n  static VERSION = 1;\n}\nmodule.exports = Store;\n",
            "app.js": "const Store = require('./store');\nStore.create();\nStore.VERSION;\nStore.destroy();\n",
        },
        ["destroy"],
        exporter="store.js",
        importer="app.js",
    ),
]

TYPESCRIPT = [
    case(
        "ts-js-specifier-resolves-to-ts",
        {
            "src/api.ts": "export function getUserById(id: string) { return id; }\n",
            "src/app.ts": "import { getUserById, getUser } from './api.js';\n",
        },
        ["getUser"],
        suggestions={"getUser": "getUserById"},
        exporter="src/api.ts",
        importer="src/app.ts",
        confirm="tsc (TS2305: Module './api.js' has no exported member 'getUser')",
    ),
    case(
        "ts-mjs-specifier-resolves-to-mts",
        {
            "util.mts": "export const pad = 1;\n",
            "main.mts": "import { pad, trim } from './util.mjs';\n",
        },
        ["trim"],
        exporter="util.mts",
        importer="main.mts",
        confirm="tsc (TS2305)",
    ),
    case(
        "ts-type-level-exports",
        {
            "types.ts": textwrap.dedent(
                """\
                export type Id = string;
                export interface User { id: Id }
                export enum Color { Red }
                export const enum Flag { On }
                export namespace Geometry { export const origin = 0; }
                export abstract class Shape {}
                export declare const injected: number;
                export declare function external(): void;
                """
            ),
            "app.ts": "import { Id, User, Color, Flag, Geometry, Shape, injected, external, Missing } from './types';\n",
        },
        ["Missing"],
        exporter="types.ts",
        importer="app.ts",
        confirm="tsc (TS2305)",
    ),
    case(
        "ts-type-only-import",
        {
            "types.ts": "export interface User { id: string }\n",
            "app.ts": "import type { User, Account } from './types';\nimport { type User as U } from './types';\n",
        },
        ["Account"],
        exporter="types.ts",
        importer="app.ts",
        confirm="tsc (TS2305)",
    ),
    case(
        "ts-declare-module-block-is-not-an-export",
        {
            "shims.d.ts": "declare module 'legacy-lib' {\n  export function hidden(): void;\n}\nexport declare const shown: number;\n",
            "app.ts": "import { hidden, shown } from './shims';\n",
        },
        ["hidden"],
        exporter="shims.d.ts",
        importer="app.ts",
        confirm="tsc (TS2305)",
    ),
    case(
        "ts-export-equals-object",
        {
            "legacy.ts": "const a = 1;\nexport = { a };\n",
            "app.ts": "import legacy = require('./legacy');\nlegacy.a;\nlegacy.b;\n",
        },
        ["b"],
        exporter="legacy.ts",
        importer="app.ts",
        confirm="tsc (TS2339: Property 'b' does not exist)",
    ),
    case(
        "ts-export-default-interface",
        {
            "props.ts": "export default interface Props { title: string }\n",
            "app.ts": "import Props from './props';\nimport { Props as P } from './props';\n",
        },
        ["Props"],
        suggestions={"Props": "default"},
        exporter="props.ts",
        importer="app.ts",
        confirm="tsc (TS2614: Module has no exported member 'Props'. Did you mean to use 'import Props from'?)",
    ),
    case(
        "ts-namespace-member-in-type-position",
        {
            "models.ts": "export interface User { id: string }\n",
            "app.ts": "import * as models from './models';\nlet u: models.User;\nlet a: models.Admin;\n",
        },
        ["Admin"],
        exporter="models.ts",
        importer="app.ts",
        confirm="tsc (TS2694: Namespace has no exported member 'Admin')",
    ),
    case(
        "tsx-component-missing",
        {
            "Button.tsx": "export function Button() { return <button />; }\n",
            "App.tsx": "import { Button, Link } from './Button';\nexport const App = () => <Button />;\n",
        },
        ["Link"],
        exporter="Button.tsx",
        importer="App.tsx",
        confirm="tsc (TS2305)",
    ),
    case(
        "ts-directory-index",
        {
            "lib/index.ts": "export const a = 1;\n",
            "app.ts": "import { a, b } from './lib';\n",
        },
        ["b"],
        exporter="lib/index.ts",
        importer="app.ts",
        confirm="tsc (TS2305)",
    ),
    case(
        "ts-re-export-type-from",
        {
            "index.ts": "export type { User } from './user';\nexport { type Role } from './user';\n",
            "user.ts": "export interface User {}\nexport type Role = string;\n",
            "app.ts": "import type { User, Role, Team } from './index';\n",
        },
        ["Team"],
        exporter="index.ts",
        importer="app.ts",
        confirm="tsc (TS2305)",
    ),
    case(
        "ts-export-import-alias",
        {
            "ns.ts": "namespace Inner { export const v = 1; }\nexport import Alias = Inner;\n",
            "app.ts": "import { Alias, Inner } from './ns';\n",
        },
        ["Inner"],
        exporter="ns.ts",
        importer="app.ts",
        confirm="tsc (TS2305: Inner is not exported)",
    ),
    case(
        "ts-namespace-members-are-not-file-exports",
        {
            "geo.ts": "export namespace Geo { export function area() {} }\n",
            "app.ts": "import { Geo, area } from './geo';\n",
        },
        ["area"],
        exporter="geo.ts",
        importer="app.ts",
        confirm="tsc (TS2305)",
    ),
    case(
        "ts-commonjs-module-imported-from-ts",
        {
            "legacy.js": "exports.run = () => 1;\n",
            "app.ts": "import legacy, { run, stop } from './legacy.js';\n",
        },
        ["stop"],
        exporter="legacy.js",
        importer="app.ts",
    ),
    case(
        "ts-cts-specifier-resolves-to-cts",
        {
            "conf.cts": "export const port = 1;\n",
            "main.cts": "import { port, host } from './conf.cjs';\n",
        },
        ["host"],
        exporter="conf.cts",
        importer="main.cts",
        confirm="tsc (TS2305)",
    ),
    # issue 14, 2: a binding of `import type` is never a value
    case(
        "ts-type-namespace-shadowed-by-a-local",
        {
            "src/checks.ts": "export interface Check { id: number }\n",
            "src/run.ts": (
                "import type * as checks from './checks.js';\n"
                "export function run(def: { checks: string[] }, c: checks.Check, d: checks.Chek) {\n"
                "  const checks = def.checks;\n"
                "  return checks.length + c.id;\n"
                "}\n"
            ),
        },
        ["Chek"],
        suggestions={"Chek": "Check"},
        exporter="src/checks.ts",
        importer="src/run.ts",
    ),
    # issue 14, 6: `export =` a function merged with a namespace of the same name
    case(
        "ts-export-equals-function-merged-with-namespace",
        {
            "src/parse-args.ts": (
                "function parseArgs(argv: string[]): string[] { return argv; }\n"
                "namespace parseArgs {\n"
                "  export const version = '1.0';\n"
                "  export interface Options { strict: boolean }\n"
                "}\n"
                "export = parseArgs;\n"
            ),
            "src/app.ts": (
                "import parseArgs = require('./parse-args');\n"
                "const options: parseArgs.Options = { strict: true };\n"
                "parseArgs(['a']);\n"
                "console.log(parseArgs.version, parseArgs.verison, options);\n"
            ),
        },
        ["verison"],
        suggestions={"verison": "version"},
        exporter="src/parse-args.ts",
        importer="src/app.ts",
    ),
    case(
        "dts-declare-function-merged-with-namespace",
        {
            "types/index.d.ts": (
                "declare function parseArgs(argv: string[]): string[];\n"
                "declare namespace parseArgs {\n"
                "  const version: string;\n"
                "  export interface Options { strict: boolean }\n"
                "}\n"
                "export = parseArgs;\n"
            ),
            "src/app.ts": (
                "import parseArgs = require('../types/index');\n"
                "const options: parseArgs.Options = { strict: true };\n"
                "parseArgs.version;\n"
            ),
        },
        [],
        exporter="types/index.d.ts",
        importer="src/app.ts",
    ),
    # fastify 5's types/hooks.d.ts: a declaration file with no export declaration
    # exports every top-level declaration, `export` or not (TypeScript's binder).
    case(
        "dts-without-export-declarations-exports-everything",
        {
            "types/hooks.d.ts": (
                "import { Readable } from 'stream'\n"
                "type HookHandlerDoneFunction = (err?: Error) => void\n"
                "interface RequestPayload extends Readable {}\n"
                "declare function hook(done: HookHandlerDoneFunction): void\n"
                "export interface onRequestHookHandler { (done: HookHandlerDoneFunction): void }\n"
            ),
            "fastify.d.ts": (
                "import { HookHandlerDoneFunction, RequestPayload, hook, onRequestHookHandler,"
                " onSendHookHandler } from './types/hooks'\n"
            ),
        },
        ["onSendHookHandler"],
        exporter="types/hooks.d.ts",
        importer="fastify.d.ts",
    ),
    case(
        "dts-with-an-export-declaration-exports-what-it-says",
        {
            "types/hooks.d.ts": (
                "type HookHandlerDoneFunction = (err?: Error) => void\n"
                "export interface onRequestHookHandler { (done: HookHandlerDoneFunction): void }\n"
                "export {}\n"
            ),
            "types/hooks.ts": "type RequestPayload = string\nexport const x = 1\n",
            "fastify.d.ts": (
                "import { HookHandlerDoneFunction, onRequestHookHandler } from './types/hooks.d'\n"
            ),
        },
        ["HookHandlerDoneFunction"],
        exporter="types/hooks.d.ts",
        importer="fastify.d.ts",
    ),
    case(
        "ts-source-non-exported-type-is-missing",
        {
            "types/hooks.ts": "type RequestPayload = string\nexport const x = 1\n",
            "app.ts": "import { RequestPayload, x } from './types/hooks'\n",
        },
        ["RequestPayload"],
        exporter="types/hooks.ts",
        importer="app.ts",
    ),
    # pino 10's pino.d.ts: the namespace re-exports the function under two names
    case(
        "dts-namespace-export-clause-of-export-equals",
        {
            "pino.d.ts": (
                "declare namespace pino {\n"
                "  export interface LoggerOptions { level?: string }\n"
                "  export { pino as default, pino }\n"
                "}\n"
                "declare function pino(options?: pino.LoggerOptions): void;\n"
                "export = pino;\n"
            ),
            "test/types/pino.ts": (
                "import { pino, default as pinoDefault, LoggerOptions, transport } "
                "from '../../pino';\n"
            ),
        },
        ["transport"],
        exporter="pino.d.ts",
        importer="test/types/pino.ts",
    ),
]

PYTHON = [
    case(
        "py-from-import-ok",
        {"lib.py": "def get_user():\n    return 1\n", "app.py": "from lib import get_user\n"},
        [],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-renamed-function",
        {"lib.py": "def fetch_user():\n    return 1\n", "app.py": "from lib import load_user\n"},
        ["load_user"],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-typo-suggests-near-name",
        {
            "lib.py": "def get_user_by_id():\n    return 1\n",
            "app.py": "from lib import get_user_by_ID\n",
        },
        ["get_user_by_ID"],
        suggestions={"get_user_by_ID": "get_user_by_id"},
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-multi-line-aliased-import",
        {
            "lib.py": "A = 1\nB = 2\n",
            "app.py": "from lib import (\n    A as first,\n    # B is fine\n    B,\n    C as third,\n)\n",
        },
        ["C"],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-conditional-definitions",
        {
            "compat.py": textwrap.dedent(
                """\
                import sys

                if sys.version_info >= (3, 0):
                    def text(value):
                        return str(value)
                else:
                    def text(value):
                        return unicode(value)

                try:
                    import json as fast_json
                except ImportError:
                    fast_json = None
                """
            ),
            "app.py": "from compat import text, fast_json, sys\n",
        },
        [],
        exporter="compat.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-bare-annotation-binds-nothing",
        {
            "config.py": "port: int\nhost: str = 'localhost'\n",
            "app.py": "from config import host, port\n",
        },
        ["port"],
        exporter="config.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-unpacking-for-and-with-targets",
        {
            "lib.py": textwrap.dedent(
                """\
                import contextlib

                first, (second, *rest) = 1, (2, 3, 4)
                x = y = 0
                for index in range(2):
                    pass
                with contextlib.nullcontext(5) as handle:
                    pass
                """
            ),
            "app.py": "from lib import first, second, rest, x, y, index, handle, contextlib, third\n",
        },
        ["third"],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-dunder-all-does-not-restrict-from-import",
        {
            "lib.py": "__all__ = ['public']\npublic = 1\nother = 2\n_private = 3\n",
            "app.py": "from lib import public, other, _private\n",
        },
        [],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-module-getattr-is-open",
        {
            "lazy.py": "def __getattr__(name):\n    return name\n",
            "app.py": "from lazy import anything\n",
        },
        [],
        known=False,
        exporter="lazy.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-submodule-is-importable-from-package",
        {
            "pkg/__init__.py": "",
            "pkg/sub.py": "value = 1\n",
            "pkg/nested/__init__.py": "",
            "app.py": "from pkg import sub, nested, absent\n",
        },
        ["absent"],
        exporter="pkg/__init__.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-submodule-members-through-from-import",
        {
            "pkg/__init__.py": "",
            "pkg/sub.py": "def run():\n    return 1\n",
            "app.py": "from pkg import sub\nsub.run()\nsub.stop()\n",
        },
        ["stop"],
        exporter="pkg/sub.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-star-re-export-follows-dunder-all",
        {
            "pkg/__init__.py": "from .core import *\n",
            "pkg/core.py": "__all__ = ['a']\na = 1\nb = 2\n",
            "app.py": "from pkg import a, b\n",
        },
        ["b"],
        exporter="pkg/__init__.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-star-re-export-takes-public-names",
        {
            "pkg/__init__.py": "from .core import *\n",
            "pkg/core.py": "visible = 1\n_hidden = 2\n",
            "app.py": "from pkg import visible, _hidden\n",
        },
        ["_hidden"],
        exporter="pkg/__init__.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-star-from-third-party-is-open",
        {
            "lib.py": "from not_installed_anywhere import *\n",
            "app.py": "from lib import whatever\n",
        },
        [],
        known=False,
        exporter="lib.py",
        importer="app.py",
    ),
    case(
        "py-relative-import-two-levels",
        {
            "pkg/__init__.py": "",
            "pkg/a/__init__.py": "",
            "pkg/a/c.py": "x = 1\n",
            "pkg/a/b/__init__.py": "",
            "pkg/a/b/mod.py": "from ..c import x, y\n",
        },
        ["y"],
        exporter="pkg/a/c.py",
        importer="pkg/a/b/mod.py",
    ),
    case(
        "py-import-as-then-attribute",
        {
            "pkg/__init__.py": "",
            "pkg/models.py": "class User:\n    pass\n",
            "app.py": "import pkg.models as m\nm.User\nm.Missing\n",
        },
        ["Missing"],
        exporter="pkg/models.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-import-dotted-then-attribute",
        {
            "pkg/__init__.py": "",
            "pkg/models.py": "class User:\n    pass\n",
            "app.py": "import pkg.models\npkg.models.User\npkg.models.Gone\n",
        },
        ["Gone"],
        exporter="pkg/models.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-same-basename-is-not-the-exporter",
        {
            "app/__init__.py": "",
            "app/utils.py": "def helper():\n    pass\n",
            "lib/__init__.py": "",
            "lib/utils.py": "def other():\n    pass\n",
            "main.py": "from lib.utils import other\n",
        },
        [],
        imports=False,
        exporter="app/utils.py",
        importer="main.py",
    ),
    case(
        "py-names-in-comments-and-strings",
        {
            "lib.py": "# def old():\n#     pass\ndoc = 'def fake(): pass'\ndef real():\n    pass\n",
            "app.py": "from lib import old, fake, real\n",
        },
        ["old", "fake"],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-methods-and-nested-functions-are-not-exports",
        {
            "lib.py": "class Service:\n    def start(self):\n        pass\n\ndef outer():\n    def inner():\n        pass\n    global late\n",
            "app.py": "from lib import Service, start, inner\n",
        },
        ["start", "inner"],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-guarded-import-is-not-reported",
        {
            "lib.py": "slow = 1\n",
            "app.py": "try:\n    from lib import fast\nexcept ImportError:\n    from lib import slow as fast\n",
        },
        [],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-lazy-import-inside-function",
        {
            "lib.py": "present = 1\n",
            "app.py": "def later():\n    from lib import gone\n    return gone\n",
        },
        ["gone"],
        exporter="lib.py",
        importer="app.py",
    ),
    case(
        "py-imported-names-are-exports",
        {
            "pkg/__init__.py": "from .impl import Thing\nfrom os import path as ospath\n",
            "pkg/impl.py": "class Thing:\n    pass\n",
            "app.py": "from pkg import Thing, ospath, impl, Other\n",
        },
        ["Other"],
        exporter="pkg/__init__.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-from-dot-import-sibling-module",
        {
            "pkg/__init__.py": "",
            "pkg/helpers.py": "def assist():\n    pass\n",
            "pkg/main.py": "from . import helpers\nhelpers.assist()\nhelpers.resist()\n",
        },
        ["resist"],
        exporter="pkg/helpers.py",
        importer="pkg/main.py",
    ),
    case(
        "py-async-def-class-and-decorated",
        {
            "lib.py": "import functools\n\nasync def fetch():\n    pass\n\n@functools.cache\ndef cached():\n    pass\n\nclass Model:\n    pass\n",
            "app.py": "from lib import fetch, cached, Model, Missing\n",
        },
        ["Missing"],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-does-not-import-exporter",
        {"lib.py": "a = 1\n", "app.py": "import os\n"},
        [],
        imports=False,
        exporter="lib.py",
        importer="app.py",
    ),
    case(
        "py-module-shadowed-by-a-parameter",
        {
            "config.py": "debug = True\n",
            "app.py": (
                "import config\n\n\n"
                "def load(config):\n    return config.anything\n\n\n"
                "def show():\n    return config.debug, config.verbose\n\n\n"
                "show()\n"
            ),
        },
        ["verbose"],
        exporter="config.py",
        importer="app.py",
        confirm="python",
    ),
    # issue 14, 3: attributes every module has are never missing
    case(
        "py-module-attributes-every-module-has",
        {
            "pkg/__init__.py": "value = 1\n",
            "app.py": (
                "import pkg\n"
                "print(pkg.__file__, pkg.__name__, pkg.__path__, pkg.__spec__, pkg.__doc__,\n"
                "      pkg.__dict__, pkg.__loader__, pkg.__package__, pkg.value)\n"
            ),
        },
        [],
        exporter="pkg/__init__.py",
        importer="app.py",
        confirm="python",
    ),
    # issue 14, 7: a __getattr__ that answers a literal set of names (click's form)
    case(
        "py-module-getattr-with-literal-names",
        {
            "pkg/__init__.py": "",
            "pkg/core.py": (
                "class Command:\n    pass\n\n\nclass _BaseCommand(Command):\n    pass\n\n\n"
                "def __getattr__(name: str) -> object:\n"
                "    import warnings\n\n"
                "    if name == 'BaseCommand':\n"
                "        warnings.warn('deprecated', DeprecationWarning, stacklevel=2)\n"
                "        return _BaseCommand\n\n"
                "    if name in {'MultiCommand', 'OldGroup'}:\n"
                "        return Command\n\n"
                "    raise AttributeError(name)\n"
            ),
            "app.py": "from pkg.core import BaseCommand, Command, OldGroup, Nope\n",
        },
        ["Nope"],
        exporter="pkg/core.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-module-getattr-with-a-literal-table",
        {
            "compat.py": (
                "_MOVED = {'old_name': 'new_name', 'older': 'new_name'}\n"
                "new_name = 1\n\n\n"
                "def __getattr__(name):\n"
                "    if name in _MOVED:\n"
                "        return globals()[_MOVED[name]]\n"
                "    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')\n"
            ),
            "app.py": "import compat\nprint(compat.old_name, compat.older, compat.newest)\n",
        },
        ["newest"],
        exporter="compat.py",
        importer="app.py",
        confirm="python",
    ),
    # pyyaml's legacy tests and black's blib2to3: a function declares names
    # global and binds them; importers take them once it has run.
    case(
        "py-names-a-function-declares-global",
        {
            "grammar.py": (
                "python_grammar: dict\n\n\n"
                "def initialize():\n"
                "    global python_grammar, MyLoader\n"
                "    python_grammar = {}\n\n"
                "    class MyLoader:\n        pass\n\n"
                "    only_local = 1\n\n\n"
                "initialize()\n"
            ),
            "app.py": (
                "import grammar\nfrom grammar import python_grammar\n\n"
                "print(python_grammar, grammar.MyLoader)\n"
            ),
        },
        [],
        exporter="grammar.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-a-function-local-without-global-stays-missing",
        {
            "grammar.py": (
                "def initialize():\n"
                "    global python_grammar\n"
                "    python_grammar = {}\n"
                "    only_local = 1\n\n\n"
                "initialize()\n"
            ),
            "app.py": "from grammar import python_grammar, only_local\n",
        },
        ["only_local"],
        exporter="grammar.py",
        importer="app.py",
        confirm="python",
    ),
    # dateutil: `from ._parser import __doc__` takes the module's docstring.
    case(
        "py-from-import-of-attributes-every-module-has",
        {
            "lib.py": '"""Parser docs."""\nvalue = 1\n',
            "app.py": "from lib import __doc__, __name__, __file__, value, __author__\n",
        },
        ["__author__"],
        exporter="lib.py",
        importer="app.py",
        confirm="python",
    ),
    # toolz's doctest runner sets toolz.__test__, then reads and deletes it.
    case(
        "py-attribute-the-importer-sets-on-the-module",
        {
            "toolz/__init__.py": "value = 1\n",
            "app.py": (
                "import toolz\n\n"
                "toolz.__test__ = {}\n"
                "toolz.__test__['a'] = toolz.value\n"
                "print(toolz.__test__, toolz.__tests__)\n"
                "del toolz.__test__\n"
            ),
        },
        ["__tests__"],
        exporter="toolz/__init__.py",
        importer="app.py",
        confirm="python",
    ),
    # sqlalchemy's compiled modules: the real Cython if installed, else a shim.
    case(
        "py-a-name-two-imports-bind-is-read-from-either",
        {
            "shim/__init__.py": "",
            "shim/cython.py": "compiled = False\nPy_ssize_t = int\n",
            "app.py": (
                "try:\n    import cython\nexcept ModuleNotFoundError:\n"
                "    from shim import cython\n\n"
                "if cython.compiled:\n    size: cython.Py_hash_t = 0\n"
            ),
        },
        [],
        exporter="shim/cython.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-a-fallback-module-read-alone-is-checked",
        {
            "shim/__init__.py": "",
            "shim/cython.py": "compiled = False\nPy_ssize_t = int\n",
            "app.py": "from shim import cython\n\nsize = cython.Py_hash_t\n",
        },
        ["Py_hash_t"],
        exporter="shim/cython.py",
        importer="app.py",
        confirm="python",
    ),
    # toolz's tlz: _build_tlz copies toolz's names into sys.modules['tlz'].
    case(
        "py-package-filled-through-sys-modules-by-its-module",
        {
            "toolz/__init__.py": "def curry(f):\n    return f\n",
            "tlz/__init__.py": "from . import _build_tlz\n",
            "tlz/_build_tlz.py": (
                "import sys\n\nimport toolz\n\nsys.modules['tlz'].__dict__.update(vars(toolz))\n"
            ),
            "app.py": "from tlz import curry\n",
        },
        [],
        known=False,
        exporter="tlz/__init__.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-package-whose-module-edits-another-entry-of-sys-modules",
        {
            "tlz/__init__.py": "from . import _compat\n",
            "tlz/_compat.py": "import sys\n\nsys.modules['legacy_tlz'] = sys.modules[__name__]\n",
            "app.py": "from tlz import curry\n",
        },
        ["curry"],
        exporter="tlz/__init__.py",
        importer="app.py",
        confirm="python",
    ),
    case(
        "py-module-getattr-with-a-fallback-stays-open",
        {
            "lazy.py": (
                "def __getattr__(name):\n    if name == 'a':\n        return 1\n    return name\n"
            ),
            "app.py": "from lazy import anything\n",
        },
        [],
        known=False,
        exporter="lazy.py",
        importer="app.py",
        confirm="python",
    ),
]

CASES = [*JAVASCRIPT, *TYPESCRIPT, *PYTHON]


@pytest.fixture(scope="module")
def registry() -> LanguageRegistry:
    return LanguageRegistry.from_plugins(build_plugin_host())


def write_tree(root: Path, files: dict[str, str]) -> None:
    """Write ``files`` (relative path -> text) under ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def check(registry: LanguageRegistry, root: Path, exporter: str, importer: str) -> ContractResult:
    workspace = Workspace(root, config=ForgeConfig(), languages=registry, parse_cache=ParseCache())
    request = ValidateRequest(
        module_id="corpus",
        contract_checks=[{"exporter": exporter, "importer": importer}],
        auto_contracts=False,
    )
    (result,) = forge_run_checks(request=request, workspace=workspace)
    assert isinstance(result, ContractResult)
    return result


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 50
    languages = {Path(c.values[0]["exporter"]).suffix for c in CASES}
    assert {".py", ".ts", ".js", ".mjs", ".tsx"} <= languages


@pytest.mark.parametrize("spec", CASES)
def test_contract_case(registry: LanguageRegistry, tmp_path: Path, spec: dict[str, Any]) -> None:
    write_tree(tmp_path, spec["files"])
    result = check(registry, tmp_path, spec["exporter"], spec["importer"])
    if not spec["imports"]:
        assert not result.passed
        assert "does not import from" in result.message
        return
    assert result.missing == spec["missing"], result.message
    assert result.passed is (not spec["missing"]), result.message
    assert result.exports_known is spec["known"], result.message
    suggestions = {d.name: d.suggestion for d in result.missing_details}
    for name, suggestion in spec["suggestions"].items():
        assert suggestions[name] == suggestion
    assert result.target == f"{spec['exporter']} -> {spec['importer']}"


def _module_name(importer: str) -> str:
    return importer.removesuffix(".py").replace("/", ".")


@pytest.mark.parametrize("spec", [c for c in CASES if c.values[0]["confirm"] == "python"])
def test_python_agrees(tmp_path: Path, spec: dict[str, Any]) -> None:
    """Importing the importer with the real interpreter fails exactly when names are missing."""
    write_tree(tmp_path, spec["files"])
    completed = subprocess.run(
        [sys.executable, "-B", "-c", f"import {_module_name(spec['importer'])}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    if spec["missing"]:
        assert completed.returncode != 0
        assert "ImportError" in completed.stderr or "AttributeError" in completed.stderr
        assert any(repr(name) in completed.stderr for name in spec["missing"])
    else:
        assert completed.returncode == 0, completed.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("spec", [c for c in CASES if c.values[0]["confirm"] == "node"])
def test_node_agrees(tmp_path: Path, spec: dict[str, Any]) -> None:
    """Node links the importer's ES module imports: it fails exactly when names are missing."""
    write_tree(tmp_path, spec["files"])
    completed = subprocess.run(
        ["node", spec["importer"]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    if spec["missing"]:
        assert completed.returncode != 0
        assert "does not provide an export named" in completed.stderr
        assert any(f"'{name}'" in completed.stderr for name in spec["missing"])
    else:
        assert completed.returncode == 0, completed.stderr
