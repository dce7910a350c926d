"""Which Python type checker forge-types pins: pyrefly, ty, basedpyright and mypy measured alike.

On requests and rich (sdists, downloaded at run time, never committed), each
with a virtual environment holding what its imports need, every checker
checks the package's own modules with machine-readable output, pointed at that
environment's interpreter. Per checker and package:

- ``cold``: the first run (mypy's cache folder empty; the others keep none);
- ``again``: the same run once more (mypy reads its cache; the others redo everything);
- ``one file``: one module and nothing else asked (its imports are still read);
- the diagnostics count, and the output format read.

The figures, and why pyrefly, are in docs/types.md. Usage::

    python benchmarks/types_checkers.py            # 3 runs each, medians
    python benchmarks/types_checkers.py --runs 5
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import download

PACKAGES = {"requests==2.34.2": "src/requests", "rich==15.0.0": "rich"}
DEPENDENCIES = ["urllib3", "charset_normalizer", "idna", "certifi", "pygments", "markdown-it-py"]
CHECKERS = ["pyrefly==1.4.1", "ty==0.0.107", "basedpyright==1.40.2", "mypy==2.4.1"]
#: One module each package's others import: what an edit of it asks.
ONE_FILE = {"requests==2.34.2": "src/requests/utils.py", "rich==15.0.0": "rich/segment.py"}


def command(name: str, tools: Path, python: Path, cache: Path, targets: list[str]) -> list[str]:
    """The checker's command line: JSON (or the closest) output, the package's interpreter."""
    exe = str(tools / name)
    if name == "pyrefly":
        return [exe, "check", "--output-format", "json", "--preset", "default",
                "--python-interpreter-path", str(python), *targets]  # fmt: skip
    if name == "ty":
        return [exe, "check", "--output-format", "gitlab", "--python", str(python), *targets]
    if name == "basedpyright":
        return [exe, "--outputjson", "--pythonpath", str(python), *targets]
    return [
        exe,
        "-O",
        "json",
        "--cache-dir",
        str(cache),
        "--python-executable",
        str(python),
        *targets,
    ]


def count(name: str, out: str) -> int:
    """How many diagnostics the output holds."""
    if name == "pyrefly":
        return len(json.loads(out or '{"errors": []}')["errors"])
    if name == "ty":
        return len(json.loads(out or "[]"))
    if name == "basedpyright":
        return len(json.loads(out)["generalDiagnostics"])
    return sum(1 for line in out.splitlines() if line.startswith("{"))


def timed(argv: list[str], cwd: Path) -> tuple[float, str]:
    """Seconds ``argv`` took, and its stdout."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False, timeout=900)
    return time.perf_counter() - started, done.stdout


def top(folder: Path) -> Path:
    """The one folder an unpacked archive holds (``requests-2.34.2/``, npm's ``package/``)."""
    (inner,) = [path for path in folder.iterdir() if path.is_dir()]
    return inner


def main() -> int:
    """Download, install, measure, print a table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="forge-types-bench-") as scratch:
        root = Path(scratch)
        folders = download(root / "src", npm=(), pypi=tuple(PACKAGES))
        if folders is None:
            print("cannot download the packages (no network?)")
            return 1
        env, tools = root / "env", root / "tools"
        for venv, packages in ((env, DEPENDENCIES), (tools, CHECKERS)):
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run(
                [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *packages], check=True
            )
        python, bin_dir = env / "bin" / "python", tools / "bin"
        print(
            f"{'checker':14} {'package':18} {'cold s':>7} {'again s':>8} {'one file s':>10} {'diags':>6}"
        )
        for spec, folder in zip(PACKAGES, map(top, folders), strict=True):
            for name in ("pyrefly", "ty", "basedpyright", "mypy"):
                cold, again, one = [], [], []
                found = 0
                for _ in range(runs):
                    cache = root / "mypy-cache"
                    shutil.rmtree(cache, ignore_errors=True)
                    seconds, out = timed(
                        command(name, bin_dir, python, cache, [PACKAGES[spec]]), folder
                    )
                    cold.append(seconds)
                    found = count(name, out)
                    again.append(
                        timed(command(name, bin_dir, python, cache, [PACKAGES[spec]]), folder)[0]
                    )
                    one.append(
                        timed(command(name, bin_dir, python, cache, [ONE_FILE[spec]]), folder)[0]
                    )
                print(
                    f"{name:14} {spec:18} {statistics.median(cold):7.2f} {statistics.median(again):8.2f}"
                    f" {statistics.median(one):10.2f} {found:6d}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
