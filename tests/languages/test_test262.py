"""tc39's parser tests (npm ``test262-parser-tests``, downloaded at test time): forge's
JavaScript syntax verdicts against the corpus, and against node's in the same run.

``pass/`` and ``pass-explicit/`` hold valid programs: none may be reported broken.
``fail/`` holds programs that do not match the grammar, ``early/`` grammatical
programs with early errors: where node is on ``PATH`` V8 decides for forge
(issue 38), so forge agrees with node on every file of every folder, and the
``fail/`` files both accept are exactly those docs/languages.md lists, each with
its reason. A file named ``*.module.js`` is a module (checked as ``.mjs``), any
other a script (checked as a ``.js`` of a package without ``"type"``: CommonJS, or
ESM where node would run it so). node's verdicts come from V8 through its ``vm``
module, with the same goals, in one process for the whole corpus.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from forge_testing import published_sources

from forge.checks.syntax_check import check_syntax
from forge.languages import LanguageRegistry, ParseCache, ParseSession
from forge.plugin_host.host import build_plugin_host

CORPUS = "test262-parser-tests@0.0.5"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "languages.md"
FOLDERS = ("pass", "pass-explicit", "fail", "early")

#: node's own goals for a file: a module, or CommonJS then (node's detection) a module.
NODE_VERDICTS = r"""
const vm = require("vm"), fs = require("fs");
const asModule = (src) => new vm.SourceTextModule(src);
const asScript = (src) => vm.compileFunction(src, ["exports", "require", "module", "__filename", "__dirname"]);
for (const file of fs.readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const src = fs.readFileSync(file, "utf8");
  let ok = false;
  for (const goal of file.endsWith(".module.js") ? [asModule] : [asScript, asModule]) {
    try { goal(src); ok = true; break; } catch (error) { if (!(error instanceof SyntaxError)) { ok = true; break; } }
  }
  console.log(JSON.stringify({file, ok}));
}
"""


def documented_fail_files() -> set[str]:
    """The ``fail/`` files docs/languages.md says forge accepts (its test262 section)."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### tc39's parser tests", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([0-9a-f]{16}(?:\.module)?\.js)`", section))


def forge_accepts(root: Path, workdir: Path) -> dict[str, set[str]]:
    """Per folder, the files forge's syntax check passes (tree-sitter plus oxc, as validate)."""
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    authority = registry.authority("javascript")
    assert authority is not None, "oxc-python is a dependency of forge here"
    session = ParseSession(registry, ParseCache(max_bytes=0), max_file_bytes=5_000_000)
    accepted: dict[str, set[str]] = {}
    for folder in FOLDERS:
        accepted[folder] = set()
        for path in sorted((root / folder).iterdir()):
            checked = path
            if path.name.endswith(".module.js"):  # a module: node's and forge's .mjs
                checked = workdir / folder / path.name.replace(".module.js", ".mjs")
                checked.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, checked)
            parsed = session.parse(checked)
            assert parsed is not None
            if check_syntax(checked.name, parsed, authority).passed:
                accepted[folder].add(path.name)
    return accepted


def node_accepts(root: Path) -> dict[str, set[str]] | None:
    """Per folder, the files node's parser accepts; None without node."""
    if shutil.which("node") is None:
        return None
    files = [path for folder in FOLDERS for path in sorted((root / folder).iterdir())]
    done = subprocess.run(
        ["node", "--experimental-vm-modules", "--no-warnings", "-e", NODE_VERDICTS],
        input="\n".join(str(path) for path in files),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    accepted: dict[str, set[str]] = {folder: set() for folder in FOLDERS}
    for line in done.stdout.splitlines():
        record = json.loads(line)
        if record["ok"]:
            path = Path(record["file"])
            accepted[path.parent.name].add(path.name)
    return accepted


@pytest.mark.slow
def test_test262_parser_tests(tmp_path: Path) -> None:
    root = published_sources("npm", CORPUS)
    ours = forge_accepts(root, tmp_path)
    node = node_accepts(root)
    totals = {folder: len(list((root / folder).iterdir())) for folder in FOLDERS}
    for folder in FOLDERS:
        shown = f"node accepts {len(node[folder])}" if node is not None else "node not found"
        print(
            f"test262 {folder}/: {totals[folder]} files, forge accepts {len(ours[folder])}, {shown}"
        )

    for folder in ("pass", "pass-explicit"):
        assert sorted({path.name for path in (root / folder).iterdir()} - ours[folder]) == []
    assert totals["fail"] > 700 and totals["pass"] > 1900, "not the corpus this test knows"
    if node is None:
        pytest.skip("node not found: oxc alone decides, which misses early errors")
    # forge's verdict is node's on every file node judges, early errors included.
    for folder in FOLDERS:
        assert (folder, sorted(node[folder] ^ ours[folder])) == (folder, [])
    # Exactly the documented ones: a new acceptance, or one fixed, updates docs/languages.md.
    assert sorted(ours["fail"] ^ documented_fail_files()) == []
