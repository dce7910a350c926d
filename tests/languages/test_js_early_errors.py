"""JavaScript early errors as node sees them (issue 38): a file node refuses to load
with a SyntaxError fails ``syntax_check`` with node's message and line:column; the
honest twin of each (what node loads) passes, sloppy scripts keep what they allow.

Through the installed CLI; node judges, so these need it on ``PATH``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from forge_testing import RunForge

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node not found")

#: (file name, source node refuses, node's message, line, column, the honest twin).
REFUSED = [
    (
        "dup.js",
        "const a = 1;\nconst a = 2;\n",
        "Identifier 'a' has already been declared",
        2,
        7,
        "const a = 1;\nconst b = 2;\n",
    ),
    (
        "twice.js",
        "function total(items) {\n  let y = 0;\n  let y = items.length;\n  return y;\n}\n",
        "Identifier 'y' has already been declared",
        3,
        7,
        "function total(items) {\n  let y = 0;\n  y = items.length;\n  return y;\n}\n",
    ),
    (
        "arrow.mjs",
        "export const f = (price) => {\n  const price = 2;\n  return price;\n};\n",
        "Identifier 'price' has already been declared",
        2,
        9,
        "export const f = (price) => {\n  const cost = price * 2;\n  return cost;\n};\n",
    ),
    (
        "params.js",
        "'use strict';\nfunction add(a, a) { return a; }\n",
        "Duplicate parameter name not allowed in this context",
        2,
        17,
        "function add(a, a) { return a; }\n",  # sloppy: duplicate parameters are allowed
    ),
    (
        "with.mjs",
        "export function f(o) {\n  with (o) { return x; }\n}\n",
        "Strict mode code may not include a with statement",
        2,
        3,
        "export function f(o) {\n  return o.x;\n}\n",
    ),
    (
        "regex.js",
        "const pattern = /(a|b/;\nmodule.exports = pattern;\n",
        "Invalid regular expression: /(a|b/: Unterminated group",
        1,
        17,
        "const pattern = /(a|b)/;\nmodule.exports = pattern;\n",
    ),
    (
        "label.js",
        "for (const x of [1]) {\n  continue outer;\n}\n",
        "Undefined label 'outer'",
        2,
        12,
        "outer: for (const x of [1]) {\n  continue outer;\n}\n",
    ),
    (
        "gen.mjs",
        "export function* g() {\n  const yield = 1;\n  return yield;\n}\n",
        "Unexpected strict mode reserved word",
        2,
        9,
        "export function* g() {\n  const value = yield 1;\n  return value;\n}\n",
    ),
    (
        "await.mjs",
        "export function load(url) {\n  return await fetch(url);\n}\n",
        "Unexpected reserved word",  # V8's words for `await` outside async in a module
        2,
        10,
        "export async function load(url) {\n  return await fetch(url);\n}\n",
    ),
]


@pytest.mark.parametrize(
    ("name", "source", "message", "line", "column", "twin"),
    REFUSED,
    ids=[case[0] for case in REFUSED],
)
def test_node_refuses_forge_fails_with_its_message(
    project: Path,
    run_forge: RunForge,
    name: str,
    source: str,
    message: str,
    line: int,
    column: int,
    twin: str,
) -> None:
    (project / name).write_text(source, encoding="utf-8")
    done = run_forge("validate", "--files", name, "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    result = next(r for r in json.loads(done.stdout)["results"] if r["type"] == "syntax_check")
    assert not result["passed"], result
    first = result["locations"][0]
    assert (first["message"], first["line"], first["column"]) == (message, line, column)

    (project / name).write_text(twin, encoding="utf-8")
    done = run_forge("validate", "--files", name, "--json")
    result = next(r for r in json.loads(done.stdout)["results"] if r["type"] == "syntax_check")
    assert result["passed"], result


#: What node loads in a sloppy script (and bundlers in a .js): never reported.
ALLOWED = {
    "with.js": "with (Math) { module.exports = max(1, 2); }\n",
    "yield_name.js": "var yield = 1;\nvar let = 2;\nmodule.exports = yield + let;\n",
    "octal.js": "module.exports = 010;\n",
    "html_comment.js": "<!-- old browsers\nmodule.exports = 1;\n",
    "jsx_in.js": "export const App = () => <div>{1}</div>;\n",
    "esm_in.js": "import fs from 'fs';\nexport default fs;\n",
    "top_return.js": "if (process.env.X) return;\nmodule.exports = 1;\n",
}


def test_sloppy_scripts_and_jsx_keep_what_node_and_bundlers_allow(
    project: Path, run_forge: RunForge
) -> None:
    for name, source in ALLOWED.items():
        (project / name).write_text(source, encoding="utf-8")
    done = run_forge("validate", "--files", *ALLOWED, "--json")
    results = {r["target"]: r for r in json.loads(done.stdout)["results"]}
    failed = {name: results[name]["message"] for name in ALLOWED if not results[name]["passed"]}
    assert failed == {}


def test_the_file_is_never_run(project: Path, run_forge: RunForge) -> None:
    marker = project / "ran"
    (project / "side.js").write_text(
        f"require('fs').writeFileSync({json.dumps(str(marker))}, 'x');\nconst a = 1;\n",
        encoding="utf-8",
    )
    (project / "side.mjs").write_text(
        f"import fs from 'fs';\nfs.writeFileSync({json.dumps(str(marker))}, 'x');\n",
        encoding="utf-8",
    )
    done = run_forge("validate", "--files", "side.js", "side.mjs")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not marker.exists()


@pytest.mark.parametrize("node", ["", "#!/bin/sh\nexit 3\n"], ids=["no-node", "node-dies"])
def test_without_a_working_node_oxc_decides(
    project: Path, run_forge: RunForge, tmp_path: Path, node: str
) -> None:
    """No node on PATH, or one that dies at once: oxc decides as before (grammar errors
    still fail, early errors go unseen), and nothing hangs or crashes."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if node:
        (bin_dir / "node").write_text(node, encoding="utf-8")
        (bin_dir / "node").chmod(0o755)
    (project / "dup.js").write_text("const a = 1;\nconst a = 2;\n", encoding="utf-8")
    (project / "cut.js").write_text("function f() {\n", encoding="utf-8")
    done = run_forge(
        "validate", "--files", "dup.js", "cut.js", "--json", env={"PATH": str(bin_dir)}
    )
    results = {r["target"]: r for r in json.loads(done.stdout)["results"]}
    assert results["dup.js"]["passed"]
    assert not results["cut.js"]["passed"]


def test_many_files_in_one_call_get_each_its_own_verdict(
    project: Path, run_forge: RunForge
) -> None:
    """node takes a call's files in one go (prepare): each still gets its own verdict,
    identical sources and goals included."""
    files = {name: source for name, source, *_ in REFUSED}
    files |= {f"twin_{name}": twin for name, _, _, _, _, twin in REFUSED}
    files |= ALLOWED | {"copy_dup.js": files["dup.js"], "copy_ok.js": ALLOWED["with.js"]}
    for name, source in files.items():
        (project / name).write_text(source, encoding="utf-8")
    done = run_forge("validate", "--files", *files, "--json")
    results = {r["target"]: r for r in json.loads(done.stdout)["results"]}
    failed = sorted(name for name in files if not results[name]["passed"])
    expected = sorted([name for name, *_ in REFUSED] + ["copy_dup.js"])
    assert failed == expected
