"""CPU time of fresh ``forge`` commands in two installs, interleaved: a change's cost on a busy machine.

Wall-clock figures (``cold_start.py``, ``hook_speed.py``) swing with whatever
else the machine runs; the CPU time a command's process uses (user + system,
its children included) barely does. This starts each command once per round
in each install, interleaved, and prints the medians and their ratio::

    python benchmarks/cpu_before_after.py BEFORE/.venv/bin/forge AFTER/.venv/bin/forge
    python benchmarks/cpu_before_after.py OLD NEW --rounds 41

BEFORE and AFTER are ``forge`` executables of two checkouts (for example a
``git worktree`` of the base commit with its own venv). Every command runs in
its own process (``FORGE_DAEMON=0``) with Python's bytecode cache on; a first
round, not counted, writes it. Baseline in the same rounds: ``python -c pass``.
A plugin installed in one of them only changes what its commands run: switch it
off for both (``FORGE_DISABLE_PLUGINS=types python benchmarks/cpu_before_after.py ...``).
CPU time still grows when other work shares the cores' caches: compare on a
quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from hook_speed import make_project, write_event

PLAN = {
    "modules": [
        {
            "id": "m",
            "title": "M",
            "objective": "o",
            "files": ["one.py"],
            "verify": ["test -f one.py"],
            "doneWhen": "d",
        }
    ]
}


def cpu_ms(argv: list[str], stdin: str | None, cwd: Path, env: dict[str, str]) -> float:
    """User + system CPU of one run of ``argv`` (its children included), in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, input=stdin, text=True, capture_output=True, cwd=cwd, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return used * 1000


def main() -> None:
    """Measure, print the medians and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="the forge executable of the base install")
    parser.add_argument("after", help="the forge executable of the changed install")
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch)
        (project / "one.py").write_text("def f(x):\n    return x + 1\n", encoding="utf-8")
        (project / "plan.json").write_text(json.dumps(PLAN), encoding="utf-8")
        event = json.dumps(
            {
                "hook_event_name": "PostToolUse",
                "tool_name": "Write",
                "cwd": str(project),
                "tool_input": {"file_path": str(project / "one.py")},
            }
        )
        env = {**os.environ, "FORGE_DAEMON": "0", "FORGE_HOME": str(project / "home")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # hook_speed.py's "module" case: an edit of a plan module's file, judged with its neighbour.
        module = project / "module"
        in_module = write_event(make_project(module, neighbour=True))
        module_env = env | {"FORGE_CWD": str(module), "FORGE_MODULE_ID": "orders"}
        cases = {
            "forge validate --files one.py": (
                ["validate", "--files", "one.py"],
                None,
                project,
                env,
            ),
            "forge plan check plan.json": (["plan", "check", "plan.json"], None, project, env),
            "forge hook (a clean edit)": (["hook"], event, project, env),
            "forge hook (in a plan module)": (["hook"], in_module, module, module_env),
        }
        installs = {"before": args.before, "after": args.after}
        for forge in installs.values():  # bytecode caches and the entry-point cache, not timed
            for argv, stdin, cwd, case_env in cases.values():
                cpu_ms([forge, *argv], stdin, cwd, case_env)
        times: dict[tuple[str, str], list[float]] = {}
        baseline = []
        for _ in range(args.rounds):
            baseline.append(cpu_ms([sys.executable, "-c", "pass"], None, project, env))
            for case, (argv, stdin, cwd, case_env) in cases.items():
                for name, forge in installs.items():
                    times.setdefault((name, case), []).append(
                        cpu_ms([forge, *argv], stdin, cwd, case_env)
                    )
    print(f"{args.rounds} rounds; python -c pass: CPU median {statistics.median(baseline):.1f} ms")
    for case in cases:
        before = statistics.median(times[("before", case)])
        after = statistics.median(times[("after", case)])
        print(
            f"  {case:32s} CPU median before {before:6.1f} ms, after {after:6.1f} ms "
            f"(ratio {after / before:.3f})"
        )


if __name__ == "__main__":
    main()
