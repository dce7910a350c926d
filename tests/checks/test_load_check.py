"""``load_check``: files that parse but fail when loaded (real git, a worker's branch, the CLI).

Each case is run for real too (python, node), so a test cannot claim an error
the runtime does not raise, nor miss one it does.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from forge_testing import RunForge, commit, git, plan_module, worker_commit, write_plan

GITIGNORE = "/.forge/*\n!/.forge/plans/\n"


def judged(
    project: Path, run_forge: RunForge, files: dict[str, str], base: dict[str, str] | None = None
) -> tuple[int, list[dict], Path]:
    """``files`` as module m's work on its branch; its exit code, load_check results, worktree."""
    git(project, "init", "-q")
    write_plan(project, [plan_module("m", sorted(files), mayChange=["**"])])
    commit(project, {".gitignore": GITIGNORE, **(base or {"README.md": "shop\n"})}, "base")
    wt = worker_commit(project, "m", files)
    done = run_forge(
        "validate", "--plan", ".forge/plans/plan.json", "--module", "m",
        "--cwd", str(wt), "--base", "main", "--json",
    )  # fmt: skip
    report = json.loads(done.stdout)
    return done.returncode, [r for r in report["results"] if r["type"] == "load_check"], wt


def python_runs(folder: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=False
    )


CYCLE = {
    "orders.py": "from billing import charge\n\n\nclass Order:\n    def __init__(self, total):\n"
    "        self.total = total\n        charge(self)\n",
    "billing.py": "from orders import Order\n\n\ndef charge(order):\n"
    "    return isinstance(order, Order)\n",
}


def test_a_module_level_import_cycle_that_fails_on_import_fails(
    project: Path, run_forge: RunForge
) -> None:
    code, results, wt = judged(project, run_forge, CYCLE)
    for module in ("orders", "billing"):
        assert "partially initialized module" in python_runs(wt, f"import {module}").stderr
    assert code == 1
    (result,) = results  # one cycle, reported once
    assert result["target"] == "billing.py"
    assert result["message"].startswith(
        "import cycle billing.py -> orders.py -> billing.py fails whichever module is imported "
        "first: orders.py:1 takes charge from billing.py while billing.py is only partially "
        "initialized"
    )
    assert result["locations"][0] == {
        **result["locations"][0],
        "path": "orders.py",
        "line": 1,
        "column": 1,
    }


ORDERS_BY_MODULE = CYCLE["orders.py"].replace("from billing import charge", "import billing")
ORDERS_BY_MODULE = ORDERS_BY_MODULE.replace("        charge(self)", "        billing.charge(self)")


@pytest.mark.parametrize(
    "fixed",
    [
        # the import moved into the function that needs it
        {
            "billing.py": "def charge(order):\n    from orders import Order\n\n"
            "    return isinstance(order, Order)\n"
        },
        # each imports the other module, and uses its attributes later
        {
            "orders.py": ORDERS_BY_MODULE,
            "billing.py": "import orders\n\n\ndef charge(order):\n"
            "    return isinstance(order, orders.Order)\n",
        },
        # only the type checker follows it
        {
            "billing.py": "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
            "if TYPE_CHECKING:\n    from orders import Order\n\n\n"
            "def charge(order: Order) -> bool:\n    return order.total > 0\n"
        },
    ],
    ids=["function-level", "import-module", "type-checking"],
)
def test_a_cycle_that_loads_passes(
    project: Path, run_forge: RunForge, fixed: dict[str, str]
) -> None:
    code, results, wt = judged(project, run_forge, {**CYCLE, **fixed})
    for module in ("orders", "billing"):
        assert python_runs(wt, f"import {module}").returncode == 0
    assert (code, results) == (0, [])


def test_a_cycle_that_loads_when_entered_one_way_is_not_reported(
    project: Path, run_forge: RunForge
) -> None:
    """Python fails on ``import billing`` first, not on ``import orders``: which way the
    application enters forge cannot know."""
    billing = "import orders\n\n\ndef charge(order):\n    return isinstance(order, orders.Order)\n"
    code, results, wt = judged(project, run_forge, {**CYCLE, "billing.py": billing})
    assert python_runs(wt, "import orders").returncode == 0
    assert python_runs(wt, "import billing").returncode == 1
    assert (code, results) == (0, [])


TOTALS = (
    "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
    "if TYPE_CHECKING:\n    from orders import Order\n\n\n"
    "def refund(order: Order, t: int) -> Order:\n    return {use}\n"
)
ORDERS = {"orders.py": "class Order:\n    def __init__(self, total):\n        self.total = total\n"}


def test_a_name_imported_under_type_checking_used_at_run_time_fails(
    project: Path, run_forge: RunForge
) -> None:
    files = {**ORDERS, "totals.py": TOTALS.format(use="Order(-t)")}
    code, results, wt = judged(project, run_forge, files)
    call = "import totals, orders; totals.refund(orders.Order(1), 2)"
    assert "NameError: name 'Order' is not defined" in python_runs(wt, call).stderr
    assert code == 1
    (result,) = results
    assert result["target"] == "totals.py"
    assert result["message"].startswith(
        "Order is bound only under 'if TYPE_CHECKING:' (line 6) but used at run time on line 10"
    )
    assert [(p["line"], p["column"]) for p in result["locations"]] == [(10, 12)]


def test_the_same_name_in_annotations_and_strings_only_passes(
    project: Path, run_forge: RunForge
) -> None:
    use = 'cast("Order", type(order)(order.total - t))'
    source = TOTALS.format(use=use).replace(
        "if TYPE_CHECKING", "from typing import cast\n\nif TYPE_CHECKING"
    )
    code, results, wt = judged(project, run_forge, {**ORDERS, "totals.py": source})
    call = "import totals, orders; totals.refund(orders.Order(1), 2)"
    assert python_runs(wt, call).returncode == 0
    assert (code, results) == (0, [])


def node_runs(folder: Path, file: str) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return subprocess.run([node, file], cwd=folder, capture_output=True, text=True, check=False)


ESM_PACKAGE = '{"name": "shop", "type": "module"}\n'


def test_commonjs_in_a_package_of_type_module_fails(project: Path, run_forge: RunForge) -> None:
    files = {
        "package.json": ESM_PACKAGE,
        "src/config.js": "const config = { currency: 'EUR' };\n\nmodule.exports = config;\n",
    }
    code, results, wt = judged(project, run_forge, files)
    assert "module is not defined in ES module scope" in node_runs(wt, "src/config.js").stderr
    assert code == 1
    (result,) = [r for r in results if r["target"] == "src/config.js"]
    assert result["message"].startswith(
        'node loads it as an ES module (package.json says "type": "module") but it uses '
        "CommonJS's module (line 3): ReferenceError"
    )


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("src/config.js", "const config = { currency: 'EUR' };\n\nexport default config;\n"),
        ("src/config.cjs", "const config = { currency: 'EUR' };\n\nmodule.exports = config;\n"),
        (
            "src/config.js",
            "import { createRequire } from 'node:module';\n\nconst require = "
            "createRequire(import.meta.url);\nexport const os = require('node:os');\n",
        ),
    ],
    ids=["esm-syntax", "cjs-extension", "create-require"],
)
def test_what_node_loads_passes(project: Path, run_forge: RunForge, name: str, source: str) -> None:
    code, results, wt = judged(project, run_forge, {"package.json": ESM_PACKAGE, name: source})
    assert node_runs(wt, name).returncode == 0
    assert (code, results) == (0, [])


def test_es_module_syntax_in_a_cjs_file_fails(project: Path, run_forge: RunForge) -> None:
    files = {"package.json": ESM_PACKAGE, "src/tool.cjs": "export const answer = 42;\n"}
    code, results, wt = judged(project, run_forge, files)
    assert node_runs(wt, "src/tool.cjs").returncode != 0
    assert code == 1
    (result,) = [r for r in results if r["target"] == "src/tool.cjs"]
    assert result["message"].startswith(
        "node loads it as CommonJS (its extension is .cjs) but it has ES module syntax (line 1)"
    )


def test_an_empty_module_in_a_cycle_is_no_error(project: Path, run_forge: RunForge) -> None:
    code, results, _ = judged(project, run_forge, {"a.py": "", "b.py": "from a import *\n"})
    assert (code, results) == (0, [])
