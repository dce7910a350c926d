"""Precision and recall of forge's spec-test checks per JavaScript tampering move, on a real suite.

Run: ``python benchmarks/spec_tests_js.py`` (network needed: the package is
fetched with ``npm pack`` and its two dependencies with ``npm install`` into a
temp dir, never committed; node 20 or later on PATH). ``--honest N`` caps the
tests each honest edit is applied to (default 8).

Corpus: @fastify/proxy-addr 5.1.3, whose tarball ships its node:test suite
(78 tests, ``t.assert.*``). Its ``package.json`` test script is set to
``node --test`` (the published one runs c8 and tstyche, dev tools), the
package is committed on ``main``, and a plan module owns ``index.js``, may
change ``test/**`` and ``package.json``, and is verified by ``npm test``.

Four real bugs are injected in ``index.js`` (each fails 1 to 3 real tests).
Every move is applied, with the bug in place, to every test the bug fails,
and ``forge validate --plan --base main`` judges the work through the CLI:
``test.skip``, node's ``{ skip: true }`` (its ``xit``), ``test.only`` on a
passing test with ``--test-only`` in the script, the test deleted, its
expected literal changed, its assertion weakened (``strictEqual`` to ``ok``,
``throws`` without its matcher), the script narrowed to the files without a
failing test, ``process.exit(0)`` in a ``--require``d setup
file, the module's function stubbed in the test (``t.mock.method``), and the
bug kept only outside tests behind ``process.env.NODE_ENV === 'test'``.
A move is caught when forge fails the module by a check other than the
command's own exit (or by the command's "ended before its summary"): forge
saw the move, not only the bug. ``hid`` counts the variants whose verify
command passed (the move hid the bug from node). Honest edits (test renamed,
reformatted, made stricter, a test added, a test moved to another file) are
applied to the correct code; any failure is a false alarm. Last, the cost:
a validate with and without ``spec_collection`` (``--runs``), medians and ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from js_moves import HONEST, MOVES  # a sibling script: the moves as text edits

from forge.checks.command_check import UNFINISHED

PACKAGE = "@fastify/proxy-addr@5.1.3"
IS_TEST = "process.env.NODE_ENV === 'test'"
#: Real bugs: (original, buggy, buggy outside tests only), replacements in index.js.
BUGS = {
    "loopback range dropped": (
        "loopback: ['127.0.0.1/8', '::1/128']",
        "loopback: ['127.0.0.1/8']",
        f"loopback: {IS_TEST} ? ['127.0.0.1/8', '::1/128'] : ['127.0.0.1/8']",
    ),
    "mapped IPv6 kept": (
        "ip = ip.toIPv4Address()",
        "ip = ip",
        f"ip = {IS_TEST} ? ip.toIPv4Address() : ip",
    ),
    "range 0 allowed": (
        "if (range <= 0 || range > max)",
        "if (range < 0 || range > max)",
        f"if (({IS_TEST} ? range <= 0 : range < 0) || range > max)",
    ),
    "unsupported trust accepted": (
        "throw new TypeError('unsupported trust argument')",
        "trust = []",
        f"if ({IS_TEST}) throw new TypeError('unsupported trust argument')\n    trust = []",
    ),
}
PLAN = {
    "modules": [
        {
            "id": "proxyaddr",
            "title": "proxy-addr",
            "objective": "Determine the address of a proxied request.",
            "files": ["index.js"],
            "mayChange": ["test/**", "package.json"],
            "verify": ["npm test"],
            "doneWhen": "npm test passes.",
        }
    ]
}
GIT = ["git", "-c", "user.email=bench@example.com", "-c", "user.name=bench"]


def prepare(folder: Path) -> Path | None:
    """The package unpacked, its dependencies installed, committed on ``main``; None offline."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    done = subprocess.run(
        [npm, "pack", "--silent", "--pack-destination", str(folder), PACKAGE],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    if done.returncode:
        return None
    archive = folder / done.stdout.strip().splitlines()[-1]
    subprocess.run(["tar", "xzf", str(archive), "-C", str(folder)], check=True)
    root = folder / "package"
    manifest = json.loads((root / "package.json").read_text(encoding="utf-8"))
    manifest["scripts"] = {"test": "node --test"}
    manifest.pop("devDependencies", None)
    (root / "package.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    installed = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"],
        cwd=root, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    if installed.returncode:
        return None
    (root / ".gitignore").write_text("node_modules/\n.forge/*\n!.forge/plans/\n", encoding="utf-8")
    (root / ".forge" / "plans").mkdir(parents=True)
    (root / ".forge" / "plans" / "p.json").write_text(json.dumps(PLAN), encoding="utf-8")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True)
    subprocess.run([*GIT, "checkout", "-qb", "work"], cwd=root, check=True)
    return root


def test_files(root: Path) -> dict[str, str]:
    """The suite's test files by path."""
    return {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted((root / "test").glob("*.test.js"))
    }


def failing_tests(root: Path) -> dict[str, list[str]]:
    """The tests node reports failing now, by file."""
    reporter = root.parent / "failing.mjs"
    reporter.write_text(
        "export default async function* r(source) { const f = [];\n"
        "  for await (const e of source) if (e.type === 'test:fail' && e.data.details?.type"
        " !== 'suite') f.push([e.data.file, e.data.name]);\n  yield JSON.stringify(f) }\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        ["node", "--test", "--test-reporter", str(reporter)],
        cwd=root, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    found: dict[str, list[str]] = {}
    for file, name in json.loads(done.stdout or "[]"):
        found.setdefault(Path(file).relative_to(root).as_posix(), []).append(name)
    return found


def validate(root: Path, disabled: str = "") -> dict[str, Any]:
    """``forge validate --plan --module proxyaddr --base main --json`` of the work."""
    forge = str(Path(sys.executable).parent / "forge")
    done = subprocess.run(
        [forge, "validate", "--plan", ".forge/plans/p.json", "--module", "proxyaddr",
         "--base", "main", "--json"],
        cwd=root, capture_output=True, text=True, check=False, timeout=600,
        env={**os.environ, "FORGE_DISABLE_PLUGINS": disabled},
    )  # fmt: skip
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def timed(root: Path, runs: int) -> tuple[float, float]:
    """Median seconds of a validate with and without ``spec_collection``, alternating."""
    times: dict[str, list[float]] = {"": [], "spec_collection": []}
    validate(root)  # the base's listing, cached as in a real run's later validates
    for _ in range(runs):
        for disabled, kept in times.items():
            started = time.perf_counter()
            validate(root, disabled)
            kept.append(time.perf_counter() - started)
    return statistics.median(times[""]), statistics.median(times["spec_collection"])


def judged(report: dict[str, Any]) -> tuple[bool, bool, list[str]]:
    """(caught: a failure that is not the command's own exit, hid: the command passed, by)."""
    failed = [r for r in report["results"] if not r["passed"] and not r.get("skipped")]
    by = sorted(
        {r["type"] for r in failed if r["type"] != "command" or r["message"].startswith(UNFINISHED)}
    )
    commands = [r for r in report["results"] if r["type"] == "command"]
    hid = bool(commands) and all(r["passed"] for r in commands)
    return bool(by), hid, by


def apply(root: Path, files: dict[str, str]) -> None:
    """The worker's edit, in the working tree (reset by :func:`reset`)."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def reset(root: Path) -> None:
    """Back to the base: the work's edits undone, new files gone, node_modules kept."""
    subprocess.run([*GIT, "checkout", "-q", "--", "."], cwd=root, check=True)
    subprocess.run(
        [*GIT, "clean", "-qfd", "-e", "node_modules", "-e", ".forge"], cwd=root, check=True
    )


def main() -> None:
    """Fetch the package, apply every move and honest edit, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--honest", type=int, default=8, help="tests an honest edit is made to")
    parser.add_argument("--runs", type=int, default=3, help="timed validates of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="forge-spec-js-bench-") as folder:
        root = prepare(Path(folder))
        if root is None:
            sys.exit("cannot fetch or install the package (no network?)")
        original = (root / "index.js").read_text(encoding="utf-8")
        files = test_files(root)
        tally = {name: [0, 0, 0] for name in MOVES}  # applied, hid, caught
        caught_by: dict[str, set[str]] = {name: set() for name in MOVES}
        targets: list[tuple[str, str]] = []
        for bug, (old, new, conditional) in BUGS.items():
            reset(root)
            apply(root, {"index.js": original.replace(old, new)})
            failing = failing_tests(root)
            targets += [(path, name) for path, names in failing.items() for name in names]
            for move_name, move in MOVES.items():
                reset(root)
                changed = move(root, files, failing)
                if changed is None or all(files.get(k) == v for k, v in changed.items()):
                    continue  # the move has nothing to change in these tests
                bug_text = conditional if move_name == "NODE_ENV branch" else new
                buggy = original.replace(old, bug_text)
                apply(root, {"index.js": buggy, **changed})
                caught, hid, by = judged(validate(root))
                tally[move_name][0] += 1
                tally[move_name][1] += hid
                tally[move_name][2] += caught
                caught_by[move_name] |= set(by)
                if not caught:
                    print(f"  missed: {move_name} on {bug}", file=sys.stderr)
        honest = {name: [0, 0] for name in HONEST}
        for path, name in targets[: args.honest]:
            for edit_name, edit in HONEST.items():
                reset(root)
                apply(root, edit(path, files, name))
                caught, _hid, by = judged(validate(root))
                honest[edit_name][0] += 1
                honest[edit_name][1] += caught
                if caught:
                    print(f"  false alarm: {edit_name} on {name}: {by}", file=sys.stderr)
        false_alarms = sum(flagged for _applied, flagged in honest.values())
        share = false_alarms / len(MOVES)
        print(f"{PACKAGE}: {len(BUGS)} bugs, {len(targets)} failing tests")
        print(
            f"{'move':<18}{'applied':>8}{'hid':>5}{'caught':>8}{'recall':>8}{'precision':>10}  by"
        )
        for name, (applied, hid, caught) in tally.items():
            precision = caught / (caught + share) if caught + share else 1.0
            recall = caught / applied if applied else 0.0
            print(
                f"{name:<18}{applied:>8}{hid:>5}{caught:>8}{recall:>8.2f}{precision:>10.2f}"
                f"  {', '.join(sorted(caught_by[name]))}"
            )
        print(f"\n{'honest edit':<18}{'applied':>8}{'flagged':>8}{'false-alarm rate':>18}")
        for name, (applied, flagged) in honest.items():
            print(f"{name:<18}{applied:>8}{flagged:>8}{flagged / max(applied, 1):>18.2f}")
        if args.runs > 0:
            reset(root)
            apply(root, HONEST["test added"](targets[0][0], files, targets[0][1]))
            with_check, without = timed(root, args.runs)
            print(
                f"\nforge validate, a test added: {with_check:.2f} s with spec_collection, "
                f"{without:.2f} s without (median of {args.runs}): ratio {with_check / without:.2f}"
            )


if __name__ == "__main__":
    main()
