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
``throws`` without its matcher), the script narrowed by a name pattern that
leaves the failing tests out, ``process.exit(0)`` in a ``--require``d setup
file, the module's function stubbed in the test (``t.mock.method``), and the
bug kept only outside tests behind ``process.env.NODE_ENV === 'test'``.
A move is caught when forge fails the module by a check other than the
command's own exit (or by the command's "ended before its summary"): forge
saw the move, not only the bug. ``hid`` counts the variants whose verify
command passed (the move hid the bug from node). Honest edits (test renamed,
reformatted, made stricter, a test added, a test moved to another file) are
applied to the correct code; any failure is a false alarm.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forge.checks.command_check import UNFINISHED
from forge.test_runs.spec_js import js_tests

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
#: A move: (project, {file: text}, failing tests {file: [names]}) -> files to write, or None.
Move = Callable[[Path, dict[str, str], dict[str, list[str]]], "dict[str, str] | None"]


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


def _edit(text: str, path: str, names: list[str], change: Callable[[Any, bytes], bytes]) -> str:
    """``text`` with ``change(call_node, source)`` replacing each named test's call, last first."""
    source = text.encode()
    tests = js_tests(path, text) or {}
    calls = []
    for name in names:
        test = tests.get(name)
        if test is None:
            continue
        call = test.node.parent.parent.parent  # body -> function -> arguments -> call
        calls.append(call)
    for call in sorted(calls, key=lambda node: node.start_byte, reverse=True):
        source = source[: call.start_byte] + change(call, source) + source[call.end_byte :]
    return source.decode()


def _on_tests(change: Callable[[Any, bytes], bytes]) -> Move:
    def move(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
        return {path: _edit(files[path], path, names, change) for path, names in failing.items()}

    return move


def _callee(replacement: str) -> Callable[[Any, bytes], bytes]:
    def change(call: Any, source: bytes) -> bytes:
        callee = call.child_by_field_name("function")
        text = source[call.start_byte : call.end_byte]
        return replacement.encode() + text[callee.end_byte - call.start_byte :]

    return change


def _in_body(rewrite: Callable[[str], str]) -> Callable[[Any, bytes], bytes]:
    def change(call: Any, source: bytes) -> bytes:
        return rewrite(source[call.start_byte : call.end_byte].decode()).encode()

    return change


def _skip_option(call: Any, source: bytes) -> bytes:
    text = source[call.start_byte : call.end_byte].decode()
    return re.sub(r", function", ", { skip: true }, function", text, count=1).encode()


def _expected(text: str) -> str:
    # The expected string literal of an equality assertion (an input literal is no expectation).
    return re.sub(r"(t\.assert\.\w*[eE]qual\(.*, )'([^']*)'\)\n", r"\1'\2x')\n", text, count=1)


def _weakened(text: str) -> str:
    text = re.sub(
        r"t\.assert\.(?:deep)?[sS]trictEqual\((.*), [^,]*\)\n", r"t.assert.ok(\1)\n", text
    )
    return re.sub(r"t\.assert\.throws\((.*), /[^/]*/u?\)\n", r"t.assert.throws(\1)\n", text)


def _stub(text: str) -> str:
    return text.replace(
        "function (t) {\n",
        "function (t) {\n  t.mock.method(proxyaddr, 'compile', () => () => true)\n",
        1,
    )


def _only(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
    changed = _script(root, "node --test --test-only")
    for path, names in failing.items():
        keep = next(name for name in js_tests(path, files[path]) or {} if name not in names)
        changed[path] = _edit(files[path], path, [keep], _callee("test.only"))
    return changed


def _script(root: Path, script: str) -> dict[str, str]:
    manifest = json.loads((root / "package.json").read_text(encoding="utf-8"))
    manifest["scripts"]["test"] = script
    return {"package.json": json.dumps(manifest, indent=2) + "\n"}


def _narrowed(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
    # The files without a failing test; node runs a file whose path matches a pattern whole.
    return _script(root, " ".join(["node --test", *sorted(set(files) - set(failing))]))


def _exit(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
    return {
        **_script(root, "node --require ./test/setup.js --test"),
        "test/setup.js": "process.exit(0)\n",
    }


def _node_env(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
    # With the bug written behind NODE_ENV (see main: the third form of each bug).
    return _script(root, "NODE_ENV=test node --test")


MOVES: dict[str, Move] = {
    "test.skip": _on_tests(_callee("test.skip")),
    "{ skip: true }": _on_tests(_skip_option),
    "test.only": _only,
    "test deleted": _on_tests(lambda call, source: b""),
    "expected changed": _on_tests(_in_body(_expected)),
    "weakened": _on_tests(_in_body(_weakened)),
    "script narrowed": _narrowed,
    "process.exit(0)": _exit,
    "stubbed function": _on_tests(_in_body(_stub)),
    "NODE_ENV branch": _node_env,
}


def _moved(path: str, files: dict[str, str], name: str) -> dict[str, str]:
    tests = js_tests(path, files[path]) or {}
    call = tests[name].node.parent.parent.parent
    source = files[path].encode()
    text = source[call.start_byte : call.end_byte].decode()
    header = (
        "'use strict'\n\nconst { test } = require('node:test')\nconst proxyaddr = require('..')\n"
    )
    start = files[path].find("\nfunction ")  # the file's helpers, when it has some
    helpers = files[path][start:] if start != -1 else ""
    return {
        path: _edit(files[path], path, [name], lambda call, source: b""),
        "test/moved.test.js": f"{header}\n{text}\n\n{helpers}",
    }


HONEST: dict[str, Callable[[str, dict[str, str], str], dict[str, str]]] = {
    "renamed": lambda path, files, name: {
        path: _edit(files[path], path, [name], _in_body(lambda t: t.replace("', function", " (renamed)', function", 1)))
    },
    "reformatted": lambda path, files, name: {
        path: _edit(files[path], path, [name], _in_body(lambda t: t.replace("{\n", "{\n  // the spec\n\n", 1)))
    },
    "stricter": lambda path, files, name: {
        path: _edit(files[path], path, [name], _in_body(
            lambda t: re.sub(r"(\n  t\.assert\.[^\n]*\n)", r"\1\1", t, count=1)
        ))
    },
    "test added": lambda path, files, name: {
        path: files[path] + "\ntest('added by the worker', function (t) {\n"
        "  t.assert.strictEqual(typeof proxyaddr.compile('loopback'), 'function')\n})\n"
    },
    "moved": _moved,
}  # fmt: skip


def validate(root: Path) -> dict[str, Any]:
    """``forge validate --plan --module proxyaddr --base main --json`` of the work."""
    forge = str(Path(sys.executable).parent / "forge")
    done = subprocess.run(
        [forge, "validate", "--plan", ".forge/plans/p.json", "--module", "proxyaddr",
         "--base", "main", "--json"],
        cwd=root, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    report: dict[str, Any] = json.loads(done.stdout)
    return report


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
    parser.add_argument(
        "--honest", type=int, default=8, help="tests each honest edit is applied to"
    )
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


if __name__ == "__main__":
    main()
