"""Benchmark ``forge validate --plan P --all --jobs N`` on a plan of independent slow modules.

Run from a checkout with forge installed (``pip install -e '.[dev]'``)::

    python benchmarks/validate_jobs.py                # 20 modules of "sleep 1"
    python benchmarks/validate_jobs.py --modules 8 --seconds 0.5

The plan's modules depend on nothing, so they form one layer. The same plan
runs with ``--jobs 1`` (the baseline, in the same run: one module at a time,
as before ``--jobs``), with the default (the number of cores) and with
``--jobs`` equal to the module count; each line prints the wall time and the
speed-up over ``--jobs 1``. The modules wait on ``sleep``, not on the CPU, so
the speed-up is bounded by the jobs, not by the cores.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def make_plan(modules: int, seconds: float) -> dict[str, object]:
    """``modules`` independent modules, each verified by ``sleep seconds``."""
    return {
        "objective": "benchmark --jobs",
        "modules": [
            {
                "id": f"m{index:02d}",
                "title": f"Module {index}",
                "objective": "wait",
                "files": ["plan.json"],
                "verify": [f"sleep {seconds}"],
                "doneWhen": "it slept",
            }
            for index in range(modules)
        ],
    }


def run(project: Path, jobs: int | None) -> float:
    """Wall time of one ``forge validate --all`` with ``jobs`` (None: the default)."""
    forge = shutil.which("forge", path=str(Path(sys.executable).parent)) or "forge"
    command = [forge, "validate", "--plan", "plan.json", "--all", "--run-id", f"jobs{jobs}"]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    env = {**os.environ, "FORGE_CWD": str(project)}
    started = time.perf_counter()
    completed = subprocess.run(command, cwd=project, env=env, capture_output=True, check=False)
    seconds = time.perf_counter() - started
    if completed.returncode != 0:
        raise SystemExit(
            f"forge validate failed:\n{completed.stdout.decode()}{completed.stderr.decode()}"
        )
    return seconds


def main() -> None:
    """Run the plan with each --jobs setting in a temporary project."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modules", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch)
        (project / "plan.json").write_text(
            json.dumps(make_plan(args.modules, args.seconds)), encoding="utf-8"
        )
        print(
            f"{args.modules} independent modules of 'sleep {args.seconds:g}', {os.cpu_count()} cores"
        )
        baseline = run(project, 1)
        print(f"  --jobs 1 (baseline)       {baseline:6.2f} s")
        for label, jobs in (
            (f"default ({os.cpu_count()})", None),
            (str(args.modules), args.modules),
        ):
            seconds = run(project, jobs)
            print(f"  --jobs {label:18} {seconds:6.2f} s   speed-up {baseline / seconds:4.1f}x")


if __name__ == "__main__":
    main()
