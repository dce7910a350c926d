"""How often forge's syntax verdict agrees with the real compilers.

Broken variants are derived from valid files (a deleted bracket, a stray
paren, a cut file, an unterminated string; seeded, reproducible) and each is
judged by forge in-process and by the language's own parser:

- Python: ``compile()`` of the running interpreter (in-process);
- JavaScript: ``node --check FILE``;
- TypeScript and TSX: the TypeScript compiler's parser (``tsc``'s own, through
  its API: ``createSourceFile(...).parseDiagnostics``), so type errors in
  files that reference unknown names do not count as syntax errors.

A mutation may leave the file valid (a ``)`` added after a comment): the
compiler is the judge. Printed per language: variants the compiler rejects,
how many forge catches (target >= 95%), forge's false positives on variants
and originals the compiler accepts (target 0), and how often forge's first
error is on the compiler's line.

Usage::

    python benchmarks/syntax_agreement.py [--files-per-language 40] [--typescript DIR]

``--typescript`` is a ``node_modules/typescript`` folder (default: found with
``require.resolve`` from the working dir, else the TypeScript languages are
skipped). The generated files plus the repository's shipped modern-syntax
corpus are the valid sources; Python adds a sample of the standard library.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from corpus import EXTENSIONS, MUTATIONS, SHIPPED, SHIPPED_SUFFIXES, write_generated

from forge.checks.syntax_check import check_syntax
from forge.parsing import LanguageRegistry, NotParsed, ParseCache, ParseSession
from forge.plugin_manager import build_plugin_host

TS_PARSE = r"""
const ts = require(process.argv[1]);
const fs = require("fs");
for (const file of fs.readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, kind);
  const d = sf.parseDiagnostics;
  const line = d.length ? sf.getLineAndCharacterOfPosition(d[0].start).line + 1 : null;
  console.log(JSON.stringify({file, ok: d.length === 0, line}));
}
"""


@dataclass
class Tally:
    """Verdicts for one language."""

    variants: int = 0
    rejected: int = 0
    caught: int = 0
    false_positives: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    same_line: int = 0
    originals: int = 0


Verdict = tuple[bool, int | None]  # (accepted, first error line)


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
            except ValueError:
                verdicts[path] = (False, None)
            else:
                verdicts[path] = (True, None)
    return verdicts


def node_verdicts(files: list[Path]) -> dict[Path, Verdict]:
    """``node --check FILE``, one process per file."""
    verdicts: dict[Path, Verdict] = {}
    for path in files:
        done = subprocess.run(
            ["node", "--check", str(path)], capture_output=True, text=True, check=False
        )
        line = None
        first = done.stderr.split("\n", 1)[0]
        if done.returncode and ":" in first:
            tail = first.rsplit(":", 1)[1].strip()
            line = int(tail) if tail.isdigit() else None
        verdicts[path] = (done.returncode == 0, line)
    return verdicts


def typescript_verdicts(files: list[Path], typescript: Path) -> dict[Path, Verdict]:
    """The TypeScript parser's diagnostics for each file, in one node process."""
    done = subprocess.run(
        ["node", "-e", TS_PARSE, str(typescript)],
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


def forge_verdicts(files: list[Path]) -> dict[Path, Verdict]:
    """forge's in-process syntax check of each file."""
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    parsing = ParseSession(registry, ParseCache(max_bytes=0), max_file_bytes=5_000_000)
    verdicts: dict[Path, Verdict] = {}
    for path in files:
        try:
            parsed = parsing.parse(path)
        except NotParsed:
            verdicts[path] = (False, None)
            continue
        assert parsed is not None, path
        result = check_syntax(path.name, parsed)
        verdicts[path] = (result.passed, result.locations[0].line if result.locations else None)
    return verdicts


def find_typescript(explicit: str | None) -> Path | None:
    """The ``typescript`` package folder, or None."""
    if explicit:
        return Path(explicit)
    if shutil.which("node") is None:
        return None
    done = subprocess.run(
        ["node", "-p", "require.resolve('typescript/package.json')"],
        capture_output=True,
        text=True,
        check=False,
    )
    return Path(done.stdout.strip()).parent if done.returncode == 0 else None


def sources(language: str, workdir: Path, count: int) -> list[Path]:
    """Valid files: generated, shipped, and (Python) a standard library sample."""
    files = write_generated(workdir / "valid" / language, language, count)
    files += sorted(p for p in SHIPPED.rglob("*") if p.suffix in SHIPPED_SUFFIXES[language])
    if language == "python":
        stdlib = Path(sysconfig.get_paths()["stdlib"])
        pool = sorted(
            p
            for p in stdlib.glob("*.py")
            if p.stat().st_size < 40_000 and not p.name.startswith("_")
        )
        files += random.Random(7).sample(pool, min(count, len(pool)))
    return files


def variants(files: list[Path], language: str, workdir: Path) -> list[tuple[Path, str]]:
    """Broken variants of ``files``: two per mutation kind and file, seeded."""
    out: list[tuple[Path, str]] = []
    folder = workdir / "broken" / language
    folder.mkdir(parents=True, exist_ok=True)
    for number, source in enumerate(files):
        text = source.read_text(encoding="utf-8")
        suffix = source.suffix if source.suffix != ".pyi" else ".py"
        for kind, mutate in MUTATIONS.items():
            for seed in range(2):
                broken = mutate(text, random.Random(f"{number}-{kind}-{seed}"))
                if broken is None or broken == text:
                    continue
                path = folder / f"{number}_{kind}_{seed}{suffix}"
                path.write_text(broken, encoding="utf-8")
                out.append((path, kind))
    return out


def main() -> int:
    """Run the comparison and print one line per language."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files-per-language", type=int, default=40)
    parser.add_argument("--typescript", help="path of node_modules/typescript")
    args = parser.parse_args()
    typescript = find_typescript(args.typescript)
    has_node = shutil.which("node") is not None
    print(f"python {sys.version.split()[0]}; node: {has_node}; typescript: {typescript}")
    print(
        f"{'language':<11} {'variants':>8} {'rejected':>8} {'caught':>7} {'catch%':>7} "
        f"{'FP':>3} {'orig FP':>7} {'same line':>9}"
    )
    failed = False
    with tempfile.TemporaryDirectory() as temp:
        workdir = Path(temp)
        for language in EXTENSIONS:
            if language == "javascript" and not has_node:
                print(f"{language:<11} skipped: node not found")
                continue
            if language in {"typescript", "tsx"} and typescript is None:
                print(f"{language:<11} skipped: typescript not found (npm install typescript)")
                continue
            originals = sources(language, workdir, args.files_per_language)
            broken = variants(originals, language, workdir)
            every = originals + [path for path, _ in broken]
            if language == "python":
                reference = python_verdicts(every)
            elif language == "javascript":
                reference = node_verdicts(every)
            else:
                assert typescript is not None
                reference = typescript_verdicts(every, typescript)
            ours = forge_verdicts(every)
            tally = Tally(variants=len(broken))
            for path in originals:
                if reference[path][0]:
                    tally.originals += 1
                    if not ours[path][0]:
                        tally.false_positives.append(str(path))
            for path, kind in broken:
                accepted, line = reference[path]
                if accepted:
                    if not ours[path][0]:
                        tally.false_positives.append(f"{path} ({kind})")
                    continue
                tally.rejected += 1
                if not ours[path][0]:
                    tally.caught += 1
                    tally.same_line += ours[path][1] == line
                else:
                    tally.missed.append(f"{path.name} ({kind})")
            rate = 100 * tally.caught / tally.rejected if tally.rejected else 100.0
            same = 100 * tally.same_line / tally.caught if tally.caught else 100.0
            print(
                f"{language:<11} {tally.variants:>8} {tally.rejected:>8} {tally.caught:>7} "
                f"{rate:>6.1f}% {len(tally.false_positives):>3} "
                f"{len([p for p in tally.false_positives if '(' not in p]):>7} {same:>8.1f}%"
            )
            for item in tally.false_positives[:5]:
                print(f"    false positive: {item}")
            for item in tally.missed[:5]:
                print(f"    missed: {item}")
            failed |= bool(tally.false_positives) or rate < 95
    print("targets: 0 false positives, catch >= 95%:", "MISSED" if failed else "met")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
