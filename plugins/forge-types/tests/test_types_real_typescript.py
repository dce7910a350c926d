"""type_check on got, downloaded at test time, with the project's own tsc from node_modules.

got publishes its modules as JavaScript beside their declarations (``dist/source``):
a tsconfig with ``checkJs`` has tsc check the JavaScript against them, so mistakes in
the code, and in the declarations other files rely on, are caught the way tsc
reports them. Only got's runtime dependencies and the ``typescript`` and
``@types/node`` its devDependencies name are installed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forge_testing import copy_of_published, git
from types_testing import (
    Mistake,
    assert_caught,
    assert_harmless,
    judged_through_cli_and_mcp,
    run_forge_in,
    type_result,
)

pytestmark = pytest.mark.slow

GOT = "got@14.6.6"
SRC = "dist/source"
TSCONFIG = {
    "compilerOptions": {
        "allowJs": True,
        "checkJs": True,
        "noEmit": True,
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "target": "es2022",
        "skipLibCheck": True,
    },
    "include": [f"{SRC}/**/*.js"],
}

MISTAKES: list[Mistake] = [
    ("wrong argument count", "core/index.js", "getBodySize(options.body, options.headers)",
     "getBodySize(options.body)", "core/index.js", "core/index.js", "getBodySize(options.body)", "TS2554"),
    ("unknown property in an options object", "core/index.js",
     "calculateRetryDelay({\n                        attemptCount,",
     "calculateRetryDelay({\n                        attemptCount, attemptz: 1,",
     "core/index.js", "core/index.js", "attemptz: 1", "TS2353"),
    ("name an imported module does not export", "core/index.js", "getUnixSocketPath }",
     "getUnixSocketPathz }", "core/index.js", "core/index.js", "getUnixSocketPathz }", "TS2724"),
    ("method of an instance of an imported class", "create.js", "options.merge(value);",
     "options.mergeAll(value);", "create.js", "create.js", "options.mergeAll(value);", "TS2339"),
    ("required parameter added to an exporter", "core/utils/url-to-options.d.ts",
     "url: URL | UrlWithStringQuery)", "url: URL | UrlWithStringQuery, base: string)",
     "core/utils/url-to-options.d.ts", "core/index.js", "urlToOptions(url)", "TS2554"),
    ("property removed from an exported class that another file reads", "core/options.d.ts",
     "    get pagination(): PaginationOptions<unknown, unknown>;\n    set pagination(value: PaginationOptions<unknown, unknown>);\n",
     "", "core/options.d.ts", "create.js", "const { pagination } = normalizedOptions;", "TS2339"),
    ("method renamed, another file calls the old name", "core/options.d.ts",
     "    merge(options?: OptionsInit | Options): void;", "    mergeWith(options?: OptionsInit | Options): void;",
     "core/options.d.ts", "create.js", "normalizedOptions.merge(optionsToMerge)", "TS2339"),
]  # fmt: skip
#: (name, [(file, old, new)], files listed): edits that break nothing.
HARMLESS: list[tuple[str, list[tuple[str, str, str]], list[str]]] = [
    ("rename a local", [("core/index.js", "uploadBodySize", "bodySize")] * 3, ["core/index.js"]),
    ("reorder imports", [("core/index.js", "import timer from './utils/timer.js';\nimport getBodySize from './utils/get-body-size.js';\n",
                          "import getBodySize from './utils/get-body-size.js';\nimport timer from './utils/timer.js';\n")],
     ["core/index.js"]),
    ("add an optional parameter that one caller passes", [
        ("core/utils/url-to-options.d.ts", "url: URL | UrlWithStringQuery)", "url: URL | UrlWithStringQuery, strict?: boolean)"),
        ("core/utils/url-to-options.js", "export default function urlToOptions(url) {", "export default function urlToOptions(url, strict = false) {"),
        ("core/index.js", "urlToOptions(url)", "urlToOptions(url, true)"),
    ], ["core/utils/url-to-options.d.ts", "core/utils/url-to-options.js", "core/index.js"]),
]  # fmt: skip


@pytest.fixture(scope="module")
def got_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """got as published, its dependencies and its own TypeScript installed, committed."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    root = copy_of_published("npm", GOT, tmp_path_factory.mktemp("got") / "got")
    manifest = json.loads((root / "package.json").read_text(encoding="utf-8"))
    dev = manifest.get("devDependencies", {})
    manifest["devDependencies"] = {name: dev[name] for name in ("typescript", "@types/node")}
    (root / "package.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    (root / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2), encoding="utf-8")
    done = subprocess.run(
        [npm, "install", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"],
        cwd=root, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot npm install got's dependencies (no network?): {done.stderr[-300:]}")
    git(root, "init", "-q")
    (root / ".git" / "info" / "exclude").write_text("node_modules/\n.forge/\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "published")
    yield root


def _apply(root: Path, name: str, old: str, new: str) -> None:
    path = root / SRC / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _apply_all(root: Path, edits: list[tuple[str, str, str]]) -> None:
    for name, old, new in edits:
        _apply(root, name, old, new)


def test_got_each_mistake_is_caught_through_the_cli_and_mcp(got_repo: Path) -> None:
    """Every kind of mistake made at once (each its own place), so tsc runs once per route.

    Each is still found at its own line with its own rule: one does not hide another.
    """
    _apply_all(got_repo, [(edited, old, new) for _, edited, old, new, *_ in MISTAKES])
    listed = [f"{SRC}/{name}" for name in dict.fromkeys(mistake[4] for mistake in MISTAKES)]

    def check(report: dict[str, Any]) -> None:
        for mistake in MISTAKES:
            assert_caught(report, got_repo, SRC, mistake, "tsc ")

    judged_through_cli_and_mcp(got_repo, listed, check)


def test_got_harmless_edits_pass(got_repo: Path) -> None:
    """Every harmless edit at once: nothing new."""
    for _, edits, _ in HARMLESS:
        _apply_all(got_repo, edits)
    listed = [f"{SRC}/{name}" for _, _, names in HARMLESS for name in names]
    assert_harmless(got_repo, listed)


def test_got_unmodified_against_itself_nothing_counts(got_repo: Path) -> None:
    files = sorted(str(p.relative_to(got_repo)) for p in (got_repo / SRC).rglob("*.js"))
    done = run_forge_in(got_repo, "validate", "--files", *files, "--base", "main", "--json")
    result = type_result(json.loads(done.stdout))
    assert result["newCount"] == 0 and result["oldCount"] > 0, result["message"]


def test_got_whose_tsconfig_names_types_not_installed_is_checked_without_them(
    got_repo: Path,
) -> None:
    """A partial install: ``types`` names ``vitest`` and ``mocha``, which are not installed.

    tsc stopped at TS2688 at the base and in the work alike and checked nothing, and
    forge said "no type error". Checked without them, a wrong-arity edit fails; a
    configuration that stops tsc for good did not run, and is no pass.
    """
    typed = {**TSCONFIG, "compilerOptions": {**TSCONFIG["compilerOptions"]}}
    typed["compilerOptions"]["types"] = ["node", "vitest", "mocha"]  # type: ignore[index]
    tsconfig = got_repo / "tsconfig.json"
    git(got_repo, "checkout", "-q", "-b", "typed")
    try:
        tsconfig.write_text(json.dumps(typed, indent=2), encoding="utf-8")
        git(got_repo, "commit", "-q", "-am", "types named")
        wrong_arity = MISTAKES[0]
        _apply(got_repo, *wrong_arity[1:4])
        listed = [f"{SRC}/{wrong_arity[4]}"]
        done = run_forge_in(got_repo, "validate", "--files", *listed, "--base", "typed", "--json")
        report = json.loads(done.stdout)
        assert_caught(report, got_repo, SRC, wrong_arity, "tsc ")
        result = type_result(report)
        assert "checked without types mocha, vitest: not installed" in result["message"]
        assert done.returncode == 1
        # A configuration nothing can be left out of: did not run, never a pass.
        git(got_repo, "checkout", "-q", "--", ".")
        typed["compilerOptions"]["target"] = "es3"  # type: ignore[index]
        tsconfig.write_text(json.dumps(typed, indent=2), encoding="utf-8")
        done = run_forge_in(got_repo, "validate", "--files", *listed, "--base", "typed", "--json")
        result = type_result(json.loads(done.stdout))
        assert result["passed"] is False and result["unjudged"] is True, result
        assert "did not run: TS5108" in result["message"], result["message"]
        assert done.returncode == 1
    finally:
        git(got_repo, "checkout", "-q", "-f", "main")
        git(got_repo, "branch", "-q", "-D", "typed")
