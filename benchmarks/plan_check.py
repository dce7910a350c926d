"""Benchmark plan validation: a 1,000-module plan in process, and ``forge plan check``'s cold start.

Run from a checkout with forge installed (``pip install -e '.[dev]'``)::

    python benchmarks/plan_check.py            # both parts
    python benchmarks/plan_check.py --runs 31  # more cold starts, steadier figures

Targets: the 1,000-module plan validates in at most 40 ms; ``forge plan check``
on a 10-module plan takes under 10x ``python -c "import json"`` started the
same way (same interpreter, a fresh process each time). Cold starts are
interleaved (json, forge, json, forge, ...) so a busy machine slows both
alike, and the ratio is given for the medians and for the minimums. Python's
bytecode cache is on, as for users (a first run, not timed, writes it).

The plans' verify commands name stub programs in a temporary ``bin`` folder
put first on ``PATH``: nothing is executed, so stubs are enough, and the
plans are valid on any machine.
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

TOOLS = ("pytest", "ruff", "mypy", "npm", "npx", "node")


def make_plan(size: int, root: Path) -> dict[str, Any]:
    """A layered plan: each module depends on up to three earlier ones, some share files.

    Modules in the same chain share a file now and then (no warning), and a
    project script is run after ``cd`` (resolved against the root).
    """
    modules = []
    for index in range(size):
        depends = sorted({index - step for step in (1, 7, 31) if index - step >= 0 and index % 5})
        files = [f"src/pkg{index % 40}/mod{index}.py", f"tests/test_mod{index}.py"]
        if depends:
            files.append(f"src/pkg{index % 40}/mod{depends[-1]}.py")  # a file of its dependency
        modules.append(
            {
                "id": f"mod-{index}",
                "title": f"Module {index}",
                "objective": f"Implement part {index} of the feature.",
                "files": files,
                "verify": [
                    f"PYTHONPATH=src pytest -q tests/test_mod{index}.py",
                    f"ruff check src/pkg{index % 40}/mod{index}.py && mypy --strict src/pkg{index % 40}",
                    "cd tools && ./check.sh --quick 2>&1 | tail -n 5",
                ],
                "doneWhen": ["tests pass", "ruff and mypy are clean"],
                "dependsOn": [f"mod-{dep}" for dep in depends],
                "complexity": ("simple", "medium", "complex")[index % 3],
            }
        )
    script = root / "tools" / "check.sh"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    script.chmod(0o755)
    return {"objective": "A benchmark feature", "modules": modules}


def stub_bin(folder: Path) -> None:
    """Stub programs for the verify commands, first on PATH; never run."""
    folder.mkdir()
    for tool in TOOLS:
        stub = folder / tool
        stub.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        stub.chmod(0o755)
    os.environ["PATH"] = f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"


def bench_in_process(root: Path, size: int, runs: int) -> None:
    """Time :func:`forge.plan.check.check_plan` on a ``size``-module plan file.

    "first" clears the per-process cache of parsed commands before each run
    (a plan seen for the first time); "again" keeps it (the same plan checked
    after an edit, as a planner does). Baseline, in the same run: decoding the
    plan's JSON and validating each module with the plan model, the least any
    validator does before its first rule.
    """
    from forge.plan.check import check_plan
    from forge.plan.command_words import external_commands
    from forge.plan.model import PlanModule
    from forge.plugin_host.host import build_plugin_host

    plan_file = root / "big.json"
    plan_file.write_text(json.dumps(make_plan(size, root)), encoding="utf-8")
    started = time.perf_counter()
    plugins = build_plugin_host()
    host_seconds = time.perf_counter() - started

    def check() -> Any:
        return check_plan(plan_path=str(plan_file), plan=None, project_root=root, plugins=plugins)

    def baseline() -> None:
        for module in json.loads(plan_file.read_text(encoding="utf-8"))["modules"]:
            PlanModule.model_validate(module)

    report = check()
    if not report.valid:
        raise SystemExit(f"benchmark plan is invalid: {report.errors[:3]}")
    timings: dict[str, list[float]] = {"first": [], "again": [], "baseline": []}
    for _ in range(runs):
        for name in timings:
            if name == "first":
                external_commands.cache_clear()
            started = time.perf_counter()
            check() if name != "baseline" else baseline()
            timings[name].append(time.perf_counter() - started)
    base = statistics.median(timings["baseline"])
    print(
        f"{size}-module plan ({len(report.layers)} layers, critical path "
        f"{report.critical_path_length}, {len(report.warnings)} warnings; plugins loaded once "
        f"in {host_seconds * 1000:.0f} ms), median of {runs}:"
    )
    for name, label in (("first", "check_plan, plan seen first"), ("again", "check_plan, again")):
        median = statistics.median(timings[name])
        print(
            f"  {label:32} {median * 1000:6.1f} ms  ratio {median / base:4.2f}x baseline "
            "(target <= 40 ms)"
        )
    print(f"  {'baseline: JSON + module models':32} {base * 1000:6.1f} ms")


def bench_cold_start(root: Path, runs: int) -> None:
    """Compare ``forge plan check`` on a 10-module plan with ``python -c "import json"``."""
    plan_file = root / "small.json"
    plan_file.write_text(json.dumps(make_plan(10, root)), encoding="utf-8")
    python = sys.executable
    script = shutil.which("forge", path=str(Path(python).parent))
    commands = {
        "python -c 'import json'": [python, "-c", "import json"],
        "python -m forge plan check": [python, "-m", "forge", "plan", "check", str(plan_file)],
    }
    if script:
        commands["forge plan check (console script)"] = [script, "plan", "check", str(plan_file)]
    # Measure what users get: bytecode caches written and used (this machine may
    # set PYTHONDONTWRITEBYTECODE, which would make every run recompile forge).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["FORGE_CWD"] = str(root)
    check = subprocess.run(
        commands["python -m forge plan check"], env=env, capture_output=True, text=True, check=False
    )
    if check.returncode != 0:
        raise SystemExit(f"forge plan check failed:\n{check.stdout}{check.stderr}")
    timings: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            started = time.perf_counter()
            subprocess.run(command, env=env, cwd=root, stdout=subprocess.DEVNULL, check=False)
            timings[name].append(time.perf_counter() - started)
    base = timings["python -c 'import json'"]
    for name, values in timings.items():
        median_ratio = statistics.median(values) / statistics.median(base)
        min_ratio = min(values) / min(base)
        print(
            f"{name:36} median {statistics.median(values) * 1000:6.1f} ms  "
            f"min {min(values) * 1000:6.1f} ms  ratio {median_ratio:5.2f}x (min {min_ratio:5.2f}x)"
        )
    print("target: forge plan check under 10x python -c 'import json'")


def main() -> None:
    """Run both benchmarks in a temporary project."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=1000, help="modules in the big plan")
    parser.add_argument("--runs", type=int, default=21, help="cold starts of each command")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder).resolve()
        stub_bin(root / "bin")
        bench_in_process(root, args.size, runs=15)
        bench_cold_start(root, args.runs)


if __name__ == "__main__":
    main()
