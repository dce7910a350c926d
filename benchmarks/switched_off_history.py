"""False alarms of ``switched_off`` on real packages' own history (not a timed test).

Run: ``python benchmarks/switched_off_history.py OLD_DIR NEW_DIR [OLD_DIR NEW_DIR ...]``
with two releases of a package unpacked side by side (``pip download --no-deps
--no-binary :all: attrs==23.1.0 attrs==23.2.0`` then ``tar xzf``; for a JavaScript
repository ``git archive TAG | tar x -C DIR``, npm tarballs mostly leave the tests out).
The old release stands for the base, the new one for a worker's change. Every test
file the new release changed is judged twice: by
:func:`forge.test_runs.switched_off.newly_switched_off` (the file against itself
alone, as ``switched_off`` did before issue 39's precision pass) and by
:func:`forge.test_runs.spec_switched_off.spec_switched_off` (tests of the base
followed where they moved, new tests skipped on a condition honest). An upstream
release is honest work, so every finding is a false alarm. Prints per pair: test
files changed, findings of each, and each finding the second one drops or keeps.
"""

from __future__ import annotations

import sys
from pathlib import Path

from forge.test_runs.file_kinds import LANGUAGES, is_test_file
from forge.test_runs.spec_switched_off import spec_switched_off
from forge.test_runs.switched_off import newly_switched_off

#: Larger files are generated: not read.
_MAX_BYTES = 4 * 1024 * 1024


def _test_files(root: Path) -> dict[str, str]:
    found = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if (
            path.suffix not in LANGUAGES
            or "node_modules" in relative.split("/")
            or not path.is_file()
            or path.stat().st_size > _MAX_BYTES
            or not is_test_file(relative, "")
        ):
            continue
        found[relative] = path.read_text(encoding="utf-8", errors="replace")
    return found


def judge(old_root: Path, new_root: Path) -> tuple[int, int]:
    """Print the findings on the change from ``old_root`` to ``new_root``; both counts."""
    old, new = _test_files(old_root), _test_files(new_root)
    changed = [path for path in new if old.get(path) != new[path]]
    touched = {path: old.get(path) for path in [*changed, *(p for p in old if p not in new)]}
    alone = followed = 0
    for path in changed:
        before = newly_switched_off(path, old.get(path), new[path])
        after = spec_switched_off(path, old.get(path), new[path], lambda: touched)
        alone, followed = alone + len(before), followed + len(after)
        for finding in before:
            verdict = "kept   " if finding in after else "dropped"
            print(f"  {verdict} {path}:{finding.line}: {finding.message}")
    print(
        f"{new_root.name} against {old_root.name}: {len(changed)} test files changed, "
        f"{alone} findings file by file, {followed} following the tests of the base"
    )
    return alone, followed


def main() -> None:
    """Judge each OLD NEW pair given on the command line, then the totals."""
    args = [Path(arg) for arg in sys.argv[1:]]
    if not args or len(args) % 2:
        sys.exit("usage: switched_off_history.py OLD_DIR NEW_DIR [OLD_DIR NEW_DIR ...]")
    totals = [judge(old, new) for old, new in zip(args[::2], args[1::2], strict=True)]
    print(
        f"total: {sum(a for a, _ in totals)} false alarms file by file, "
        f"{sum(b for _, b in totals)} following the tests of the base"
    )


if __name__ == "__main__":
    main()
