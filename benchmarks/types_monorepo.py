"""A two-file edit of a 300-file TypeScript package, judged against its base: forge-types
against a bare ``tsc -p`` of the package, in the same sitting.

zod 4 (its ``src/``, about 330 TypeScript files, downloaded at run time with
``npm pack``; its own TypeScript installed beside it) is committed as the base;
the edit appends an export to ``src/v4/core/util.ts`` (which most of the
package imports) and to ``src/v4/classic/schemas.ts``. Printed, each the median
of ``--runs``:

- ``bare``: ``tsc --noEmit -p tsconfig.json``, what a project's own CI runs.
- ``cold, base not cached``: ``forge validate --files <the two> --base main``
  with ``.forge/cache`` removed first: the work's tsc and the base's (exported
  from git) both run; they run at the same time. Target: <= 1.5x bare.
- ``cold, base cached``: the same, the base's diagnostics cached (a second
  validate of the module; the work's tsc incremental from the first one's
  build info, ``.forge/cache/types/tsc``, nothing changed since).
- ``cold, after an edit``: a statement added inside a function of ``util.ts``,
  then ``forge validate`` again: tsc incremental from the last validate's
  build info checks again only ``util.ts``.
- ``warm``: the MCP server's engine in this process, its warm checker started
  (the project's TypeScript holding the program incrementally,
  ``forge_types/tsbuilder.js``), the base cached: the same two files validated
  again after a further edit of ``util.ts``. Two kinds of edit, alternating:
  ``body`` (a statement added inside a function, its declarations unchanged:
  only ``util.ts`` is checked again) and ``export`` (an export appended: the
  shape of ``util.ts`` changed, so its importers among the checked files are
  checked again, as ``tsc --incremental`` would). Target: < 1 s.
- ``wrong arity``: a call with one argument too many added to ``schemas.ts``,
  validated warm: it must fail (TS2554); then removed: it must pass again.

Each warm validate must be answered by the warm checker, and the harmless ones
must pass: the script stops otherwise.

Usage::

    python benchmarks/types_monorepo.py            # 3 runs each
    python benchmarks/types_monorepo.py --runs 5
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
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import download

BIN = Path(sys.executable).parent
ZOD = "zod@4.6.7"
TYPESCRIPT = "typescript@5.9.3"
#: forge's own checks, off: the figure is the type check's.
OTHERS_OFF = "stubs,syntax_check,contract_check,switched_off,command"
TSCONFIG = {
    "compilerOptions": {"strict": True, "noEmit": True, "module": "nodenext",
                        "moduleResolution": "nodenext", "target": "es2022", "skipLibCheck": True,
                        "types": []},
    "include": ["src"],
    "exclude": ["**/tests/**", "**/*.test.ts", "**/benchmarks/**"],
}  # fmt: skip
EDITED = ("src/v4/core/util.ts", "src/v4/classic/schemas.ts")


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
    subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False, timeout=1800)
    return time.perf_counter() - started


def prepare(zod: Path) -> bool:
    """zod's own TypeScript installed, a tsconfig, committed, the two-file edit made."""
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", TYPESCRIPT],
        cwd=zod, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    if done.returncode != 0:
        return False
    (zod / "tsconfig.json").write_text(json.dumps(TSCONFIG), encoding="utf-8")
    git(zod, "init", "-q", "-b", "main")
    (zod / ".git" / "info" / "exclude").write_text("node_modules/\n.forge/\n", encoding="utf-8")
    git(zod, "add", "-A")
    git(zod, "commit", "-q", "-m", "base")
    for number, name in enumerate(EDITED):
        with (zod / name).open("a", encoding="utf-8") as source:
            source.write(f"\nexport const edited{number} = {number};\n")
    return True


#: An edit inside ``joinValues``'s body (its declared return type keeps its shape).
BODY = ('separator = "|"): string {\n', 'separator = "|"): string {{\n  void {run};\n')
#: A call with one argument too many, added to the listed ``schemas.ts``.
WRONG_ARITY = '\nvoid util.joinValues(["a"], "|", "extra");\n'


def cold(zod: Path, runs: int) -> tuple[float, float, float, float]:
    """Medians: bare tsc, forge with the base not cached, with it cached, after an edit."""
    bare = [str(zod / "node_modules" / ".bin" / "tsc"), "--noEmit", "-p", "tsconfig.json"]
    forge = [str(BIN / "forge"), "validate", "--files", *EDITED, "--base", "main"]
    env = {**os.environ, "FORGE_DISABLE_PLUGINS": OTHERS_OFF, "FORGE_DAEMON": "0"}
    times: dict[str, list[float]] = {"bare": [], "uncached": [], "cached": [], "edited": []}
    timed(bare, zod)  # OS caches
    old, new = BODY
    for run in range(runs):
        times["bare"].append(timed(bare, zod))
        shutil.rmtree(zod / ".forge" / "cache", ignore_errors=True)
        times["uncached"].append(timed(forge, zod, env))
        times["cached"].append(timed(forge, zod, env))
        _replace(zod / EDITED[0], old, new.format(run=f"'cold{run}'"))
        times["edited"].append(timed(forge, zod, env))
    return tuple(statistics.median(times[k]) for k in ("bare", "uncached", "cached", "edited"))  # type: ignore[return-value]


def warm(zod: Path, runs: int) -> tuple[float, float, float]:
    """Medians of the edit validated by the MCP server's engine, its warm checker started:
    a body edit, an export edit; and the seconds a wrong-arity call took to fail."""
    os.environ["FORGE_DISABLE_PLUGINS"] = OTHERS_OFF
    from forge_types.checkers import Invocation, socket_path
    from forge_types.selection import typescript_checker

    from forge.models import ValidateRequest
    from forge.validate.run import Engine

    engine = Engine.for_project(zod)
    engine.start_serving()
    try:
        tsc = typescript_checker(zod, zod)
        key = tsc.warm_key(Invocation(root=zod, project_file=zod / "tsconfig.json"))  # type: ignore[union-attr]
        deadline = time.monotonic() + 600
        while key and not socket_path(key).exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        request = ValidateRequest(module_id="bench", files=list(EDITED), base_ref="main")

        def judged(edit: Callable[[], None], passes: bool) -> float:
            edit()
            started = time.perf_counter()
            report = engine.validate(request)
            seconds = time.perf_counter() - started
            (types,) = [r for r in report.results if r.type == "type_check"]
            if not getattr(types, "warm", False) or types.passed is not passes:
                raise SystemExit(f"not a warm {'pass' if passes else 'failure'}: {types.message}")
            return seconds

        util = zod / EDITED[0]
        times: dict[str, list[float]] = {"body": [], "export": []}
        old, new = BODY
        for run in range(runs):
            times["body"].append(judged(partial(_replace, util, old, new.format(run=run)), True))
            line = f"export const again{run} = {run};\n"
            times["export"].append(judged(partial(_append, util, line), True))
        schemas = zod / EDITED[1]
        wrong = judged(partial(_append, schemas, WRONG_ARITY), False)
        judged(partial(_replace, schemas, WRONG_ARITY, ""), True)
        return statistics.median(times["body"]), statistics.median(times["export"]), wrong
    finally:
        engine.stop_serving()


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as file:
        file.write(text)


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise SystemExit(f"{path.name} has no {old!r}")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def main() -> int:
    """Download, measure, print the figures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="forge-types-monorepo-") as scratch:
        os.environ["FORGE_HOME"] = str(Path(scratch) / "home")
        folders = download(Path(scratch), npm=(ZOD,), pypi=())
        if folders is None or shutil.which("npm") is None:
            print("cannot download zod (no network?)")
            return 1
        (zod,) = [next(p for p in folder.iterdir() if p.is_dir()) for folder in folders]
        if not prepare(zod):
            print("cannot npm install typescript (no network?)")
            return 1
        files = len(list((zod / "src").rglob("*.ts")))
        bare, uncached, cached, edited = cold(zod, runs)
        print(f"zod, {files} TypeScript files, a two-file edit ({', '.join(EDITED)}), --base main")
        print(f"bare tsc -p                 {bare * 1000:8.0f} ms")
        print(
            f"cold, base not cached       {uncached * 1000:8.0f} ms  ({uncached / bare:.2f}x; target <= 1.5x)"
        )
        print(f"cold, base cached           {cached * 1000:8.0f} ms  ({cached / bare:.2f}x)")
        print(f"cold, after an edit         {edited * 1000:8.0f} ms  ({edited / bare:.2f}x)")
        body, export, wrong = warm(zod, runs)
        print(
            f"warm, body edit             {body * 1000:8.0f} ms  ({body / bare:.2f}x; target < 1 s)"
        )
        print(f"warm, export edit           {export * 1000:8.0f} ms  ({export / bare:.2f}x)")
        print(f"warm, wrong-arity call      {wrong * 1000:8.0f} ms  (failed, TS2554)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
