"""type_check on a TypeScript project that depends on valibot, downloaded at test time.

valibot cannot be checked the way got is (its own JavaScript against its own
declarations): its npm tarball is one bundled module, ``dist/index.mjs``, with
one declaration file, ``dist/index.d.mts`` (and their CommonJS twins). No file
of it imports another, so no call crosses a module inside it; and the bundle's
JSDoc carries no types (it is built from TypeScript), so ``checkJs`` infers
``any`` for every parameter. What valibot's declarations can judge is its
users: this project (the files below, written for the test) imports valibot
1.5.0 as any user does, from ``node_modules`` (``npm install``, once per run),
and is checked by its own ``tsc`` 5.9 in strict mode. Each mistake of the
issue is made against valibot's API or across the project's own modules.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forge_testing import git, live_processes_mentioning, npm_installed
from forge_types.tsbuilder import SCRIPT
from types_testing import (
    TYPESCRIPT,
    Mistake,
    assert_caught,
    assert_harmless,
    hook,
    judged_through_cli_and_mcp,
    run_forge_in,
    type_result,
    typescript_repository,
)

pytestmark = pytest.mark.slow

VALIBOT = "valibot@1.5.0"
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "target": "es2022",
        "skipLibCheck": True,
    },
    "include": ["src/**/*.ts"],
}
MANIFEST = {
    "name": "signup",
    "private": True,
    "type": "module",
    "dependencies": {"valibot": "1.5.0"},
    "devDependencies": {"typescript": "5.9.3"},
}
#: The project: schemas built with valibot, a validator class, an app using both, and a
#: legacy file with old type errors (one naming valibot's module by its absolute path).
PROJECT = {
    "package.json": json.dumps(MANIFEST, indent=2),
    "tsconfig.json": json.dumps(TSCONFIG, indent=2),
    "src/schemas.ts": """\
import { maxLength } from 'valibot';
import * as v from 'valibot';

export interface Settings {
  strict: boolean;
  lang: string;
}

export function userSchema(minAge: number) {
  return v.object({
    name: v.pipe(v.string(), v.minLength(1), maxLength(64)),
    email: v.pipe(v.string(), v.email()),
    age: v.pipe(v.number(), v.minValue(minAge)),
  });
}

export type User = v.InferOutput<ReturnType<typeof userSchema>>;
""",
    "src/validator.ts": """\
import * as v from 'valibot';
import { type Settings, type User, userSchema } from './schemas.js';

export class UserValidator {
  private readonly schema: ReturnType<typeof userSchema>;

  constructor(private readonly settings: Settings) {
    this.schema = userSchema(settings.strict ? 18 : 0);
  }

  check(input: unknown): User | string[] {
    const result = v.safeParse(this.schema, input, {
      abortEarly: this.settings.strict,
      lang: this.settings.lang,
    });
    if (result.success) {
      return result.output;
    }
    return result.issues.map((issue) => issue.message);
  }
}
""",
    "src/app.ts": """\
import { ValiError, parse, string } from 'valibot';
import { type Settings, userSchema } from './schemas.js';
import { UserValidator } from './validator.js';

const settings: Settings = { strict: true, lang: 'en' };

export function describe(input: unknown): string {
  const validator = new UserValidator(settings);
  const checked = validator.check(input);
  if (Array.isArray(checked)) {
    return `invalid (${settings.lang}): ${checked.join(', ')}`;
  }
  return `${checked.name} <${checked.email}>`;
}

export function adultName(input: unknown): string {
  try {
    return parse(userSchema(21), input).name;
  } catch (error) {
    if (error instanceof ValiError) {
      return error.issues.map((issue) => issue.message).join('; ');
    }
    throw error;
  }
}

export const title = parse(string(), 'valibot');
""",
    "src/legacy.ts": """\
import * as v from 'valibot';
import { userSchema } from './schemas.js';

// Old code with old type errors: they were there at the base, so they never count.
export const retries: number = 'three';
export const nickname = v.optionl(v.string());

export function legacyUser(input: unknown) {
  return v.parse(userSchema(0), input, { abortEarly: 'yes' });
}
""",
}

MISTAKES: list[Mistake] = [
    ("wrong argument count to an imported function", "app.ts", "parse(string(), 'valibot')",
     "parse(string())", "app.ts", "app.ts", "parse(string())", "TS2554"),
    ("misspelled property in an options object", "validator.ts", "abortEarly: this.settings.strict",
     "abortEarlyy: this.settings.strict", "validator.ts", "validator.ts", "abortEarlyy", "TS2561"),
    ("name an imported module does not export", "schemas.ts", "import { maxLength }",
     "import { maxLenght }", "schemas.ts", "schemas.ts", "import { maxLenght }", "TS2724"),
    ("attribute of an instance of an imported class", "app.ts", "error.issues.map",
     "error.issuez.map", "app.ts", "app.ts", "error.issuez.map", "TS2551"),
    ("function an imported module does not have", "schemas.ts", "v.email()", "v.emial()",
     "schemas.ts", "schemas.ts", "v.emial()", "TS2551"),
    ("argument of the wrong type to an imported function", "schemas.ts", "v.minLength(1)",
     "v.minLength('1')", "schemas.ts", "schemas.ts", "v.minLength('1')", "TS2345"),
    ("required parameter added to an exporter", "schemas.ts", "userSchema(minAge: number)",
     "userSchema(minAge: number, maxAge: number)", "schemas.ts", "validator.ts",
     "userSchema(settings.strict ? 18 : 0)", "TS2554"),
    ("property removed from an exported interface that another file reads", "schemas.ts",
     "  lang: string;\n", "", "schemas.ts", "app.ts", "invalid (${settings.lang})", "TS2339"),
    ("method renamed, another file calls the old name", "validator.ts", "  check(input: unknown)",
     "  validate(input: unknown)", "validator.ts", "app.ts", "validator.check(input)", "TS2339"),
]  # fmt: skip
#: (name, [(file, old, new)], files listed): edits that break nothing.
HARMLESS: list[tuple[str, list[tuple[str, str, str]], list[str]]] = [
    ("rename a local", [("app.ts", "checked", "outcome")] * 5, ["app.ts"]),
    ("add a correct helper and call it", [
        ("app.ts", "export const title = parse(string(), 'valibot');",
         "function shout(text: string): string {\n  return text.toUpperCase();\n}\n\n"
         "export const title = shout(parse(string(), 'valibot'));"),
    ], ["app.ts"]),
    ("reorder imports", [("app.ts", "import { type Settings, userSchema } from './schemas.js';\n"
                          "import { UserValidator } from './validator.js';\n",
                          "import { UserValidator } from './validator.js';\n"
                          "import { type Settings, userSchema } from './schemas.js';\n")], ["app.ts"]),
    ("add an optional parameter that one caller passes", [
        ("schemas.ts", "userSchema(minAge: number)", "userSchema(minAge: number, maxAge = 150)"),
        ("schemas.ts", "v.minValue(minAge))", "v.minValue(minAge), v.maxValue(maxAge))"),
        ("app.ts", "userSchema(21)", "userSchema(21, 99)"),
    ], ["schemas.ts", "app.ts"]),
    ("extract a function", [
        ("validator.ts", "return result.issues.map((issue) => issue.message);", "return messages(result.issues);"),
        ("validator.ts", "export class UserValidator",
         "function messages(issues: readonly v.BaseIssue<unknown>[]): string[] {\n"
         "  return issues.map((issue) => issue.message);\n}\n\nexport class UserValidator"),
    ], ["validator.ts"]),
]  # fmt: skip


@pytest.fixture(scope="module")
def signup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The project committed on ``main``, valibot and its TypeScript in its ``node_modules``.

    The packages are installed once per run (shared, read-only): the project's
    ``node_modules`` links to them, as a workspace's would.
    """
    installed = npm_installed(VALIBOT, TYPESCRIPT)
    manifest = installed / "node_modules" / "valibot" / "package.json"
    assert json.loads(manifest.read_text(encoding="utf-8"))["version"] == "1.5.0"
    yield typescript_repository(tmp_path_factory.mktemp("valibot") / "signup", installed, PROJECT)


def _apply_all(root: Path, edits: list[tuple[str, str, str]]) -> None:
    for name, old, new in edits:
        path = root / "src" / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_valibot_each_mistake_is_caught_through_the_cli_and_mcp(signup: Path) -> None:
    """Every kind of mistake made at once, each at its own place: one tsc run per route."""
    _apply_all(signup, [(edited, old, new) for _, edited, old, new, *_ in MISTAKES])
    listed = [f"src/{name}" for name in dict.fromkeys(mistake[4] for mistake in MISTAKES)]

    def check(report: dict[str, Any]) -> None:
        for mistake in MISTAKES:
            assert_caught(report, signup, "src", mistake, "tsc 5.9.3")
        # The old errors are told apart, though the edits moved them and one names
        # valibot's module by its absolute path.
        result = type_result(report)
        old = {(loc["path"], loc["rule"]) for loc in result["locations"] if loc.get("preExisting")}
        assert {("src/legacy.ts", "TS2322"), ("src/legacy.ts", "TS2551")} <= old, old

    judged_through_cli_and_mcp(signup, listed, check)


def test_valibot_harmless_edits_pass(signup: Path) -> None:
    """Every harmless edit at once: nothing new, the old errors stay old."""
    for _, edits, _ in HARMLESS:
        _apply_all(signup, edits)
    listed = [f"src/{name}" for _, _, names in HARMLESS for name in names]
    assert_harmless(signup, listed, old_count=3)


def test_valibot_unmodified_against_itself_nothing_counts(signup: Path) -> None:
    files = sorted(str(p.relative_to(signup)) for p in (signup / "src").glob("*.ts"))
    done = run_forge_in(signup, "validate", "--files", *files, "--base", "main", "--json")
    result = type_result(json.loads(done.stdout))
    assert result["newCount"] == 0 and result["oldCount"] == 3, result["message"]
    assert done.returncode == 0, done.stdout[-2000:]


def test_valibot_warm_checker_follows_edits_of_files_never_asked_about(signup: Path) -> None:
    """The warm checker (the project's TypeScript builder) answers forge validate and forge hook.

    Only ``app.ts`` is ever asked about; ``validator.ts``, which it imports, is edited
    on disk: the answer about ``app.ts`` must already see the edit.
    """
    from forge_types import plugin
    from forge_types.checkers import Invocation, socket_path
    from forge_types.selection import typescript_checker
    from forge_types.warm import ask

    root = signup.resolve()
    tsc = typescript_checker(root, root)
    assert not isinstance(tsc, type(None))
    key = tsc.warm_key(Invocation(root=root, project_file=root / "tsconfig.json"))  # type: ignore[union-attr]
    assert key is not None
    plugin.forge_engine_started(project_root=root)
    try:
        deadline = time.monotonic() + 120
        while not socket_path(key).exists():
            assert time.monotonic() < deadline, "the warm checker never listened"
            time.sleep(0.1)
        before = run_forge_in(signup, "validate", "--files", "src/app.ts", "--json")
        assert before.returncode == 0, before.stdout[-2000:]
        _apply_all(
            signup, [("validator.ts", "  check(input: unknown)", "  validate(input: unknown)")]
        )
        # Asked at once, straight after the edit: the answer is the warm checker's own.
        raw = ask(key, [root / "src" / "app.ts"])
        assert raw is not None and [(r[1], r[2], r[3]) for r in raw] == [(9, 29, "TS2339")], raw
        after = run_forge_in(signup, "validate", "--files", "src/app.ts", "--json")
        result = type_result(json.loads(after.stdout))
        broken = [(loc["path"], loc["line"], loc["rule"]) for loc in result["locations"]]
        assert ("src/app.ts", 9, "TS2339") in broken, result
        assert after.returncode == 1
        # forge hook answers from the warm checker only (a cold tsc is never run on an edit).
        decision = json.loads(hook(signup, "src/app.ts").stdout)
        assert decision.get("decision") == "block", decision
        assert "src/app.ts:9:29: Property 'check' does not exist" in decision["reason"]
    finally:
        git(signup, "checkout", "-q", "--", ".")
        plugin.forge_engine_stopped(project_root=root)
    assert not socket_path(key).exists()
    assert not live_processes_mentioning(key[:40])
    assert not [line for line in live_processes_mentioning(str(SCRIPT)) if str(root) in line]
