"""forge-types against the bare type checker, on the same files in the same sitting.

- ``python cold``: rich (every module of ``rich/``, downloaded at run time), pyrefly
  chosen, no warm checker: ``forge validate --files ...`` in its own process, with
  forge's other checks switched off, against ``pyrefly check`` of the same files.
  Target: forge at most 20% over (ratio <= 1.20).
- ``typescript cold``: got (its 24 modules, checked by its own ``tsc`` through a
  ``checkJs`` tsconfig, as the tests do) against ``tsc --noEmit -p tsconfig.json``.
  Target: ratio <= 1.20.
- ``python warm``: the MCP server's engine in this process, its warm checker
  started (``Engine.start_serving``), the base cached: one module of rich edited,
  then validated with its importers against the base, each time. Target: <= 300 ms.
  The bare cold checker over the same files is printed beside it.

Runs are interleaved (bare, forge, bare, ...) so a busy machine slows both alike.
Usage::

    python benchmarks/types_overhead.py            # 7 runs each, medians
    python benchmarks/types_overhead.py --runs 11
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import download

BIN = Path(sys.executable).parent
#: forge's own checks, off: the figure is the type check's.
OTHERS_OFF = "stubs,syntax_check,contract_check,switched_off,command"
TSCONFIG = {
    "compilerOptions": {"allowJs": True, "checkJs": True, "noEmit": True, "module": "nodenext",
                        "moduleResolution": "nodenext", "target": "es2022", "skipLibCheck": True},
    "include": ["dist/source/**/*.js"],
}  # fmt: skip


def git(root: Path, *args: str) -> None:
    """A git command in ``root`` with a fixed identity."""
    subprocess.run(
        ["git", "-c", "user.name=b", "-c", "user.email=b@b", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def timed(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """Seconds ``argv`` took."""
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False, timeout=900)
    return time.perf_counter() - started


def interleaved(
    runs: int, bare: list[str], forge: list[str], cwd: Path, env: dict[str, str]
) -> tuple[float, float]:
    """Median seconds of the bare checker and of forge, run turn about."""
    timed(bare, cwd), timed(forge, cwd, env)  # caches of the OS and Python's bytecode
    times: dict[str, list[float]] = {"bare": [], "forge": []}
    for _ in range(runs):
        times["bare"].append(timed(bare, cwd))
        times["forge"].append(timed(forge, cwd, env))
    return statistics.median(times["bare"]), statistics.median(times["forge"])


def python_cold(rich: Path, runs: int) -> None:
    """forge validate of every rich module against pyrefly check of them."""
    files = sorted(str(p.relative_to(rich)) for p in (rich / "rich").glob("*.py"))
    bare = [str(BIN / "pyrefly"), "check", "--output-format", "json", "--summary", "none",
            "--preset", "default", *files]  # fmt: skip
    env = {
        **os.environ,
        "FORGE_DISABLE_PLUGINS": OTHERS_OFF,
        "FORGE_DAEMON": "0",
        "FORGE_CWD": str(rich),
    }
    forge = [str(BIN / "forge"), "validate", "--json", "--files", *files]
    b, f = interleaved(runs, bare, forge, rich, env)
    print(
        f"python cold      rich, {len(files)} files: pyrefly {b * 1000:.0f} ms, forge {f * 1000:.0f} ms, ratio {f / b:.2f} (target <= 1.20)"
    )


def typescript_cold(got: Path, runs: int) -> None:
    """forge validate of got's modules against its own tsc."""
    manifest = json.loads((got / "package.json").read_text(encoding="utf-8"))
    dev = manifest.get("devDependencies", {})
    manifest["devDependencies"] = {name: dev[name] for name in ("typescript", "@types/node")}
    (got / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    (got / "tsconfig.json").write_text(json.dumps(TSCONFIG), encoding="utf-8")
    done = subprocess.run(
        ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"],
        cwd=got,
        capture_output=True,
        check=False,
    )
    if done.returncode:
        print("typescript cold  skipped: npm install failed (no network?)")
        return
    files = sorted(str(p.relative_to(got)) for p in (got / "dist" / "source").rglob("*.js"))
    bare = [
        str(got / "node_modules" / ".bin" / "tsc"),
        "--noEmit",
        "--pretty",
        "false",
        "-p",
        "tsconfig.json",
    ]
    env = {
        **os.environ,
        "FORGE_DISABLE_PLUGINS": OTHERS_OFF,
        "FORGE_DAEMON": "0",
        "FORGE_CWD": str(got),
    }
    forge = [str(BIN / "forge"), "validate", "--json", "--files", *files]
    b, f = interleaved(runs, bare, forge, got, env)
    print(
        f"typescript cold  got, {len(files)} files: tsc {b * 1000:.0f} ms, forge {f * 1000:.0f} ms, ratio {f / b:.2f} (target <= 1.20)"
    )


def python_warm(rich: Path, runs: int) -> None:
    """An edit of rich/segment.py validated with its importers, warm, against the base."""
    os.environ["FORGE_DISABLE_PLUGINS"] = OTHERS_OFF
    from forge.models import ValidateRequest
    from forge.validate.run import Engine

    git(rich, "init", "-q")
    git(rich, "add", "-A")
    git(rich, "commit", "-q", "-m", "base")
    engine = Engine.for_project(rich)
    engine.start_serving()
    target = rich / "rich" / "segment.py"
    original = target.read_text(encoding="utf-8")
    request = ValidateRequest(module_id="bench", files=["rich/segment.py"], base_ref="HEAD")
    try:
        engine.validate(request)  # the base: exported, checked and cached once
        from forge_types.scope import find_importers

        from forge.workspace import Workspace

        workspace = Workspace(rich, config=engine.config, languages=engine.languages)
        scope = find_importers([target], "python", rich, workspace, 50).files
        seconds = []
        for run in range(runs):
            target.write_text(
                original + f"\n\ndef _edited_{run}() -> int:\n    return {run}\n", encoding="utf-8"
            )
            started = time.perf_counter()
            engine.validate(request)
            seconds.append(time.perf_counter() - started)
        bare_argv = [
            str(BIN / "pyrefly"),
            "check",
            "--output-format",
            "json",
            "--preset",
            "default",
        ]
        bare = timed([*bare_argv, *map(str, scope)], rich)
    finally:
        target.write_text(original, encoding="utf-8")
        engine.stop_serving()
    print(
        f"python warm      rich/segment.py and its importers ({len(scope)} files), base cached: "
        f"median {statistics.median(seconds) * 1000:.0f} ms (target <= 300 ms); "
        f"bare cold pyrefly over as many files {bare * 1000:.0f} ms"
    )


def top(folder: Path) -> Path:
    """The one folder an unpacked archive holds (``requests-2.34.2/``, npm's ``package/``)."""
    (inner,) = [path for path in folder.iterdir() if path.is_dir()]
    return inner


def main() -> int:
    """Download, measure, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="forge-types-overhead-") as scratch:
        folders = download(Path(scratch), npm=("got@14.6.6",), pypi=("rich==15.0.0",))
        if folders is None:
            print("cannot download the packages (no network?)")
            return 1
        got, rich = (top(folder) for folder in folders)
        with (rich / "pyproject.toml").open("a", encoding="utf-8") as config:
            config.write('\n[tool.forge.types]\npython-checker = "pyrefly"\n')
        python_cold(rich, runs)
        if shutil.which("npm"):
            typescript_cold(got, runs)
        python_warm(rich, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
