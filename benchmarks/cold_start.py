"""Benchmark fresh processes: ``forge validate`` of one file, ``forge plan check``, MCP start.

Run from a checkout with forge installed (``pip install -e '.[dev]'``)::

    python benchmarks/cold_start.py            # 21 rounds
    python benchmarks/cold_start.py --runs 41  # steadier figures

Each round starts every command once, interleaved, so a busy machine slows
them alike; medians and minimums are printed. Baselines, measured in the same
rounds: ``python -c pass`` for the CLI commands, and a process that only
imports the MCP SDK's server (``from mcp.server.mcpserver import MCPServer``)
for the MCP cold start. Targets:

- ``forge validate --files one.py`` (a fresh process checking one file):
  at most 150 ms; measured in its own process (``FORGE_DAEMON=0``) and handed
  to a running ``forge daemon`` (started for the run, stopped after);
- MCP cold start (spawn ``forge serve``, ``initialize``, ``tools/list``
  answered): at most the SDK import plus 150 ms.

Python's bytecode cache is on, as for users (a first run, not timed, writes it).

``--imports`` prints instead what each fresh command imports (modules, and
their import time from ``python -X importtime``) against its budget,
:data:`IMPORT_BUDGETS`, which ``tests/test_startup.py`` holds every command to::

    python benchmarks/cold_start.py --imports
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
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from daemon import running_daemon
from hook_speed import make_project, write_event

PYTHON = sys.executable
DAEMON = "... with forge daemon running"
FORGE = shutil.which("forge", path=str(Path(PYTHON).parent)) or "forge"

MCP_REQUESTS = b"".join(
    json.dumps(message).encode() + b"\n"
    for message in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    )
)


class ImportBudget(NamedTuple):
    """What one fresh command may import (``FORGE_DAEMON=0``, forge's caches warm)."""

    argv: list[str]
    #: At most this many modules, as ``python -X importtime`` lists them.
    modules: int
    #: None of these packages (nor their submodules).
    forbidden: tuple[str, ...]
    #: Its standard input: ``"hook"`` for the hook's PostToolUse event.
    stdin: str = ""


#: The start-up budget (docs/architecture.md, "Start-up"): the figures are today's counts
#: plus a little room; raise one only with the time ``--imports`` shows it costs.
IMPORT_BUDGETS = {
    "forge hook (an edit no plan module owns)": ImportBudget(
        ["hook"], 60, ("pydantic", "pluggy", "tree_sitter", "mcp", "forge.validate"), "hook"
    ),
    "forge plan check (10 modules)": ImportBudget(
        ["plan", "check", "plan.json"],
        225,
        (
            "mcp",
            "tree_sitter",
            "importlib.metadata",
            "forge.checks",
            "forge.languages",
            "forge.contracts",
            "forge.test_runs",
            "forge.memory",
            "forge.tools",
            "forge.validate",
        ),
    ),
    "forge validate --files one.py": ImportBudget(
        ["validate", "--files", "one.py"],
        345,
        (
            "mcp",
            "importlib.metadata",  # the entry-point cache answers, pydantic's plugin scan too
            "email",
            "zipfile",
            "forge.memory",
            "forge.parallel",
            "forge.plan.rules",
            "forge.service.arguments",  # the other tools' requests and replies
            "forge.service.replies",
            "forge.state.sessions",
            "forge.state.status_file",  # status.json follows named runs only
            "forge.validate.iteration",
            "forge.daemon.client",  # no daemon's socket: not even the client
            "forge.daemon.server",
        ),
    ),
}


def prepare(project: Path) -> None:
    """The project the commands run in: one Python file, a 10-module plan, an edit to hook."""
    (project / "one.py").write_text("def f(x):\n    return x + 1\n", encoding="utf-8")
    plan = {
        "modules": [
            {
                "id": f"m{i}",
                "title": f"Module {i}",
                "objective": "o",
                "files": [f"src/m{i}.py"],
                "verify": ["true"],
                "doneWhen": "done",
                "dependsOn": [f"m{i - 1}"] if i else [],
            }
            for i in range(10)
        ]
    }
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    make_project(project / "edited", neighbour=False)


#: Runs one forge command in this process and writes the modules it imported (beyond
#: Python's own start-up) to the file named by ``FORGE_IMPORTS_OUT``.
_PROBE = """
import json, os, sys
before = set(sys.modules)
from forge.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
with open(os.environ["FORGE_IMPORTS_OUT"], "w", encoding="utf-8") as out:
    json.dump({"code": code, "modules": sorted(set(sys.modules) - before)}, out)
"""


def imports_of(budget: ImportBudget, project: Path, env: dict[str, str]) -> dict[str, float]:
    """Each module a fresh ``forge`` run of ``budget`` imports, with its own import time (ms,
    from ``python -X importtime``; 0 for one it does not time)."""
    stdin = write_event(project / "edited" / "orders.py") if budget.stdin == "hook" else ""
    cwd = project / "edited" if budget.stdin == "hook" else project
    out = project / "imports.json"
    completed = subprocess.run(
        [PYTHON, "-X", "importtime", "-c", _PROBE, *budget.argv],
        input=stdin,
        env=env | {"FORGE_CWD": str(cwd), "FORGE_IMPORTS_OUT": str(out)},
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    found = json.loads(out.read_text(encoding="utf-8"))
    if found["code"] not in (0, 1):
        raise SystemExit(f"forge {' '.join(budget.argv)} failed: {completed.stderr[-500:]}")
    timed: dict[str, float] = {}
    for line in completed.stderr.splitlines():
        fields = line.removeprefix("import time:").split("|")
        if line.startswith("import time:") and len(fields) == 3 and fields[0].strip().isdigit():
            timed[fields[2].strip()] = int(fields[0]) / 1000
    return {name: timed.get(name, 0.0) for name in found["modules"]}


def over_budget(budget: ImportBudget, imported: dict[str, float]) -> list[str]:
    """What ``imported`` breaks of ``budget``: one line each, empty when within it."""
    problems = [
        f"imports {name}"
        for name in sorted(imported)
        if any(name == package or name.startswith(f"{package}.") for package in budget.forbidden)
    ]
    if len(imported) > budget.modules:
        problems.append(f"imports {len(imported)} modules (budget {budget.modules})")
    return problems


def print_imports(project: Path, env: dict[str, str]) -> None:
    """``--imports``: each budgeted command's modules and import time, against its budget."""
    for name, budget in IMPORT_BUDGETS.items():
        imports_of(budget, project, env)  # fills forge's caches and the bytecode cache
        imported = imports_of(budget, project, env)
        problems = over_budget(budget, imported)
        print(
            f"  {name:44} {len(imported):4} modules (budget {budget.modules:4}), "
            f"{sum(imported.values()):6.1f} ms importing: {'; '.join(problems) or 'within'}"
        )


def run_command(command: list[str], env: dict[str, str], cwd: Path) -> Callable[[], None]:
    """A round's action: run ``command`` to its end."""

    def action() -> None:
        subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=False)

    return action


def mcp_start(env: dict[str, str], cwd: Path) -> Callable[[], None]:
    """A round's action: spawn ``forge serve``, initialize, wait for the tools/list answer."""

    def action() -> None:
        process = subprocess.Popen(
            [FORGE, "serve"],
            env=env,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(MCP_REQUESTS)
        process.stdin.flush()
        for line in process.stdout:
            if json.loads(line).get("id") == 2:
                break
        process.stdin.close()
        process.wait()

    return action


def main() -> None:
    """Time every command in a temporary project."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="rounds")
    parser.add_argument("--imports", action="store_true", help="imports against the budget")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch).resolve()
        prepare(project)
        daemon_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        daemon_env |= {"FORGE_CWD": str(project), "FORGE_HOME": str(project / "home")}
        env = daemon_env | {"FORGE_DAEMON": "0"}
        if args.imports:
            print_imports(project, env)
            return
        actions = {
            "python -c pass": run_command([PYTHON, "-c", "pass"], env, project),
            "forge validate --files one.py": run_command(
                [FORGE, "validate", "--files", "one.py"], env, project
            ),
            DAEMON: run_command([FORGE, "validate", "--files", "one.py"], daemon_env, project),
            "forge plan check (10 modules)": run_command(
                [FORGE, "plan", "check", "plan.json"], env, project
            ),
            "import the MCP SDK server": run_command(
                [PYTHON, "-c", "from mcp.server.mcpserver import MCPServer"], env, project
            ),
            "forge serve to tools/list": mcp_start(env, project),
        }
        timings: dict[str, list[float]] = {name: [] for name in actions}
        with running_daemon(FORGE, daemon_env, project):
            for action in actions.values():  # writes bytecode caches and forge's own caches
                action()
            for _ in range(args.runs):
                for name, action in actions.items():
                    started = time.perf_counter()
                    action()
                    timings[name].append((time.perf_counter() - started) * 1000)
    median = {name: statistics.median(values) for name, values in timings.items()}
    best = {name: min(values) for name, values in timings.items()}
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.runs} rounds")
    for name in actions:
        print(f"  {name:32} median {median[name]:7.1f} ms   min {best[name]:7.1f} ms")
    python, sdk = "python -c pass", "import the MCP SDK server"
    for name, target in (
        ("forge validate --files one.py", "<= 150 ms"),
        (DAEMON, "<= 150 ms"),
        ("forge plan check (10 modules)", ""),
    ):
        print(
            f"  {name}: {median[name] - median[python]:6.1f} ms over python -c pass "
            f"(ratio {median[name] / median[python]:4.1f}x) {target}"
        )
    serve = "forge serve to tools/list"
    print(
        f"  MCP cold start: SDK import + {median[serve] - median[sdk]:6.1f} ms "
        f"(ratio {median[serve] / median[sdk]:4.2f}x; target: + 150 ms at most)"
    )


if __name__ == "__main__":
    main()
