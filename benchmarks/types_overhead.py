"""forge-types against the bare type checker, on the same files in the same sitting.

- ``python cold``: rich (every module of ``rich/``, downloaded at run time), pyrefly
  chosen, no warm checker: ``forge validate --files ...`` with forge's other checks
  switched off, in its own process and handed to a ``forge daemon`` (started outside
  the package: forge is warm, the checker is not), against ``pyrefly check`` of the
  same files (the listed ones and the importers forge adds). Target: forge at most
  20% over (ratio <= 1.20).
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
    python benchmarks/types_overhead.py --only python   # or typescript, warm
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
) -> tuple[float, float, float]:
    """Median seconds of the bare checker, forge in its own process, and forge by the daemon."""
    own = {**env, "FORGE_DAEMON": "0"}
    timed(bare, cwd), timed(forge, cwd, own), timed(forge, cwd, env)  # OS and bytecode caches
    times: dict[str, list[float]] = {"bare": [], "own": [], "daemon": []}
    for _ in range(runs):
        times["bare"].append(timed(bare, cwd))
        times["own"].append(timed(forge, cwd, own))
        times["daemon"].append(timed(forge, cwd, env))
    return tuple(statistics.median(times[k]) for k in ("bare", "own", "daemon"))  # type: ignore[return-value]


def report(what: str, checker: str, bare: float, own: float, daemon: float) -> None:
    """One line: the bare checker, forge in its own process and by the daemon, the ratios."""
    print(
        f"{what}: {checker} {bare * 1000:.0f} ms; forge in its own process {own * 1000:.0f} ms "
        f"(ratio {own / bare:.2f}), by forge daemon {daemon * 1000:.0f} ms "
        f"(ratio {daemon / bare:.2f}); target <= 1.20"
    )


def scope_of(root: Path, listed: list[Path]) -> list[Path]:
    """The files forge-types checks for ``listed``: them and their importers."""
    from forge_types.scope import find_importers

    from forge.config import load_config
    from forge.languages import LanguageRegistry
    from forge.plugin_host import build_plugin_host
    from forge.workspace import Workspace

    languages = LanguageRegistry.from_plugins(build_plugin_host(frozenset()))
    workspace = Workspace(root, config=load_config(root), languages=languages)
    return find_importers(listed, "python", root, workspace, 50).files


def python_cold(rich: Path, runs: int) -> None:
    """forge validate of every rich module against pyrefly check of them."""
    files = sorted(str(p.relative_to(rich)) for p in (rich / "rich").glob("*.py"))
    # The same files: the listed ones and the importers forge adds (rich's tests, examples).
    checked = [str(p.relative_to(rich)) for p in scope_of(rich, [rich / f for f in files])]
    bare = [str(BIN / "pyrefly"), "check", "--output-format", "json", "--summary", "none",
            "--preset", "default", *checked]  # fmt: skip
    env = {**os.environ, "FORGE_DISABLE_PLUGINS": OTHERS_OFF, "FORGE_CWD": str(rich)}
    forge = [str(BIN / "forge"), "validate", "--json", "--files", *files]
    what = f"python cold      rich, {len(files)} files and {len(checked) - len(files)} importers"
    report(what, "pyrefly", *interleaved(runs, bare, forge, rich, env))


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
    env = {**os.environ, "FORGE_DISABLE_PLUGINS": OTHERS_OFF, "FORGE_CWD": str(got)}
    forge = [str(BIN / "forge"), "validate", "--json", "--files", *files]
    report(
        f"typescript cold  got, {len(files)} files",
        "tsc",
        *interleaved(runs, bare, forge, got, env),
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
        scope = scope_of(rich, [target])
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
    parser.add_argument("--only", choices=["python", "typescript", "warm"], help="one figure")
    arguments = parser.parse_args()
    runs, only = arguments.runs, arguments.only
    with tempfile.TemporaryDirectory(prefix="forge-types-overhead-") as scratch:
        folders = download(Path(scratch), npm=("got@14.6.6",), pypi=("rich==15.0.0",))
        if folders is None:
            print("cannot download the packages (no network?)")
            return 1
        got, rich = (top(folder) for folder in folders)
        with (rich / "pyproject.toml").open("a", encoding="utf-8") as config:
            config.write('\n[tool.forge.types]\npython-checker = "pyrefly"\n')
        # A daemon of this run's own, started outside both packages: forge is warm, the
        # checkers are not (no project of theirs is served, so no warm checker).
        os.environ["FORGE_HOME"] = str(Path(scratch) / "home")
        outside = Path(scratch) / "outside"
        outside.mkdir()
        subprocess.run(
            [str(BIN / "forge"), "daemon", "start"], cwd=outside, check=True, capture_output=True
        )
        try:
            if only in (None, "python"):
                python_cold(rich, runs)
            if only in (None, "typescript") and shutil.which("npm"):
                typescript_cold(got, runs)
        finally:
            subprocess.run(
                [str(BIN / "forge"), "daemon", "stop"],
                cwd=outside,
                check=False,
                capture_output=True,
            )
        if only in (None, "warm"):
            python_warm(rich, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
