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
- ``python all``: the same files with every one of forge's checks on, in its own
  process: what the type check adds to the run (with it against without it),
  as a share of the bare checker's time. The checker runs beside forge's other
  checks (``concurrent``), so the share is under 1.00 (1.00: one after the other).
- ``python warm``: the MCP server's engine in this process, its warm checker
  started (``Engine.start_serving``), the base cached: one module of rich edited,
  then validated with its importers against the base, each time. Target: <= 300 ms.
  The bare cold checker over the same files is printed beside it.
- ``typescript warm``: the same through the project's TypeScript builder (forge-types' warm
  TypeScript checker), for each of got's modules edited in turn (what an edit costs
  depends on its importers): the median and 90th percentile over every edit, how
  many modules stay within 300 ms, against the bare cold ``tsc`` of the same sitting.

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


def scope_of(root: Path, listed: list[Path], language: str = "python") -> list[Path]:
    """The files forge-types checks for ``listed``: them and their importers."""
    from forge_types.scope import find_importers

    from forge.config import load_config
    from forge.languages import LanguageRegistry
    from forge.plugin_host.host import build_plugin_host
    from forge.workspace import Workspace

    languages = LanguageRegistry.from_plugins(build_plugin_host(frozenset()))
    workspace = Workspace(root, config=load_config(root), languages=languages)
    return find_importers(listed, language, root, workspace, 50).files


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


def python_every_check(rich: Path, runs: int) -> None:
    """What the type check adds to forge validate with every check on, against the bare checker.

    The type check runs beside forge's other checks (its ``concurrent`` descriptor),
    so it adds less than the checker's own time. Every plugin but the verify
    commands' (there are none) against every plugin but types and commands.
    """
    files = sorted(str(p.relative_to(rich)) for p in (rich / "rich").glob("*.py"))
    checked = [str(p.relative_to(rich)) for p in scope_of(rich, [rich / f for f in files])]
    bare = [str(BIN / "pyrefly"), "check", "--output-format", "json", "--summary", "none",
            "--preset", "default", *checked]  # fmt: skip
    forge = [str(BIN / "forge"), "validate", "--json", "--files", *files]
    every = {**os.environ, "FORGE_DISABLE_PLUGINS": "command", "FORGE_CWD": str(rich),
             "FORGE_DAEMON": "0"}  # fmt: skip
    others = {**every, "FORGE_DISABLE_PLUGINS": "command,types"}
    timed(forge, rich, every), timed(forge, rich, others), timed(bare, rich)  # caches
    times: dict[str, list[float]] = {"bare": [], "every": [], "others": []}
    for _ in range(runs):
        times["bare"].append(timed(bare, rich))
        times["others"].append(timed(forge, rich, others))
        times["every"].append(timed(forge, rich, every))
    bare_s, every_s, others_s = (statistics.median(times[k]) for k in ("bare", "every", "others"))
    added = every_s - others_s
    print(
        f"python all       rich, {len(files)} files, every check, own process: without types "
        f"{others_s * 1000:.0f} ms, with {every_s * 1000:.0f} ms: types add {added * 1000:.0f} "
        f"ms, {added / bare_s:.2f} of the bare pyrefly's {bare_s * 1000:.0f} ms (1.00: one "
        "after the other; less: beside the other checks)"
    )


def install_got(got: Path) -> bool:
    """got's dependencies and its own TypeScript, a checkJs tsconfig; False without network."""
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
    return done.returncode == 0


#: tsc over got's whole project, as its tsconfig says (what forge-types runs cold).
BARE_TSC = ["node_modules/.bin/tsc", "--noEmit", "--pretty", "false", "-p", "tsconfig.json"]


def typescript_cold(got: Path, runs: int) -> None:
    """forge validate of got's modules against its own tsc."""
    files = sorted(str(p.relative_to(got)) for p in (got / "dist" / "source").rglob("*.js"))
    bare = [str(got / BARE_TSC[0]), *BARE_TSC[1:]]
    env = {**os.environ, "FORGE_DISABLE_PLUGINS": OTHERS_OFF, "FORGE_CWD": str(got)}
    forge = [str(BIN / "forge"), "validate", "--json", "--files", *files]
    report(
        f"typescript cold  got, {len(files)} files",
        "tsc",
        *interleaved(runs, bare, forge, got, env),
    )


def warm(
    root: Path, edited: list[str], language: str, runs: int
) -> tuple[dict[str, list[float]], dict[str, list[Path]], set[str]]:
    """Seconds each edit of each ``edited`` file took to validate with its importers, warm.

    The MCP server's engine in this process, its warm checkers started
    (``Engine.start_serving``); the base exported, checked and cached once first.
    Also each file's scope (it and its importers) and the checkers that answered.
    """
    os.environ["FORGE_DISABLE_PLUGINS"] = OTHERS_OFF
    from forge_types.checkers import Invocation, socket_path
    from forge_types.selection import typescript_checker

    from forge.models import ValidateRequest
    from forge.validate.run import Engine

    git(root, "init", "-q")
    (root / ".git" / "info" / "exclude").write_text("node_modules/\n.forge/\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    engine = Engine.for_project(root)
    engine.start_serving()
    if language == "typescript":  # the builder checks the project before its socket listens
        tsc = typescript_checker(root, root)
        invocation = Invocation(root=root, project_file=root / "tsconfig.json")
        key = tsc.warm_key(invocation)  # type: ignore[union-attr]
        deadline = time.monotonic() + 120
        while key and not socket_path(key).exists() and time.monotonic() < deadline:
            time.sleep(0.1)
    seconds: dict[str, list[float]] = {}
    scopes: dict[str, list[Path]] = {}
    checkers: set[str] = set()
    try:
        for name in edited:
            target = root / name
            original = target.read_text(encoding="utf-8")
            request = ValidateRequest(module_id="bench", files=[name], base_ref="HEAD")
            engine.validate(request)  # the base: exported, checked and cached once
            scopes[name] = scope_of(root, [target], language)
            try:
                for run in range(runs):
                    added = (
                        f"\n\ndef _edited_{run}() -> int:\n    return {run}\n"
                        if language == "python"
                        else f"\nexport const edited{run} = {run};\n"
                    )
                    target.write_text(original + added, encoding="utf-8")
                    started = time.perf_counter()
                    report = engine.validate(request)
                    seconds.setdefault(name, []).append(time.perf_counter() - started)
                    checked = [r for r in report.results if r.type == "type_check"]
                    checkers.update(str(getattr(r, "checker", None)) for r in checked)
            finally:
                target.write_text(original, encoding="utf-8")
    finally:
        engine.stop_serving()
    return seconds, scopes, checkers


def python_warm(rich: Path, runs: int) -> None:
    """An edit of rich/segment.py validated with its importers, warm, against the base."""
    seconds, scopes, _ = warm(rich, ["rich/segment.py"], "python", runs)
    (scope,) = scopes.values()
    bare_argv = [str(BIN / "pyrefly"), "check", "--output-format", "json", "--preset", "default"]
    bare = timed([*bare_argv, *map(str, scope)], rich)
    print(
        f"python warm      rich/segment.py and its importers ({len(scope)} files), base cached: "
        f"median {statistics.median(seconds['rich/segment.py']) * 1000:.0f} ms "
        f"(target <= 300 ms); bare cold pyrefly over as many files {bare * 1000:.0f} ms"
    )


def typescript_warm(got: Path, runs: int) -> None:
    """Each got module edited in turn, validated with its importers, warm (the builder), base cached.

    Every module, not a chosen one: what an edit costs depends on what its
    importers are (got's core/index.js is 1,339 lines of checkJs'd JavaScript).
    """
    bare = statistics.median(timed([str(got / BARE_TSC[0]), *BARE_TSC[1:]], got) for _ in range(3))
    modules = sorted(str(p.relative_to(got)) for p in (got / "dist" / "source").rglob("*.js"))
    seconds, scopes, checkers = warm(got, modules, "typescript", min(runs, 3))
    each = sorted(statistics.median(times) for times in seconds.values())
    every = sorted(s for times in seconds.values() for s in times)
    median = statistics.median(every)
    slowest = max(seconds, key=lambda name: statistics.median(seconds[name]))
    files = statistics.median(len(scope) for scope in scopes.values())
    print(
        f"typescript warm  got, each of its {len(modules)} modules edited in turn and validated "
        f"with its importers (median {files:.0f} files), base cached, {', '.join(sorted(checkers))}: "
        f"median {median * 1000:.0f} ms (target <= 300 ms), 90th percentile "
        f"{every[int(len(every) * 0.9)] * 1000:.0f} ms; {sum(s <= 0.3 for s in each)} of "
        f"{len(each)} modules within 300 ms, slowest {slowest} "
        f"({statistics.median(seconds[slowest]) * 1000:.0f} ms, {len(scopes[slowest])} files); "
        f"bare cold tsc {bare * 1000:.0f} ms (ratio {median / bare:.2f})"
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
        has_got = bool(shutil.which("npm")) and install_got(got)
        if not has_got:
            print("typescript       skipped: npm install of got failed (no network?)")
        try:
            if only in (None, "python"):
                python_cold(rich, runs)
                python_every_check(rich, runs)
            if only in (None, "typescript") and has_got:
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
            if has_got:
                typescript_warm(got, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
