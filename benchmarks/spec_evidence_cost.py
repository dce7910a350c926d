"""What the run-evidence checks add to a validate (not a timed test).

Run: ``python benchmarks/spec_evidence_cost.py SDIST_DIR`` with an unpacked
sdist whose tests run with pytest and the standard library alone (e.g.
``pip download --no-deps --no-binary :all: more-itertools==10.2.0``, then
``tar xzf``). The tree becomes a git repository (main) with a worker's
worktree; its module lists the package's sources, its verify is
``python -m pytest -q -p no:cacheprovider tests``. ``forge validate --base
main`` runs three ways, each three times, and the medians are printed:

- baseline: ``spec_collection`` and ``special_case`` disabled (the run of the
  tests, the other checks);
- cold: both enabled, the base's collection cache emptied before each run;
- warm: both enabled, the cache kept (every run after the first).

Prints each median, wall and CPU (forge and its children, user + sys: the
figure a loaded machine disturbs least), and its ratio to the baseline
measured in the same run.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT = ["git", "-c", "user.name=b", "-c", "user.email=b@b", "-c", "init.defaultBranch=main"]
FORGE = str(Path(sys.executable).parent / "forge")
RUNS = 3


def _git(cwd: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True)


def _project(sdist: Path, into: Path) -> Path:
    project = into / "project"
    shutil.copytree(sdist, project)
    sources = sorted(
        path.relative_to(project).as_posix()
        for path in project.rglob("*.py")
        if "tests" not in path.parts and "docs" not in path.parts and path.name != "setup.py"
    )
    plan = {
        "modules": [
            {
                "id": "pkg",
                "title": "Package",
                "objective": "The package.",
                "files": sources,
                "mayChange": ["tests/**"],
                "verify": ["python -m pytest -q -p no:cacheprovider tests"],
                "doneWhen": "its tests pass",
            }
        ]
    }
    (project / ".forge" / "plans").mkdir(parents=True)
    (project / ".forge" / "plans" / "p.json").write_text(json.dumps(plan), encoding="utf-8")
    (project / ".gitignore").write_text(
        ".forge/*\n!.forge/plans/\n__pycache__/\n", encoding="utf-8"
    )
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    _git(project, "worktree", "add", "-q", "-b", "w", str(into / "wt"), "main")
    return project


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(project: Path, disabled: str, cold: bool) -> tuple[float, float]:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "FORGE_DISABLE_PLUGINS": disabled,
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    if cold:
        shutil.rmtree(project / ".forge" / "cache" / "spec-collection", ignore_errors=True)
    argv = [FORGE, "validate", "--plan", ".forge/plans/p.json", "--module", "pkg"]
    argv += ["--cwd", str(project.parent / "wt"), "--base", "main", "--json"]
    started, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, check=False)
    took, cpu = time.perf_counter() - started, _cpu() - cpu
    report = json.loads(done.stdout)
    shown = [
        (r["type"], r["passed"])
        for r in report["results"]
        if r["type"] in {"spec_collection", "special_case"}
    ]
    print(
        f"    {took:6.2f} s, CPU {cpu:5.2f} s  {report['recommendation']}  {shown}", file=sys.stderr
    )
    return took, cpu


def main() -> None:
    """Measure the three ways on the sdist given."""
    if len(sys.argv) != 2:
        sys.exit("usage: spec_evidence_cost.py SDIST_DIR")
    with tempfile.TemporaryDirectory() as folder:
        project = _project(Path(sys.argv[1]).resolve(), Path(folder))
        others = "stubs,types"
        ways = {
            "baseline": (f"{others},spec_collection,special_case", False),
            "cold": (others, True),
            "warm": (others, False),
        }
        walls, cpus = {}, {}
        for name, (disabled, cold) in ways.items():
            print(f"  {name}:", file=sys.stderr)
            runs = [_time(project, disabled, cold) for _ in range(RUNS)]
            walls[name] = statistics.median(wall for wall, _ in runs)
            cpus[name] = statistics.median(cpu for _, cpu in runs)
        for name in ways:
            print(
                f"{name:9s} wall {walls[name]:6.2f} s (x{walls[name] / walls['baseline']:.2f}), "
                f"CPU {cpus[name]:5.2f} s (x{cpus[name] / cpus['baseline']:.2f}) of baseline"
            )


if __name__ == "__main__":
    main()
