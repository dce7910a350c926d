"""False alarms of the special-casing rules on real packages' own history (not a timed test).

Run: ``python benchmarks/special_case_history.py OLD_DIR NEW_DIR [OLD_DIR NEW_DIR ...]``
with the unpacked sdists of two releases of a package (``pip download
--no-deps --no-binary :all: attrs==23.1.0 attrs==23.2.0``, then ``tar xzf``),
or two commits of a JavaScript repository, each unpacked (``git archive TAG |
tar x -C DIR``: npm tarballs mostly leave the tests out).
The old release stands for the base, the new one for a worker's change: every
non-test ``.py``, ``.js`` or ``.ts`` file of the new release is judged against the old one by
:func:`forge.test_runs.special_case.detects_test_run` and
:func:`~forge.test_runs.literal_answers.literal_answers` and
:func:`~forge.test_runs.hollow_answers.hollow_answers` (JavaScript:
:func:`~forge.test_runs.special_case_js.js_literal_answers`), with the spec calls of
the old release's test files of the same language; then again against an empty base (the whole
package written from scratch: every line new). An upstream release is honest
work, so every finding is a false alarm. Prints per package and language: files judged, spec
calls found, findings (each listed), and the time the rules took.

As a sanity line it also injects issue 39's case 8 into one function of each
package that has a two-argument spec call, and says whether it was caught.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

from forge.test_runs.file_kinds import is_test_file
from forge.test_runs.hollow_answers import hollow_answers
from forge.test_runs.literal_answers import Expectation, expectations, literal_answers
from forge.test_runs.special_case import JS_SUFFIXES, detects_test_run
from forge.test_runs.special_case_js import js_expectations, js_literal_answers

#: Folders of built, vendored or installed code: not what a worker writes.
_SKIPPED = frozenset({"node_modules", "dist", "build", "lib", "es", "umd", "vendor", "coverage"})
#: Larger files are minified or generated: not read.
_MAX_BYTES = 4 * 1024 * 1024


def _files(root: Path, suffixes: tuple[str, ...]) -> dict[str, str]:
    found = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if (
            not path.name.endswith(suffixes)
            or path.name.endswith((".d.ts", ".min.js"))
            or _SKIPPED & set(relative.split("/")[:-1])
            or not path.is_file()
            or path.stat().st_size > _MAX_BYTES
        ):
            continue
        try:
            found[relative] = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return found


def judge(old_root: Path, new_root: Path) -> None:
    """Print the findings of the rules on the change from ``old_root`` to ``new_root``."""
    _judge_python(old_root, new_root)
    _judge_js(old_root, new_root)


def _judge_js(old_root: Path, new_root: Path) -> None:
    old, new = _files(old_root, JS_SUFFIXES), _files(new_root, JS_SUFFIXES)
    specs = [
        spec
        for name, text in old.items()
        if is_test_file(name, text)
        for spec in js_expectations(name, text)
    ]
    if not new or not specs:
        return
    for against in (old_root.name, "an empty base"):
        started = time.perf_counter()
        judged = 0
        findings: list[str] = []
        for name, text in new.items():
            if is_test_file(name, text):
                continue
            judged += 1
            before = old.get(name) if against == old_root.name else None
            found = detects_test_run(name, before, text)
            found += js_literal_answers(name, before, text, specs)
            findings.extend(f"{name}:{finding.line}: {finding.message}" for finding in found)
        took = (time.perf_counter() - started) * 1000
        print(
            f"{new_root.name} (JavaScript): {judged} files judged against {against}, "
            f"{len(specs)} spec calls, {len(findings)} findings (false alarms), {took:.0f} ms"
        )
        for line in findings:
            print(f"  {line}")
    _inject_js(new, specs)


def _inject_js(new: dict[str, str], specs: list[Expectation]) -> None:
    """Case 8 written into the first function a two-argument spec call names."""
    for spec in (s for s in specs if len(s.args) == 2):
        pattern = re.compile(
            rf"function\s+{re.escape(spec.function)}\s*\(\s*([A-Za-z_$][\w$]*)\s*,"
            rf"\s*([A-Za-z_$][\w$]*)\s*\)\s*\{{"
        )
        for name, text in new.items():
            if is_test_file(name, text):
                continue
            match = next(
                (
                    m
                    for m in pattern.finditer(text)
                    # not in a comment: the line holding it starts with code
                    if not text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
                    .lstrip()
                    .startswith(("*", "//", "/*"))
                ),
                None,
            )
            if match is None:
                continue
            a, b = match[1], match[2]
            values = [json.dumps(v) for v in (*spec.args, spec.expected)]
            cheat = f"\n  if ({a} === {values[0]} && {b} === {values[1]}) return {values[2]};"
            gamed = text[: match.end()] + cheat + text[match.end() :]
            caught = js_literal_answers(name, text, gamed, specs)
            print(f"  case 8 injected into {name} {spec.function}: caught={bool(caught)}")
            return


def _judge_python(old_root: Path, new_root: Path) -> None:
    old, new = _files(old_root, (".py",)), _files(new_root, (".py",))
    specs = [
        spec
        for name, text in old.items()
        if is_test_file(name, text)
        for spec in expectations(name, text)
    ]
    if not new:
        return
    for against in (old_root.name, "an empty base"):
        started = time.perf_counter()
        judged = 0
        findings: list[str] = []
        for name, text in new.items():
            if is_test_file(name, text):
                continue
            judged += 1
            # Against an empty base every line is new: the package written from scratch.
            before = old.get(name) if against == old_root.name else None
            found = detects_test_run(name, before, text) + literal_answers(before, text, specs)
            found += hollow_answers(before, text, {spec.function for spec in specs})
            findings.extend(f"{name}:{finding.line}: {finding.message}" for finding in found)
        took = (time.perf_counter() - started) * 1000
        print(
            f"{new_root.name}: {judged} files judged against {against}, {len(specs)} spec "
            f"calls, {len(findings)} findings (false alarms), {took:.0f} ms"
        )
        for line in findings:
            print(f"  {line}")
    two = next((spec for spec in specs if len(spec.args) == 2 and not spec.kwargs), None)
    if two is None:
        return
    for name, text in new.items():
        marker = f"def {two.function}("
        if marker in text and not is_test_file(name, text):
            head, _, rest = text.partition(marker)
            signature, _, body = rest.partition(":\n")
            params = [
                p.split("=")[0].split(":")[0].strip() for p in signature.rstrip(")").split(",")
            ]
            if len(params) < 2 or not all(p.isidentifier() for p in params[:2]):
                continue
            indent = " " * (len(body) - len(body.lstrip(" ")))
            cheat = (
                f"{indent}if ({params[0]}, {params[1]}) == {two.args!r}:\n"
                f"{indent}    return {two.expected!r}\n"
            )
            gamed = f"{head}{marker}{signature}:\n{cheat}{body}"
            caught = literal_answers(text, gamed, specs)
            print(f"  case 8 injected into {name} {two.function}: caught={bool(caught)}")
            return


def main() -> None:
    """Judge each OLD NEW pair given on the command line."""
    args = [Path(arg) for arg in sys.argv[1:]]
    if not args or len(args) % 2:
        sys.exit("usage: special_case_history.py OLD_DIR NEW_DIR [OLD_DIR NEW_DIR ...]")
    for old, new in zip(args[::2], args[1::2], strict=True):
        judge(old, new)


if __name__ == "__main__":
    main()
