"""forge's in-process syntax check against one compiler process per file.

For each language, 200 generated files (``--units 3``: about 120 lines, a
typical module; forge's time grows with size, a process's start-up does not)
are checked:

- by forge, in-process: a fresh registry and cache, grammar loading included;
- by the per-file subprocess approach an agent would otherwise run:
  ``python -m py_compile FILE``, ``node --check FILE``,
  ``npx --no-install tsc --noEmit --allowJs --skipLibCheck FILE`` (TypeScript and
  TSX; tsc is slow, so it runs on a sample of files and the per-file mean is
  scaled to all of them, as printed).

It prints both times and the ratio, then the cost of the syntax authority
(oxc) on ``--authority-files`` TypeScript files: forge with it against
tree-sitter alone (forge before the authority), best of 5 alternating runs in
this process, target within 1.5x; the same for JavaScript with node's V8
deciding (issue 38) against oxc alone; then forge's files per second on the
running interpreter's standard library. Usage::

    python benchmarks/syntax_speed.py [--files 200] [--units 3] [--tsc-sample 10]
        [--authority-files 100]

``npx`` must find ``tsc`` (``npm install typescript`` in the working dir, or
on ``PATH``); without it the TypeScript lines say so.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from corpus import write_generated

from forge.checks.syntax_check import check_syntax
from forge.languages import LanguageRegistry, ParseCache, ParseSession, oxc
from forge.plugin_host.host import build_plugin_host

TARGETS = {"python": 50, "javascript": 50, "typescript": 500, "tsx": 500}


def forge_seconds(files: list[Path], *, authority: bool | str = True) -> tuple[float, int]:
    """Seconds forge takes to check ``files`` from cold, and how many failed.

    ``authority=False`` is tree-sitter alone, as forge was before issue 13;
    ``"oxc"`` is oxc deciding JavaScript alone, as forge was before issue 38.
    """
    started = time.perf_counter()
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    parsing = ParseSession(registry, ParseCache(), max_file_bytes=5_000_000)
    failed = 0
    parsed_files = [parsing.parse(path) for path in files]
    deciders = {}
    for parsed in parsed_files:
        assert parsed is not None
        name = parsed.language.name
        if name not in deciders:
            deciders[name] = registry.authority(name) if authority else None
            if authority == "oxc" and name == "javascript":
                deciders[name] = oxc.load_authority()
    # As syntax_check does: an authority that takes files in one go gets them first.
    for name, decider in deciders.items():
        if decider is not None and decider.prepare is not None:
            decider.prepare(
                [(p.path, p.source) for p in parsed_files if p and p.language.name == name]
            )
    for path, parsed in zip(files, parsed_files, strict=True):
        assert parsed is not None
        failed += not check_syntax(path.name, parsed, deciders[parsed.language.name]).passed
    return time.perf_counter() - started, failed


def authority_cost(
    files: list[Path], rounds: int = 5, *, before: bool | str = False
) -> tuple[float, float]:
    """Best-of-``rounds`` seconds for ``files`` with the authority and with ``before``'s."""
    forge_seconds(files[:1])  # imports, the parser thread and node, once per process
    with_authority, alone = [], []
    for _ in range(rounds):
        alone.append(forge_seconds(files, authority=before)[0])
        with_authority.append(forge_seconds(files)[0])
    return min(with_authority), min(alone)


def subprocess_seconds(command: list[str], files: list[Path]) -> float:
    """Seconds to run ``command FILE`` once per file; every run must succeed.

    tsc is the exception: it type-checks too, and generated files use names
    it cannot resolve (React, DOM types), so only its syntax errors (TS1xxx)
    count as failures.
    """
    started = time.perf_counter()
    for path in files:
        done = subprocess.run([*command, str(path)], capture_output=True, text=True, check=False)
        failed = " error TS1" in done.stdout if "tsc" in command else done.returncode != 0
        if failed:
            raise SystemExit(f"{' '.join(command)} {path} failed:\n{done.stdout}{done.stderr}")
    return time.perf_counter() - started


def main() -> int:
    """Run the comparison; print one line per language, then the stdlib rate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--units", type=int, default=3, help="~40-line units per file")
    parser.add_argument("--tsc-sample", type=int, default=10)
    parser.add_argument("--authority-files", type=int, default=100)
    args = parser.parse_args()
    commands = {
        "python": [sys.executable, "-m", "py_compile"],
        "javascript": ["node", "--check"],
        "typescript": ["npx", "--no-install", "tsc", "--noEmit", "--allowJs", "--skipLibCheck"],
        "tsx": [
            "npx",
            "--no-install",
            "tsc",
            "--noEmit",
            "--allowJs",
            "--skipLibCheck",
            "--jsx",
            "preserve",
        ],
    }
    have_tsc = (
        shutil.which("npx") is not None
        and subprocess.run(
            ["npx", "--no-install", "tsc", "--version"], capture_output=True, check=False
        ).returncode
        == 0
    )
    print(
        f"{args.files} generated files per language, ~{args.units * 40} lines each; "
        f"python {sys.version.split()[0]}"
    )
    print(f"{'language':<11} {'forge':>9} {'subprocess':>12} {'ratio':>8}  target")
    with tempfile.TemporaryDirectory() as temp:
        for language, command in commands.items():
            files = write_generated(Path(temp) / language, language, args.files, args.units)
            ours, failed = forge_seconds(files)
            assert failed == 0, f"{failed} generated {language} files failed"
            if command[0] == "npx" and not have_tsc:
                print(f"{language:<11} {ours:>8.3f}s  (tsc not found: npm install typescript)")
                continue
            if command[0] == "node" and shutil.which("node") is None:
                print(f"{language:<11} {ours:>8.3f}s  (node not found)")
                continue
            sample = files[: args.tsc_sample] if command[0] == "npx" else files
            theirs = subprocess_seconds(command, sample) * len(files) / len(sample)
            note = f" (mean of {len(sample)} x {len(files)})" if len(sample) < len(files) else ""
            print(
                f"{language:<11} {ours:>8.3f}s {theirs:>11.2f}s {theirs / ours:>7.0f}x  "
                f">= {TARGETS[language]}x{note}"
            )
    with tempfile.TemporaryDirectory() as temp:
        files = write_generated(Path(temp), "typescript", args.authority_files, args.units)
        ours, alone = authority_cost(files)
        ratio = ours / alone
        print(
            f"{args.authority_files} TypeScript files: {ours:.3f}s with oxc, {alone:.3f}s "
            f"tree-sitter alone: {ratio:.2f}x (target <= 1.5x: {'met' if ratio <= 1.5 else 'MISSED'})"
        )
    if shutil.which("node") is not None:
        with tempfile.TemporaryDirectory() as temp:
            files = write_generated(Path(temp), "javascript", args.files, args.units)
            ours, before = authority_cost(files, before="oxc")
            print(
                f"{args.files} JavaScript files, warm: {ours:.3f}s with node's V8 deciding, "
                f"{before:.3f}s with oxc alone (before issue 38): {ours / before:.2f}x"
            )
    root = Path(sysconfig.get_paths()["stdlib"])
    stdlib = [p for p in root.rglob("*.py") if "site-packages" not in p.parts]
    started = time.perf_counter()
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    parsing = ParseSession(registry, ParseCache(max_bytes=0), max_file_bytes=5_000_000)
    size = 0
    for path in stdlib:
        try:
            parsed = parsing.parse(path)
        except Exception:  # the deliberately broken test data; still timed
            continue
        if parsed is not None:
            size += len(parsed.source)
            check_syntax(path.name, parsed)
    elapsed = time.perf_counter() - started
    print(
        f"stdlib: {len(stdlib)} files, {size / 1e6:.1f} MB in {elapsed:.2f}s: "
        f"{len(stdlib) / elapsed:.0f} files/s, {size / 1e6 / elapsed:.1f} MB/s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
