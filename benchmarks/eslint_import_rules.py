"""forge's contract check against eslint-plugin-import's own rule tests.

Usage: ``python benchmarks/eslint_import_rules.py PATH [--rule named] [--show N]``, where
PATH is a checkout of eslint-plugin-import (its ``tests/src/rules/*.js`` and the fixtures
under ``tests/files``). Neither npm's tarball of the plugin nor any package on npm or
PyPI carries those tests, so they cannot be downloaded at test time: this script reads a
checkout you provide (read-only: it works in a copy) and is never run by the test suite.

For the rules ``named``, ``default``, ``namespace`` and ``no-unresolved``, each valid and
invalid case (``{code, filename, settings, options, errors}``) is collected by running the
rule's test file under node with the plugin's test helpers replaced by stand-ins that
record the cases (no eslint is installed or run). Each case's code is written beside the
file it names (``tests/files/foo.js`` by default) and ``contract_check`` runs on it,
in-process. A case is judged by the findings of the rule's own kind:

- ``named``, ``default``, ``namespace``: a name reported missing by an exporter pair;
- ``no-unresolved``: an import reported to resolve to nothing.

It prints per rule the valid cases forge fails and the invalid cases it misses, apart for
cases whose settings or options are not the rule's defaults (a resolver, ``import/ignore``,
``commonjs: true``...), and skips cases written for Babel's or Flow's syntax (forge parses
standard JavaScript and TypeScript).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from forge.checks.contract_check import forge_run_checks
from forge.config import ForgeConfig
from forge.languages import LanguageRegistry, ParseCache
from forge.models import ContractResult, ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.workspace import Workspace

RULES = ("named", "default", "namespace", "no-unresolved")

#: Loads a rule's test file with stand-ins for its helpers; prints one JSON line per suite.
COLLECT = r"""
const Module = require("module"), path = require("path"), fs = require("fs");
const [repo, rule] = process.argv.slice(1);
const files = path.join(repo, "tests", "files");
const FILENAME = path.join(files, "foo.js");
const parsers = {ESPREE: "espree", TS_OLD: false, TS_NEW: "typescript", BABEL_OLD: "babel",
  BABEL_NEW: "babel", ANGULAR: false};
const test = (t) => ({filename: FILENAME, ...t});
const anything = new Proxy(function () {}, {
  get: (target, key) => key === Symbol.toPrimitive ? () => "" : anything,
  apply: () => true,
});
const suites = [];
// mocha's globals: blocks run at once, hooks and tests are not run.
global.describe = global.context = (_name, fn) => fn && fn.call({timeout() {}, skip() {}});
global.describe.skip = global.context.skip = () => {};
global.it = global.before = global.after = global.beforeEach = global.afterEach = () => {};
class RuleTester {
  constructor(config) { this.config = config || {}; }
  run(name, _rule, tests) { suites.push({name, config: this.config, valid: tests.valid, invalid: tests.invalid}); }
}
const stubs = {
  "../utils": {parsers, test, FILENAME, SYNTAX_CASES: [], testFilePath: (p) => path.join(files, p),
    getFilename: (f) => path.join(files, f || "foo.js"), getTSParsers: () => ["typescript"],
    getNonDefaultParsers: () => ["typescript", "babel"], testVersion: (_s, t) => [test(t())],
    eslintVersionSatisfies: () => true, tsVersionSatisfies: () => true,
    typescriptEslintParserSatisfies: () => true, testContext: () => ({})},
  "../rule-tester": {RuleTester, usingFlatConfig: false, withoutAutofixOutput: (t) => t},
  "eslint-module-utils/resolve": {CASE_SENSITIVE_FS: true},
  "array.prototype.flatmap": (list, fn) => list.flatMap(fn),
  "object.assign": Object.assign,
  "object.fromentries": Object.fromEntries,
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request in stubs) return stubs[request];
  if (request.startsWith("rules/") || request.startsWith("../../src/")) return {};
  try { return load.apply(this, arguments); } catch (error) { return anything; }
};
const file = path.join(repo, "tests", "src", "rules", rule + ".js");
let code = fs.readFileSync(file, "utf8");
// The test files are ES modules run through Babel: their imports, as requires.
code = code.replace(/^import\s+([\s\S]*?)\s+from\s+(['"][^'"]+['"]);?/gm, (all, what, from) => {
  const parts = [];
  const named = /\{([\s\S]*)\}/.exec(what);
  const rest = what.replace(/\{[\s\S]*\}/, "").split(",").map((s) => s.trim()).filter(Boolean);
  for (const item of rest) {
    const star = /^\*\s+as\s+(\w+)$/.exec(item);
    parts.push(star ? `const ${star[1]} = require(${from});`
      : `const ${item} = ((m) => m && m.default !== undefined ? m.default : m)(require(${from}));`);
  }
  if (named) {
    const names = named[1].split(",").map((s) => s.trim()).filter(Boolean)
      .map((s) => s.replace(/\s+as\s+/, ": "));
    parts.push(`const {${names.join(", ")}} = require(${from});`);
  }
  return parts.join(" ");
});
const module_ = new Module(file, null);
module_.filename = file;
module_.paths = Module._nodeModulePaths(path.dirname(file));
module_._compile(code, file);
const plain = (cases) => cases.filter((c) => c && typeof c === "object").map((c) => ({
  code: c.code, filename: c.filename || FILENAME, settings: c.settings || null,
  options: c.options || null, parser: typeof c.parser === "string" ? c.parser : null,
  errors: Array.isArray(c.errors) ? c.errors.length : c.errors || 0,
}));
for (const suite of suites) {
  console.log(JSON.stringify({rule: suite.name, valid: plain(suite.valid), invalid: plain(suite.invalid)}));
}
"""


@dataclass
class Tally:
    """One rule's cases, as forge judged them."""

    valid: int = 0
    invalid: int = 0
    skipped: int = 0
    failed_valid: list[str] = field(default_factory=list)
    missed_invalid: list[str] = field(default_factory=list)
    failed_valid_settings: list[str] = field(default_factory=list)
    missed_invalid_settings: list[str] = field(default_factory=list)


def collect(checkout: Path, rule: str) -> list[dict[str, object]]:
    """The rule's test cases, from its test file run under node with stand-in helpers."""
    done = subprocess.run(
        ["node", "-e", COLLECT, str(checkout), rule],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    suites: list[dict[str, object]] = [json.loads(line) for line in done.stdout.splitlines()]
    return suites


#: `import { default as x }`: the named rule's business too.
_NAMED_DEFAULT = re.compile(r"\{[^}]*[\"']?\bdefault[\"']?\s+as\b")


def findings(root: Path, case_file: Path, rule: str, registry: LanguageRegistry) -> list[str]:
    """The findings of ``rule``'s kind that contract_check reports for ``case_file``."""
    workspace = Workspace(root, config=ForgeConfig(), languages=registry, parse_cache=ParseCache())
    relative = case_file.relative_to(root).as_posix()
    request = ValidateRequest(module_id="eslint-case", files=[relative])
    found = []
    for result in forge_run_checks(request=request, workspace=workspace):
        if result.passed:
            continue
        missing = result.missing if isinstance(result, ContractResult) else []
        if rule == "default":
            missing = [name for name in missing if name == "default"]
        elif rule == "named":
            written = _NAMED_DEFAULT.search(case_file.read_text(encoding="utf-8"))
            missing = [name for name in missing if name != "default" or written]
        # An import of nothing: a result of its own, with no exports to compare.
        unresolved = isinstance(result, ContractResult) and not result.exported_names
        if (rule == "no-unresolved" and unresolved and not missing) or (
            rule != "no-unresolved" and missing
        ):
            found.append(result.message)
    return found


def judge(root: Path, rule: str, suites: list[dict[str, object]], tally: Tally) -> None:
    """Run every case of ``suites`` through forge, counting into ``tally``."""
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    for suite in suites:
        for kind in ("valid", "invalid"):
            for case in suite[kind]:  # type: ignore[attr-defined]
                # eslint-disable comments test eslint's own machinery, not the rule.
                if (
                    case["parser"] == "babel"
                    or not isinstance(case["code"], str)
                    or "eslint-disable" in case["code"]
                ):
                    tally.skipped += 1
                    continue
                target = Path(case["filename"])
                suffix = (
                    ".ts"
                    if case["parser"] == "typescript" and target.suffix in {".js", ""}
                    else target.suffix or ".js"
                )
                if case["parser"] == "typescript" and target.suffix in {".ts", ".tsx"}:
                    suffix = target.suffix
                written = target.parent / f"__forge_case__{suffix}"
                written.parent.mkdir(parents=True, exist_ok=True)
                written.write_text(case["code"], encoding="utf-8")
                try:
                    found = findings(root, written, rule, registry)
                finally:
                    written.unlink()
                default = _default_settings(case["settings"]) and not case["options"]
                label = f"{case['code'][:100]!r} ({target.name})"
                if kind == "valid":
                    tally.valid += 1
                    if found:
                        bucket = tally.failed_valid if default else tally.failed_valid_settings
                        bucket.append(f"{label}: {found[0]}")
                else:
                    tally.invalid += 1
                    if not found:
                        bucket = tally.missed_invalid if default else tally.missed_invalid_settings
                        bucket.append(label)


def _default_settings(settings: object) -> bool:
    """No settings, or only the default resolver (node's) named explicitly."""
    if not settings:
        return True
    return settings in ({"import/resolver": "node"}, {"import/resolver": {"node": {}}})


def main() -> int:
    """Collect the cases, judge them, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("checkout", type=Path, help="a checkout of eslint-plugin-import")
    parser.add_argument("--rule", choices=RULES, action="append", help="only these rules")
    parser.add_argument("--show", type=int, default=20, help="cases to list per bucket")
    args = parser.parse_args()
    if shutil.which("node") is None:
        print("node not found: it reads the rule test files")
        return 2
    source = args.checkout.resolve()
    if not (source / "tests" / "files").is_dir():
        print(f"{source} has no tests/files: not a checkout of eslint-plugin-import")
        return 2
    with tempfile.TemporaryDirectory(prefix="forge-eslint-import-") as scratch:
        root = Path(scratch) / "checkout"
        shutil.copytree(source / "tests", root / "tests", symlinks=True)
        for name in ("package.json",):
            if (source / name).is_file():
                shutil.copy(source / name, root / name)
        print(
            "rule | valid | valid failed (default settings) | valid failed (other settings) "
            "| invalid | invalid missed (default) | invalid missed (other) | skipped (Babel/Flow)"
        )
        details = []
        for rule in args.rule or RULES:
            tally = Tally()
            judge(root / "tests" / "files", rule, collect(root, rule), tally)
            print(
                f"{rule} | {tally.valid} | {len(tally.failed_valid)} | "
                f"{len(tally.failed_valid_settings)} | {tally.invalid} | "
                f"{len(tally.missed_invalid)} | {len(tally.missed_invalid_settings)} | {tally.skipped}"
            )
            details.append((rule, tally))
        for rule, tally in details:
            for title, bucket in (
                ("valid failed, default settings", tally.failed_valid),
                ("valid failed, other settings", tally.failed_valid_settings),
                ("invalid missed, default settings", tally.missed_invalid),
                ("invalid missed, other settings", tally.missed_invalid_settings),
            ):
                if bucket:
                    print(f"\n{rule}: {title} ({len(bucket)})")
                    for line in bucket[: args.show]:
                        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
