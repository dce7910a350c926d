"""False alarms of the special-casing rules on real packages' own history (not a timed test).

Run: ``python benchmarks/special_case_history.py OLD_DIR NEW_DIR [OLD_DIR NEW_DIR ...]``
with the unpacked sdists of two releases of a package (``pip download
--no-deps --no-binary :all: attrs==23.1.0 attrs==23.2.0``, then ``tar xzf``).
The old release stands for the base, the new one for a worker's change: every
non-test ``.py`` file of the new release is judged against the old one by
:func:`forge.test_runs.special_case.detects_test_run` and
:func:`~forge.test_runs.special_case.literal_answers`, with the spec calls of
the old release's test files; then again against an empty base (the whole
package written from scratch: every line new). An upstream release is honest
work, so every finding is a false alarm. Prints per package: files judged, spec calls found,
findings (each listed), and the time the rules took.

As a sanity line it also injects issue 39's case 8 into one function of each
package that has a two-argument spec call, and says whether it was caught.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from forge.test_runs.special_case import detects_test_run, expectations, literal_answers
from forge.test_runs.switched_off import is_test_file


def _python_files(root: Path) -> dict[str, str]:
    found = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        try:
            found[relative] = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return found


def judge(old_root: Path, new_root: Path) -> None:
    """Print the findings of the rules on the change from ``old_root`` to ``new_root``."""
    old, new = _python_files(old_root), _python_files(new_root)
    specs = [
        spec
        for name, text in old.items()
        if is_test_file(name, text)
        for spec in expectations(name, text)
    ]
    for against in (old_root.name, "an empty base"):
        started = time.perf_counter()
        judged = 0
        findings = []
        for name, text in new.items():
            if is_test_file(name, text):
                continue
            judged += 1
            # Against an empty base every line is new: the package written from scratch.
            before = old.get(name) if against == old_root.name else None
            found = detects_test_run(name, before, text) + literal_answers(before, text, specs)
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
