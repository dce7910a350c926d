"""What judging edits made through the shell costs ``forge hook`` on each Bash command.

Every Bash command of a session now runs ``forge hook`` twice: ``PreToolUse``
keeps the working tree's state (``git status`` plus sizes and times) and
``PostToolUse`` compares it (:mod:`forge.git.shell_edits`). Measured here on a
git repository of 400 tracked Python files with 5 changed and 5 untracked, for
a command that changes nothing (the common case: ``ls``, ``pytest``, ``grep``),
against ``python -c pass`` in the same run; the daemon is off (``FORGE_DAEMON=0``),
the worst case. Usage::

    python benchmarks/shell_hook_speed.py            # 21 runs each
    python benchmarks/shell_hook_speed.py --runs 51
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
GIT = ["git", "-c", "user.name=b", "-c", "user.email=b@b", "-c", "init.defaultBranch=main"]


def make_repo(root: Path) -> None:
    """400 tracked files, 5 of them changed, 5 untracked; a forge project."""
    (root / ".forge").mkdir(parents=True)
    (root / ".gitignore").write_text(".forge/\n", encoding="utf-8")
    for index in range(400):
        path = root / f"pkg{index % 20}" / f"mod{index}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"def f{index}():\n    return {index}\n", encoding="utf-8")
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "base"], cwd=root, check=True)
    for index in range(5):
        (root / "pkg0" / f"mod{index * 20}.py").write_text("X = 1\n", encoding="utf-8")
        (root / f"new{index}.py").write_text("Y = 2\n", encoding="utf-8")


def event(root: Path, hook: str) -> str:
    found = {
        "session_id": "bench",
        "transcript_path": str(root / "t.jsonl"),
        "cwd": str(root),
        "permission_mode": "default",
        "hook_event_name": hook,
        "tool_name": "Bash",
        "tool_input": {"command": "ls", "description": "List"},
        "tool_use_id": "toolu_bench",
    }
    if hook == "PostToolUse":
        found["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False}
    return json.dumps(found)


def timed(command: list[str], stdin: str, cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode or done.stdout.strip() or done.stderr.strip():
        raise SystemExit(f"{command} did not allow silently: {done.stdout}{done.stderr}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    hook = [str(BIN / "forge"), "hook"]
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp) / "repo"
        make_repo(root)
        env = {**os.environ, "FORGE_DAEMON": "0", "FORGE_HOME": str(Path(temp) / "home")}
        env.pop("FORGE_CWD", None)
        pre, post = event(root, "PreToolUse"), event(root, "PostToolUse")
        times: dict[str, list[float]] = {"python -c pass": [], "PreToolUse": [], "PostToolUse": []}
        timed(hook, pre, root, env)  # bytecode caches written
        for _ in range(args.runs):
            times["python -c pass"].append(timed([sys.executable, "-c", "pass"], "", root, env))
            times["PreToolUse"].append(timed(hook, pre, root, env))
            times["PostToolUse"].append(timed(hook, post, root, env))
    base = statistics.median(times["python -c pass"]) * 1000
    print(f"forge hook around a Bash command that changes nothing, {args.runs} runs each")
    for name, values in times.items():
        median = statistics.median(values) * 1000
        print(f"  {name:15} median {median:6.1f} ms  ({median / base:4.1f}x bare python)")
    print(f"  load average {', '.join(f'{value:.1f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
