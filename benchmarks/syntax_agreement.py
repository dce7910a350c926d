"""How often forge's syntax verdict agrees with the real compilers, against tree-sitter alone.

The corpus is real code: published packages downloaded at run time into a
temp dir (``corpus.NPM_PACKAGES`` with ``npm pack``, ``corpus.PYPI_PACKAGES``
with ``pip download --no-binary :all:``; a seeded sample of each package's
files), the repository's shipped modern-syntax files, and optionally
generated files. Each original gets ``--mutants`` broken variants beside it
(a deleted bracket, a stray paren, a cut file, an unterminated string;
seeded), so the nearest package.json and pyproject.toml still apply.

The reference decides which files are valid:

- Python: ``compile()`` of the running interpreter;
- JavaScript: V8 through node's ``vm`` module, with node's goals: ``.mjs`` a
  module, ``.cjs`` CommonJS, ``.js`` by the nearest package.json's
  ``"type"`` (none or ``"commonjs"``: CommonJS, or a module when node would
  run it as one); ``.jsx`` through the TypeScript parser (node has no JSX);
- TypeScript and TSX: the TypeScript compiler's parser
  (``createSourceFile(...).parseDiagnostics``).

Each file is judged by forge (tree-sitter plus the language's authority) and
by tree-sitter alone, in the same run. Printed per language and in all: valid
files reported broken, broken files reported valid, misjudged files; then the
targets: forge reports no valid file broken, and misjudges at least 4x fewer
files than tree-sitter alone.

Usage::

    python benchmarks/syntax_agreement.py [--per-package 40] [--mutants 2]
        [--generated 0] [--offline] [--typescript DIR]

``--typescript`` is a ``node_modules/typescript`` folder (default: found with
``require.resolve`` from the working dir, else installed into the temp dir
with ``npm install typescript``). Needs node; ``--offline`` uses only the
shipped and generated files.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from corpus import (
    MUTATIONS,
    SHIPPED,
    download,
    mutant_path,
    sample_files,
    write_generated,
)

from forge.checks.syntax_check import check_syntax
from forge.languages import LanguageRegistry, NotParsed, ParseCache, ParseSession
from forge.plugin_host.host import build_plugin_host

SUFFIXES = {
    "python": (".py",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "typescript": (".ts", ".mts", ".cts"),
    "tsx": (".tsx",),
}

TS_PARSE = r"""
const ts = require(process.argv[1]);
const fs = require("fs");
for (const file of fs.readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX
    : file.endsWith(".jsx") ? ts.ScriptKind.JSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, kind);
  const d = sf.parseDiagnostics;
  const line = d.length ? sf.getLineAndCharacterOfPosition(d[0].start).line + 1 : null;
  console.log(JSON.stringify({file, ok: d.length === 0, line}));
}
"""

NODE_PARSE = r"""
const vm = require("vm"), fs = require("fs"), path = require("path");
function packageType(dir) {
  for (;;) {
    const candidate = path.join(dir, "package.json");
    if (fs.existsSync(candidate)) {
      try { return JSON.parse(fs.readFileSync(candidate, "utf8")).type; } catch { return undefined; }
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
const asModule = (src, file) => new vm.SourceTextModule(src, {identifier: "file://" + file});
const asCommonJS = (src, file) => vm.compileFunction(
  src.startsWith("#!") ? "//" + src.slice(2) : src,
  ["exports", "require", "module", "__filename", "__dirname"], {filename: file});
for (const file of fs.readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const src = fs.readFileSync(file, "utf8");
  const goals = file.endsWith(".mjs") ? [asModule] : file.endsWith(".cjs") ? [asCommonJS]
    : packageType(path.dirname(file)) === "module" ? [asModule] : [asCommonJS, asModule];
  let ok = false, line = null;
  for (const goal of goals) {
    try { goal(src, file); ok = true; break; } catch (error) {
      if (!(error instanceof SyntaxError)) { ok = true; break; }
      const match = /:(\d+)\n/.exec(String(error.stack));
      if (line === null && match) line = Number(match[1]);
    }
  }
  console.log(JSON.stringify({file, ok, line}));
}
"""

Verdict = tuple[bool, int | None]  # (accepted, first error line)


@dataclass
class Tally:
    """Verdicts for one language (or all), forge's and tree-sitter's."""

    files: int = 0
    valid: int = 0
    broken: int = 0
    false_alarms: dict[str, list[str]] = field(default_factory=lambda: {"forge": [], "ts": []})
    misses: dict[str, list[str]] = field(default_factory=lambda: {"forge": [], "ts": []})

    def misjudged(self, who: str) -> int:
        """Files ``who`` judged otherwise than the reference."""
        return len(self.false_alarms[who]) + len(self.misses[who])

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts to these."""
        self.files += other.files
        self.valid += other.valid
        self.broken += other.broken
        for who in ("forge", "ts"):
            self.false_alarms[who] += other.false_alarms[who]
            self.misses[who] += other.misses[who]


def python_verdicts(files: list[Path]) -> dict[Path, Verdict]:
    """``compile()`` of each file, in-process."""
    verdicts: dict[Path, Verdict] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in files:
            try:
                compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
            except SyntaxError as exc:
                verdicts[path] = (False, exc.lineno)
            except (ValueError, RecursionError, MemoryError):
                verdicts[path] = (False, None)
            else:
                verdicts[path] = (True, None)
    return verdicts


def node_verdicts(script: list[str], files: list[Path]) -> dict[Path, Verdict]:
    """Run a node ``script`` that reads file names on stdin and prints one JSON verdict each."""
    if not files:
        return {}
    done = subprocess.run(
        ["node", "--experimental-vm-modules", "--no-warnings", *script],
        input="\n".join(str(path) for path in files),
        capture_output=True,
        text=True,
        check=True,
    )
    verdicts: dict[Path, Verdict] = {}
    for line in done.stdout.splitlines():
        record = json.loads(line)
        verdicts[Path(record["file"])] = (record["ok"], record["line"])
    return verdicts


def forge_verdicts(files: list[Path]) -> tuple[dict[Path, Verdict], dict[Path, Verdict]]:
    """forge's in-process verdicts, with the authorities and with tree-sitter alone."""
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    parsing = ParseSession(registry, ParseCache(max_bytes=0), max_file_bytes=5_000_000)
    ours: dict[Path, Verdict] = {}
    alone: dict[Path, Verdict] = {}
    for path in files:
        try:
            parsed = parsing.parse(path)
        except NotParsed:
            ours[path] = alone[path] = (False, None)
            continue
        assert parsed is not None, path
        for verdicts, authority in (
            (ours, registry.authority(parsed.language.name)),
            (alone, None),
        ):
            result = check_syntax(path.name, parsed, authority)
            verdicts[path] = (
                result.passed,
                result.locations[0].line if result.locations else None,
            )
    return ours, alone


def find_typescript(explicit: str | None, workdir: Path) -> Path | None:
    """The ``typescript`` package folder: given, resolvable, or installed into ``workdir``."""
    if explicit:
        return Path(explicit)
    done = subprocess.run(
        ["node", "-p", "require.resolve('typescript/package.json')"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return Path(done.stdout.strip()).parent
    if shutil.which("npm") is None:
        return None
    install = workdir / "tsc"
    install.mkdir()
    done = subprocess.run(
        ["npm", "install", "--silent", "--no-save", "--prefix", str(install), "typescript@5.9"],
        capture_output=True,
        text=True,
        check=False,
    )
    found = install / "node_modules" / "typescript"
    return found if done.returncode == 0 and found.is_dir() else None


def mutate(originals: list[Path], count: int) -> list[tuple[Path, str]]:
    """``count`` broken variants of each original, beside it, seeded."""
    out: list[tuple[Path, str]] = []
    kinds = sorted(MUTATIONS)
    for path in originals:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        rng = random.Random(str(path.name) + str(len(text)))
        for number in range(count):
            kind = rng.choice(kinds)
            broken = MUTATIONS[kind](text, rng)
            if broken is None or broken == text:
                continue
            target = mutant_path(path, number)
            target.write_text(broken, encoding="utf-8")
            out.append((target, kind))
    return out


def originals(args: argparse.Namespace, workdir: Path) -> dict[str, list[Path]] | None:
    """The valid-looking files per language: downloaded, shipped, generated."""
    folders: list[Path] = []
    if not args.offline:
        started = time.perf_counter()
        downloaded = download(workdir / "real")
        if downloaded is None:
            print("the registries cannot be reached: run with --offline")
            return None
        folders = downloaded
        print(f"downloaded {len(folders)} packages in {time.perf_counter() - started:.0f}s")
    by_language: dict[str, list[Path]] = {}
    shipped_copy = workdir / "shipped"
    shutil.copytree(SHIPPED, shipped_copy)
    if sys.version_info < (3, 12):  # PEP 695 code: the reference cannot judge it here
        shutil.rmtree(shipped_copy / "py312")
    for language, suffixes in SUFFIXES.items():
        files = sample_files(folders, suffixes, args.per_package)
        files += sample_files([shipped_copy], suffixes, 1000)
        if args.generated:
            files += write_generated(workdir / "generated" / language, language, args.generated)
        by_language[language] = files
    return by_language


def main() -> int:
    """Run the comparison and print one line per language, then the totals."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-package", type=int, default=40, help="files per package")
    parser.add_argument("--mutants", type=int, default=2, help="broken variants per file")
    parser.add_argument("--generated", type=int, default=0, help="generated files per language")
    parser.add_argument("--offline", action="store_true", help="no downloads")
    parser.add_argument("--typescript", help="path of node_modules/typescript")
    parser.add_argument("--show", type=int, default=5, help="misjudged files listed per kind")
    args = parser.parse_args()
    if shutil.which("node") is None:
        print("node not found: the JavaScript and TypeScript references need it")
        return 2
    with tempfile.TemporaryDirectory() as temp:
        workdir = Path(temp)
        typescript = find_typescript(args.typescript, workdir)
        if typescript is None:
            print("typescript not found: npm install typescript")
            return 2
        corpus = originals(args, workdir)
        if corpus is None:
            return 2
        print(f"python {sys.version.split()[0]}; typescript {typescript}")
        print(
            f"{'language':<11} {'files':>6} {'valid':>6} {'broken':>6} | "
            f"{'forge: valid->broken':>20} {'broken->valid':>13} {'misjudged':>9} | "
            f"{'tree-sitter alone:':>18} {'v->b':>5} {'b->v':>5} {'misjudged':>9}"
        )
        total = Tally()
        for language, files in corpus.items():
            broken = mutate(files, args.mutants)
            every = files + [path for path, _ in broken]
            if language == "python":
                reference = python_verdicts(every)
            elif language == "javascript":
                plain = [p for p in every if p.suffix != ".jsx"]
                reference = node_verdicts(["-e", NODE_PARSE], plain)
                jsx = [p for p in every if p.suffix == ".jsx"]
                reference |= node_verdicts(["-e", TS_PARSE, str(typescript)], jsx)
            else:
                reference = node_verdicts(["-e", TS_PARSE, str(typescript)], every)
            ours, alone = forge_verdicts(every)
            tally = Tally(files=len(every))
            for path in every:
                valid = reference[path][0]
                tally.valid += valid
                tally.broken += not valid
                for who, verdicts in (("forge", ours), ("ts", alone)):
                    if valid and not verdicts[path][0]:
                        tally.false_alarms[who].append(str(path.relative_to(workdir)))
                    elif not valid and verdicts[path][0]:
                        tally.misses[who].append(str(path.relative_to(workdir)))
            _print_line(language, tally)
            for who, label in (("forge", "forge"), ("ts", "tree-sitter alone")):
                for item in tally.false_alarms[who][: args.show]:
                    print(f"    {label} reports a valid file broken: {item}")
            for item in tally.misses["forge"][: args.show]:
                print(f"    forge accepts a broken file: {item}")
            total.add(tally)
        print("-" * 110)
        _print_line("all", total)
        ours_wrong, theirs_wrong = total.misjudged("forge"), total.misjudged("ts")
        ratio = theirs_wrong / ours_wrong if ours_wrong else float("inf")
        no_false_alarm = not total.false_alarms["forge"]
        print(
            f"forge misjudges {ours_wrong} of {total.files} files "
            f"({100 * ours_wrong / max(total.files, 1):.2f}%), tree-sitter alone "
            f"{theirs_wrong} ({100 * theirs_wrong / max(total.files, 1):.2f}%): "
            f"{ratio:.1f}x fewer"
        )
        met = no_false_alarm and ratio >= 4
        print(
            "targets: no valid file reported broken, >= 4x fewer misjudged than tree-sitter alone:",
            "met" if met else "MISSED",
        )
    return 0 if met else 1


def _print_line(language: str, tally: Tally) -> None:
    print(
        f"{language:<11} {tally.files:>6} {tally.valid:>6} {tally.broken:>6} | "
        f"{len(tally.false_alarms['forge']):>20} {len(tally.misses['forge']):>13} "
        f"{tally.misjudged('forge'):>9} | {'':>18} {len(tally.false_alarms['ts']):>5} "
        f"{len(tally.misses['ts']):>5} {tally.misjudged('ts'):>9}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
