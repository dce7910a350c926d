"""JavaScript early errors: forge's verdicts against node's on tc39's parser tests.

Downloads ``test262-parser-tests`` (npm, ``npm pack``) into a temp dir at run
time and judges every file of ``pass/``, ``pass-explicit/``, ``fail/`` and
``early/`` (a ``*.module.js`` as a module, ``.mjs``; any other as a ``.js`` of
a package without ``"type"``) by:

- forge now (V8 through a warm node where node is on ``PATH``, oxc for JSX);
- forge before issue 38 (oxc-python 0.1.1 and the checks around it alone);
- node's V8 through ``vm`` in one process, with node's goals (a module; or
  CommonJS, then a module, as node 20's detection runs a ``.js``);
- ``node --check FILE``, one process per file, on ``fail/`` and ``early/``
  (``--node-check``; it judges a ``.js`` as CommonJS and does not parse one
  it detects as ESM, see docs/languages.md);
- optionally oxlint (``--oxlint PATH``: oxc's semantic checker, the
  ``oxlint`` wheel on PyPI), the other engine measured: its ``.cjs`` goal is a
  sloppy script, ``.mjs`` a module, a script tried as both.

Prints per folder how many files each accepts, how many of forge's verdicts
differ from node's (``vm``), and forge's time for the whole corpus.

Usage::

    python benchmarks/js_early_errors.py [--node-check] [--oxlint PATH]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from forge.checks.syntax_check import check_syntax
from forge.languages import LanguageRegistry, ParseCache, ParseSession, oxc
from forge.models import SyntaxAuthority
from forge.plugin_host.host import build_plugin_host

CORPUS = "test262-parser-tests@0.0.5"
FOLDERS = ("pass", "pass-explicit", "fail", "early")

NODE_VM = r"""
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

Accepted = dict[str, set[str]]


def download(workdir: Path) -> Path:
    """The corpus, unpacked under ``workdir``."""
    subprocess.run(
        ["npm", "pack", "--silent", CORPUS], cwd=workdir, check=True, capture_output=True
    )
    archive = next(workdir.glob("test262-parser-tests-*.tgz"))
    with tarfile.open(archive) as tar:
        tar.extractall(workdir, filter="data")
    return workdir / "package"


def as_checked(path: Path, workdir: Path) -> Path:
    """The file under the name node and forge judge it by (a module as ``.mjs``)."""
    if not path.name.endswith(".module.js"):
        return path
    target = workdir / "mjs" / path.parent.name / path.name.replace(".module.js", ".mjs")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, target)
    return target


def forge_accepts(root: Path, workdir: Path, pick: str) -> tuple[Accepted, float]:
    """Per folder, the files forge passes (``pick``: "now" or "before"), and the seconds."""
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    authority: SyntaxAuthority | None = registry.authority("javascript")
    if pick == "before":
        authority = oxc.load_authority()
    session = ParseSession(registry, ParseCache(max_bytes=0), max_file_bytes=5_000_000)
    accepted: Accepted = {folder: set() for folder in FOLDERS}
    started = time.perf_counter()
    for folder in FOLDERS:
        for path in sorted((root / folder).iterdir()):
            checked = as_checked(path, workdir)
            parsed = session.parse(checked)
            assert parsed is not None
            if check_syntax(checked.name, parsed, authority).passed:
                accepted[folder].add(path.name)
    return accepted, time.perf_counter() - started


def node_vm_accepts(root: Path) -> Accepted:
    """Per folder, the files V8 compiles through node's ``vm`` with node's goals."""
    files = [path for folder in FOLDERS for path in sorted((root / folder).iterdir())]
    done = subprocess.run(
        ["node", "--experimental-vm-modules", "--no-warnings", "-e", NODE_VM],
        input="\n".join(map(str, files)),
        capture_output=True,
        text=True,
        check=True,
    )
    accepted: Accepted = {folder: set() for folder in FOLDERS}
    for line in done.stdout.splitlines():
        record = json.loads(line)
        if record["ok"]:
            path = Path(record["file"])
            accepted[path.parent.name].add(path.name)
    return accepted


def node_check_accepts(root: Path, workdir: Path, folders: tuple[str, ...]) -> Accepted:
    """Per folder, the files ``node --check`` accepts, one process each."""
    accepted: Accepted = {folder: set() for folder in folders}
    for folder in folders:
        for path in sorted((root / folder).iterdir()):
            checked = as_checked(path, workdir)
            done = subprocess.run(["node", "--check", str(checked)], capture_output=True)
            if done.returncode == 0:
                accepted[folder].add(path.name)
    return accepted


def oxlint_accepts(oxlint: str, root: Path, workdir: Path) -> Accepted:
    """Per folder, the files oxlint reports no error in (no lint rule on: syntax only)."""
    rejected: dict[str, set[str]] = {}
    for goal in ("cjs", "mjs"):
        tree = workdir / "oxlint" / goal
        for folder in FOLDERS:
            (tree / folder).mkdir(parents=True)
            for path in (root / folder).iterdir():
                if goal == "cjs" and path.name.endswith(".module.js"):
                    continue
                shutil.copyfile(path, tree / folder / f"{path.name[:-3]}.{goal}")
        done = subprocess.run(
            [oxlint, "-A", "all", "--format", "json", str(tree)], capture_output=True, text=True
        )
        rejected[goal] = {
            "/".join(Path(d["filename"]).parts[-2:]).rsplit(".", 1)[0] + ".js"
            for d in json.loads(done.stdout)["diagnostics"]
            if d["severity"] == "error"
        }
    accepted: Accepted = {folder: set() for folder in FOLDERS}
    for folder in FOLDERS:
        for path in (root / folder).iterdir():
            key = f"{folder}/{path.name}"
            module = path.name.endswith(".module.js")
            goals = ("mjs",) if module else ("cjs", "mjs")
            if any(key not in rejected[goal] for goal in goals):
                accepted[folder].add(path.name)
    return accepted


def main() -> int:
    """Judge the corpus every way asked for and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--node-check", action="store_true", help="node --check per file too")
    parser.add_argument("--oxlint", help="path of an oxlint binary to compare")
    args = parser.parse_args()
    if shutil.which("node") is None or shutil.which("npm") is None:
        print("node and npm are needed")
        return 2
    with tempfile.TemporaryDirectory() as temp:
        workdir = Path(temp)
        root = download(workdir)
        columns: dict[str, Accepted] = {}
        columns["node vm"] = node_vm_accepts(root)
        columns["forge now"], now_s = forge_accepts(root, workdir, "now")
        columns["forge before"], before_s = forge_accepts(root, workdir, "before")
        if args.node_check:
            columns["node --check"] = node_check_accepts(root, workdir, ("fail", "early"))
        if args.oxlint:
            columns["oxlint"] = oxlint_accepts(args.oxlint, root, workdir)
        node = columns["node vm"]
        print(
            f"node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}; python {sys.version.split()[0]}"
        )
        print(f"{'folder':<14} {'files':>6} " + " ".join(f"{name:>14}" for name in columns))
        differ = dict.fromkeys(columns, 0)
        for folder in FOLDERS:
            total = len(list((root / folder).iterdir()))
            cells = []
            for name, accepted in columns.items():
                if folder not in accepted:
                    cells.append(f"{'-':>14}")
                    continue
                cells.append(f"{len(accepted[folder]):>14}")
                differ[name] += len(accepted[folder] ^ node[folder])
            print(f"{folder:<14} {total:>6} " + " ".join(cells))
        print("verdicts that differ from node's vm, all folders judged:")
        for name, count in differ.items():
            print(f"  {name}: {count}")
        for folder in FOLDERS:
            for name in sorted(columns["forge now"][folder] ^ node[folder]):
                print(f"  forge now and node differ on {folder}/{name}")
        print(f"forge's time over the corpus: now {now_s:.2f}s, before {before_s:.2f}s")
    return 0 if differ["forge now"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
