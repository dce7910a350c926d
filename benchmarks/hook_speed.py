"""Cold start of ``forge hook`` on one edit, against a bare ``python -c pass``.

Claude Code starts ``forge hook`` once per Write/Edit, so its cold time is
paid on every edit. The event is a real PostToolUse of a Write of one
~300-line Python module (a dataclass, functions); the file parses, so the
hook allows and prints nothing. Two cases:

- ``standalone``: the module imports the standard library only, and no plan
  module owns it. CPython's compiler (the authority forge's syntax check
  defers to) accepts it and there is no contract to check, so the hook
  answers without loading forge's checks. Target: median at most 150 ms.
- ``module``: the module also imports its neighbour ``pricing.py``, and both
  are the files of the plan module ``FORGE_MODULE_ID`` names: the hook loads
  forge's plugins and runs the syntax and contract checks on the file and
  its neighbour (the full path; reported, no target).
- ``module, daemon``: the same, handed to a running ``forge daemon`` (started
  for the run with its own ``FORGE_HOME``, stopped after; the other cases run
  in their own process, ``FORGE_DAEMON=0``). Target: at most 150 ms.

Runs are interleaved (python, standalone, module, python, ...) so a busy
machine slows all alike; Python's bytecode cache is on, as for users (a first
run, not timed, writes it). Usage::

    python benchmarks/hook_speed.py            # 21 runs each
    python benchmarks/hook_speed.py --runs 51  # steadier figures
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
import time
from pathlib import Path

from daemon import running_daemon

TARGET_MS = 150.0
BIN = Path(sys.executable).parent
#: CPU seconds of each run, by command line and input: on a shared machine the
#: wall time includes waiting for a core, the CPU time much less so.
CPU: dict[str, list[float]] = {}


def module_source(lines: int = 300, *, neighbour: bool) -> str:
    """A plausible module of about ``lines`` lines: imports, a dataclass, functions."""
    parts = [
        '"""Orders: totals, discounts and reports."""',
        "",
        "from __future__ import annotations",
        "",
        "import json",
        "from dataclasses import dataclass, field",
        "",
        "from pricing import round_cents" if neighbour else "round_cents = round",
        "",
        "",
        "@dataclass",
        "class Order:",
        '    """One order."""',
        "",
        "    id: str",
        "    items: list[tuple[str, int, float]] = field(default_factory=list)",
        "",
    ]
    index = 0
    while len(parts) < lines - 8:
        parts += [
            f"    def line_total_{index}(self, discount: float = 0.0) -> float:",
            f'        """Total of the order with discount scheme {index}."""',
            "        total = 0.0",
            "        for _name, quantity, price in self.items:",
            f"            if quantity > {index % 7 + 1}:",
            "                total += quantity * price * (1 - discount)",
            "            else:",
            "                total += quantity * price",
            "        return round_cents(total)",
            "",
        ]
        index += 1
    parts += [
        "",
        "def report(orders: list[Order]) -> str:",
        '    """The orders as JSON."""',
        "    return json.dumps([order.id for order in orders])",
    ]
    return "\n".join(parts) + "\n"


def make_project(root: Path, *, neighbour: bool) -> Path:
    """A forge project with a plan listing the edited module and its neighbour."""
    (root / ".forge" / "plans").mkdir(parents=True)
    plan = {
        "modules": [
            {
                "id": "orders",
                "title": "Orders",
                "objective": "Order totals",
                "files": ["orders.py", "pricing.py"],
                "verify": ["python -m pytest -q"],
                "doneWhen": "tests pass",
            }
        ]
    }
    (root / ".forge" / "plans" / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    (root / "pricing.py").write_text(
        "def round_cents(value: float) -> float:\n    return round(value, 2)\n", encoding="utf-8"
    )
    target = root / "orders.py"
    target.write_text(module_source(neighbour=neighbour), encoding="utf-8")
    return target


def timed(command: list[str], *, stdin: str, cwd: Path, env: dict[str, str]) -> float:
    """Wall time of one run; its CPU time (user + system) is added to ``CPU[command]``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    completed = subprocess.run(
        command, input=stdin, cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    CPU.setdefault(" ".join(command) + stdin, []).append(cpu)
    if completed.returncode != 0 or completed.stdout.strip() or completed.stderr.strip():
        raise SystemExit(
            f"{command[0]} did not allow silently: {completed.stdout}{completed.stderr}"
        )
    return elapsed


def write_event(target: Path) -> str:
    """The PostToolUse event Claude Code sends after writing ``target``."""
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": str(target.parent / "transcript.jsonl"),
            "cwd": str(target.parent),
            "permission_mode": "default",
            "hook_event_name": "PostToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": str(target), "content": target.read_text("utf-8")},
            "tool_response": {"filePath": str(target), "success": True},
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="cold starts of each (default 21)")
    args = parser.parse_args()
    hook = [str(BIN / "forge"), "hook"]
    bare = [sys.executable, "-c", "pass"]
    names = ("standalone", "module", "module, daemon")
    times: dict[str, list[float]] = {"python -c pass": [], **{name: [] for name in names}}
    keys = {"python -c pass": " ".join(bare)}
    with tempfile.TemporaryDirectory() as temp:
        cases = {}
        home = str(Path(temp) / "home")
        for name in names:
            root = Path(temp) / name.replace(", ", "-")
            target = make_project(root, neighbour=name != "standalone")
            env = {**os.environ, "FORGE_CWD": str(root), "FORGE_HOME": home, "FORGE_DAEMON": "0"}
            env.pop("PYTHONDONTWRITEBYTECODE", None)  # users have bytecode caches
            env.pop("FORGE_MODULE_ID", None)
            if name != "standalone":
                env["FORGE_MODULE_ID"] = "orders"
            if name == "module, daemon":
                del env["FORGE_DAEMON"]
            cases[name] = (write_event(target), root, env)
            keys[name] = " ".join(hook) + cases[name][0]
        lines = target.read_text(encoding="utf-8").count("\n")
        with running_daemon(hook[0], cases["module, daemon"][2], Path(temp)):
            for event, root, env in cases.values():
                timed(hook, stdin=event, cwd=root, env=env)  # writes the bytecode cache
            CPU.clear()
            for _ in range(args.runs):
                times["python -c pass"].append(timed(bare, stdin="", cwd=Path(temp), env=env))
                for name, (event, root, env) in cases.items():
                    times[name].append(timed(hook, stdin=event, cwd=root, env=env))
    print(f"forge hook, PostToolUse Write of one {lines}-line Python module, {args.runs} runs each")
    base = statistics.median(times["python -c pass"]) * 1000
    for name, values in times.items():
        median = statistics.median(values) * 1000
        extra = "" if name.startswith("python") else f"  ({median - base:+.1f} ms over bare python)"
        cpu = statistics.median(CPU[keys[name]]) * 1000
        print(
            f"  {name:16} median {median:6.1f} ms  min {min(values) * 1000:6.1f} ms  "
            f"(CPU median {cpu:5.1f} ms){extra}"
        )
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    for name in ("standalone", "module, daemon"):
        median = statistics.median(times[name]) * 1000
        verdict = "within" if median <= TARGET_MS else "OVER"
        print(f"  {name}: {verdict} the {TARGET_MS:.0f} ms target (load average {load})")


if __name__ == "__main__":
    main()
