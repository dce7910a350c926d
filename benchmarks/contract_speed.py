"""How long one contract check of two 2,000-line files takes, warm, per language family.

Warm means what a long-running forge (the MCP server) sees on the second
validate call: the trees are in the parse cache, so the time is extraction,
resolution and comparison. Each validate call builds a fresh workspace, as the
engine does, so nothing but the parse cache carries over between runs.

    python benchmarks/contract_speed.py [--lines 2000] [--runs 50]

Target: under 50 ms per check.

``--tree DIR`` times ``contract_check`` alone over every source file of a
real tree instead (all automatic pairs, missing files, modules and
packages), as ``forge validate --files <every file>`` runs it: cold (the
first call parses every file) and warm (trees cached, environment and
manifests read again: each call is a new workspace). For example, on the
sources of a package fetched with ``npm pack zod``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from forge.checks.contract_check import forge_run_checks
from forge.config import ForgeConfig
from forge.languages import LanguageRegistry, ParseCache
from forge.models import ContractResult, ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.workspace import Workspace

TARGET_MS = 50.0


def python_pair(lines: int) -> tuple[str, str, str, str]:
    """A module of functions, classes and constants, and a module using half of them."""
    count = lines // 5
    exporter = "".join(
        f"def function_{i}(value: int) -> int:\n    total = value + {i}\n    return total\n\n\n"
        for i in range(count)
    )
    names = [f"function_{i}" for i in range(0, count, 2)]
    body = "".join(f"result_{i} = api.{name}({i})\n" for i, name in enumerate(names))
    imports = "".join(f"from lib.api import {name}\n" for name in names)
    importer = "import lib.api as api\n" + imports + body
    padding = "\n".join(f"# line {i}" for i in range(max(0, lines - importer.count("\n"))))
    return "lib/api.py", exporter, "app.py", importer + padding + "\n"


def typescript_pair(lines: int) -> tuple[str, str, str, str]:
    """An ES module of exported functions, types and constants, and one importing half of them."""
    count = lines // 5
    exporter = "".join(
        f"export interface Shape{i} {{ id: number }}\n"
        f"export function build{i}(value: number): Shape{i} {{\n  return {{ id: value + {i} }};\n}}\n"
        f"export const LIMIT_{i} = {i};\n"
        for i in range(count)
    )
    names = [f"build{i}" for i in range(0, count, 2)]
    imports = "import {\n" + "".join(f"  {name},\n" for name in names) + "} from './api.js';\n"
    imports += "import * as api from './api.js';\n"
    body = "".join(
        f"const value{i}: api.Shape{i} = api.{name}({i});\n" for i, name in enumerate(names)
    )
    importer = imports + body
    padding = "\n".join(f"// line {i}" for i in range(max(0, lines - importer.count("\n"))))
    return "src/api.ts", exporter, "src/app.ts", importer + padding + "\n"


def commonjs_pair(lines: int) -> tuple[str, str, str, str]:
    """A CommonJS module of ``exports.x =`` functions, and one requiring half of them."""
    count = lines // 4
    exporter = "".join(
        f"exports.handler{i} = function handler{i}(value) {{\n  const total = value + {i};\n  return total;\n}};\n"
        for i in range(count)
    )
    names = [f"handler{i}" for i in range(0, count, 2)]
    importer = (
        "const lib = require('./lib');\nconst { "
        + ", ".join(names[:50])
        + " } = require('./lib');\n"
    )
    importer += "".join(f"lib.{name}({i});\n" for i, name in enumerate(names))
    padding = "\n".join(f"// line {i}" for i in range(max(0, lines - importer.count("\n"))))
    return "lib.js", exporter, "app.js", importer + padding + "\n"


FAMILIES: dict[str, Callable[[int], tuple[str, str, str, str]]] = {
    "python": python_pair,
    "typescript": typescript_pair,
    "javascript (CommonJS)": commonjs_pair,
}


def measure(
    registry: LanguageRegistry, root: Path, exporter: str, importer: str, runs: int
) -> tuple[float, float, ContractResult]:
    """Cold time (first call, parses both files) and the median warm time, in ms."""
    cache = ParseCache()
    request = ValidateRequest(
        module_id="bench",
        contract_checks=[{"exporter": exporter, "importer": importer}],
        auto_contracts=False,
    )

    def once() -> tuple[float, ContractResult]:
        workspace = Workspace(root, config=ForgeConfig(), languages=registry, parse_cache=cache)
        started = time.perf_counter()
        (result,) = forge_run_checks(request=request, workspace=workspace)
        elapsed = (time.perf_counter() - started) * 1000
        assert isinstance(result, ContractResult)
        return elapsed, result

    cold, result = once()
    warm = [once()[0] for _ in range(runs)]
    return cold, statistics.median(warm), result


SOURCES = (".py", ".pyi", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx")


def measure_tree(registry: LanguageRegistry, root: Path, runs: int) -> int:
    """Print the cold and median warm time of contract_check over ``root``'s sources."""
    files = sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and path.name.endswith(SOURCES) and "node_modules" not in path.parts
    )
    request = ValidateRequest(module_id="bench", files=files)
    cache = ParseCache()

    def once() -> tuple[float, float, list[ContractResult]]:
        workspace = Workspace(root, config=ForgeConfig(), languages=registry, parse_cache=cache)
        started, cpu = time.perf_counter(), time.process_time()
        results = forge_run_checks(request=request, workspace=workspace)
        elapsed, used = time.perf_counter() - started, time.process_time() - cpu
        return elapsed, used, [r for r in results if isinstance(r, ContractResult)]

    cold, cold_cpu, results = once()
    warm = [once()[:2] for _ in range(runs)]
    failures = [r for r in results if not r.passed]
    # CPU time too: on a shared machine the wall clock measures the neighbours.
    print(
        f"contract_check over {len(files)} files of {root}: {len(results)} results, "
        f"{len(failures)} failing; cold {cold:.2f} s ({cold_cpu:.2f} s CPU, parsing included), "
        f"warm {statistics.median(w for w, _ in warm):.2f} s "
        f"({statistics.median(c for _, c in warm):.2f} s CPU, median of {runs})"
    )
    for result in failures[:20]:
        print(f"  {result.target}: {result.message}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per family; exit 1 when a family misses the target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=2000, help="lines per file (default 2000)")
    parser.add_argument("--runs", type=int, default=50, help="warm runs per family (default 50)")
    parser.add_argument("--tree", type=Path, help="time contract_check over this tree's sources")
    args = parser.parse_args(argv)
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    if args.tree is not None:
        return measure_tree(registry, args.tree.resolve(), min(args.runs, 5))
    slow = False
    print(f"contract check of two {args.lines}-line files, median of {args.runs} warm runs")
    with tempfile.TemporaryDirectory() as tmp:
        for family, make in FAMILIES.items():
            root = Path(tmp) / family.split()[0]
            exporter, exporter_text, importer, importer_text = make(args.lines)
            for name, text in ((exporter, exporter_text), (importer, importer_text)):
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_text(text, encoding="utf-8")
            cold, warm, result = measure(registry, root, exporter, importer, args.runs)
            assert result.passed, result.message
            verdict = "ok" if warm < TARGET_MS else "SLOW"
            slow |= warm >= TARGET_MS
            print(
                f"  {family:<22} warm {warm:6.2f} ms (target {TARGET_MS:.0f} ms: {verdict}), "
                f"cold {cold:6.1f} ms, {len(result.exported_names)} exported, "
                f"{len(result.imported_names)} imported"
            )
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
