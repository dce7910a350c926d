"""Benchmark the merge preview: 8 branches touching 200 files, against git merge-tree alone.

Run from a checkout with forge installed (``pip install -e '.[dev]'``)::

    python benchmarks/merge_preview.py             # 5 rounds
    python benchmarks/merge_preview.py --rounds 9  # steadier figures

A generated Python project (8 packages of 50 modules, each importing a
neighbour) gets 8 worker branches, each changing 25 files of its own package
(20 edited, 5 new modules importing across packages): 200 files in all. Each
round times, interleaved so a busy machine slows all alike:

- ``git merge-tree``: the 8 merges in dependency order, as git plumbing alone
  (``merge-tree --write-tree``, and ``commit-tree`` to merge the next branch
  onto the result; nothing else can chain merges without a checkout);
- ``forge --no-checks``: forge's preview without the file checks (finding the
  work, fork points, stale work, changed files, the same merges);
- ``forge``: the whole preview, file checks on the merged tree included
  (the changed files and their importers; no finding, so no branch is re-checked).

forge runs in process with a warm engine, as in the MCP server; the ratios
against ``git merge-tree`` alone use the medians.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PACKAGES = 8
MODULES_PER_PACKAGE = 50
EDITED = 20
ADDED = 5
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]


def git(repo: Path, *args: str) -> str:
    done = subprocess.run([*GIT, *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def make_project(root: Path) -> list[str]:
    """The base project on main and one branch per package; the branches' names."""
    git(root, "init", "-q", "-b", "main")
    (root / ".gitignore").write_text(".forge/\n", encoding="utf-8")
    for package in range(PACKAGES):
        folder = root / f"pkg{package}"
        folder.mkdir()
        (folder / "__init__.py").write_text("", encoding="utf-8")
        for module in range(MODULES_PER_PACKAGE):
            before = (
                f"from pkg{package}.mod{module - 1} import value{module - 1}\n" if module else ""
            )
            body = f"def value{module}(x):\n    return x + {module}\n"
            (folder / f"mod{module}.py").write_text(before + "\n\n" + body, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    branches = []
    for package in range(PACKAGES):
        branch = f"forge/pkg{package}"
        git(root, "checkout", "-q", "-b", branch, "main")
        folder = root / f"pkg{package}"
        for module in range(EDITED):
            path = folder / f"mod{module}.py"
            text = path.read_text(encoding="utf-8")
            path.write_text(text + f"\n\ndef extra{module}(x):\n    return x * 2\n", "utf-8")
        neighbour = (package + 1) % PACKAGES
        for index in range(ADDED):
            (folder / f"new{index}.py").write_text(
                f"from pkg{neighbour}.mod{index} import value{index}\n\n\n"
                f"def combined{index}(x):\n    return value{index}(x) + 1\n",
                encoding="utf-8",
            )
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"work on pkg{package}")
        branches.append(branch)
    git(root, "checkout", "-q", "main")
    return branches


def merge_tree_alone(root: Path, branches: list[str]) -> None:
    """The 8 merges as git plumbing: merge-tree onto the result so far, commit-tree to chain."""
    current = git(root, "rev-parse", "main")
    for branch in branches:
        tree = git(root, "merge-tree", "--write-tree", current, branch).splitlines()[0]
        current = git(root, "commit-tree", tree, "-p", current, "-p", branch, "-m", "bench")


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    args = parser.parse_args()

    from forge.parallel.merge_preview import MergeAsk, merge_check
    from forge.validate.run import Engine

    with tempfile.TemporaryDirectory(prefix="forge-bench-merge-") as scratch:
        root = Path(scratch)
        branches = make_project(root)
        modules = [branch.removeprefix("forge/") for branch in branches]
        given = dict(zip(modules, branches, strict=True))
        engine = Engine.for_project(root)
        full = MergeAsk(modules=modules, branches=given, base_ref="main")
        bare = MergeAsk(modules=modules, branches=given, base_ref="main", checks=False)
        report = merge_check(engine, full)  # warm-up: plugins, grammars, git's caches
        changed = sum(len(module.changed_files) for module in report.modules)
        assert report.passed and changed == PACKAGES * (EDITED + ADDED), report
        merge_tree_alone(root, branches)
        times: dict[str, list[float]] = {"git merge-tree": [], "forge --no-checks": [], "forge": []}
        for _ in range(args.rounds):
            times["git merge-tree"].append(timed(lambda: merge_tree_alone(root, branches)))
            times["forge --no-checks"].append(timed(lambda: merge_check(engine, bare)))
            times["forge"].append(timed(lambda: merge_check(engine, full)))
    baseline = statistics.median(times["git merge-tree"])
    print(
        f"{len(branches)} branches, {changed} changed files, {report.checked_files} files "
        f"checked; median of {args.rounds} rounds"
    )
    for name, values in times.items():
        median = statistics.median(values)
        print(
            f"  {name:<18} {median * 1000:8.1f} ms  (min {min(values) * 1000:7.1f} ms)  "
            f"{median / baseline:6.1f}x git merge-tree"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
