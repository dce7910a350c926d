"""``contract_check`` with a base: every importer of a file changed or deleted since the base
(real git, a worker's worktree, the real CLI)."""

from __future__ import annotations

import json
from pathlib import Path

from forge_testing import RunForge, commit, git, plan_module, worker_commit, write_plan

GITIGNORE = "/.forge/*\n!/.forge/plans/\n"


def planned(project: Path, module: str, files: list[str], base: dict[str, str]) -> Path:
    """``project`` on main with ``base`` and a plan (committed) of one module in lane ``files``."""
    git(project, "init", "-q")
    lane = sorted({f"{name.split('/')[0]}/**" for name in files})
    write_plan(project, [plan_module(module, files, mayChange=lane)])
    commit(project, {".gitignore": GITIGNORE, **base}, "base")
    return project


def contract_results(
    run_forge: RunForge, module: str, worktree: Path
) -> tuple[int, dict[str, dict]]:
    done = run_forge(
        "validate", "--plan", ".forge/plans/plan.json", "--module", module,
        "--cwd", str(worktree), "--base", "main", "--json",
    )  # fmt: skip
    report = json.loads(done.stdout)
    results = {r["target"]: r for r in report["results"] if r["type"] == "contract_check"}
    return done.returncode, results


SHOP_JS = {
    "package.json": '{"name": "shop", "type": "module"}\n',
    "src/util.js": "export function formatPrice(cents) {\n  return `$${cents / 100}`;\n}\n",
    "src/cart.js": "import { formatPrice } from './util.js';\n\nexport const total = formatPrice(250);\n",
}
RENAMED = "export function formatMoney(cents) {\n  return `$${cents / 100}`;\n}\n"


def test_a_renamed_export_fails_its_unchanged_importer_outside_the_module(
    project: Path, run_forge: RunForge
) -> None:
    planned(project, "util", ["src/util.js"], SHOP_JS)
    worker_commit(project, "util", {"src/util.js": RENAMED})
    # The worktree as a user types it, relative: paths are still shown from it.
    code, results = contract_results(run_forge, "util", Path("../wt-util"))
    assert code == 1
    pair = results["src/util.js -> src/cart.js"]
    assert pair["passed"] is False and pair["missing"] == ["formatPrice"]
    assert "did you mean formatMoney?" in pair["message"]
    assert results["(importers)"]["message"].startswith(
        "1 importer of the 1 source file changed or deleted since main checked"
    )


def test_the_rename_with_its_importer_updated_passes(project: Path, run_forge: RunForge) -> None:
    planned(project, "util", ["src/util.js"], SHOP_JS)
    updated = SHOP_JS["src/cart.js"].replace("formatPrice", "formatMoney")
    wt = worker_commit(project, "util", {"src/util.js": RENAMED, "src/cart.js": updated})
    code, results = contract_results(run_forge, "util", wt)
    assert code == 0, results
    assert results["src/util.js -> src/cart.js"]["passed"] is True
    assert results["(importers)"]["message"].startswith(
        "1 importer of the 2 source files changed or deleted since main checked"
    )


SHOP_PY = {
    "shop/__init__.py": "from shop.pricing import price\n",
    "shop/pricing.py": "def price(cents):\n    return cents / 100\n",
    "shop/cli.py": "from shop import price\n\nprint(price(250))\n",
}


def test_a_deleted_init_that_an_unchanged_file_imports_fails_naming_it(
    project: Path, run_forge: RunForge
) -> None:
    planned(project, "pricing", ["shop/pricing.py"], SHOP_PY)
    wt = project.parent / "wt-pricing"
    git(project, "worktree", "add", "-q", "-b", "forge/pricing", str(wt), "main")
    git(wt, "rm", "-q", "shop/__init__.py")
    commit(wt, {"shop/pricing.py": "def price(cents):\n    return round(cents / 100, 2)\n"}, "w")
    code, results = contract_results(run_forge, "pricing", wt)
    assert code == 1
    broken = results["shop -> shop/cli.py"]
    assert broken["passed"] is False
    assert broken["message"] == (
        "shop/cli.py imports 'shop', which was shop/__init__.py: deleted since main, it "
        "resolves to nothing now; restore it or change the import"
    )
    assert broken["locations"][0]["line"] == 1


def test_the_init_kept_passes(project: Path, run_forge: RunForge) -> None:
    planned(project, "pricing", ["shop/pricing.py"], SHOP_PY)
    wt = worker_commit(
        project,
        "pricing",
        {"shop/pricing.py": "def price(cents):\n    return round(cents / 100, 2)\n"},
    )
    code, results = contract_results(run_forge, "pricing", wt)
    assert code == 0, results
    assert results["shop/pricing.py -> shop/__init__.py"]["passed"] is True
    assert results["(importers)"]["message"].startswith("1 importer of the 1 source file")


STAR_SHOP = {
    "package.json": '{"name": "shop", "type": "module"}\n',
    "src/money.js": "export function fmt(cents) {\n  return `$${cents / 100}`;\n}\n",
    "src/dates.js": "export function day(d) {\n  return d.toISOString().slice(0, 10);\n}\n",
    "src/index.js": "export * from './money.js';\nexport * from './dates.js';\n",
    "src/app.js": "import { fmt } from './index.js';\n\nconsole.log(fmt(250));\n",
}


def test_an_import_of_a_name_two_star_exports_give_fails(
    project: Path, run_forge: RunForge
) -> None:
    """The worker adds dates.fmt: node refuses app.js's import (conflicting star exports)."""
    import shutil
    import subprocess

    import pytest

    planned(project, "dates", ["src/dates.js"], STAR_SHOP)
    dates = STAR_SHOP["src/dates.js"] + "\nexport function fmt(d) {\n  return day(d);\n}\n"
    wt = worker_commit(project, "dates", {"src/dates.js": dates})
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    run = subprocess.run([node, "src/app.js"], cwd=wt, capture_output=True, text=True, check=False)
    assert "conflicting star exports for name 'fmt'" in run.stderr
    code, results = contract_results(run_forge, "dates", wt)
    assert code == 1
    pair = results["src/index.js -> src/app.js"]
    assert pair["passed"] is False
    assert pair["message"] == (
        "fmt is exported by both src/money.js and src/dates.js through export *: node refuses "
        "to import it from src/index.js (conflicting star exports); export it by name there"
    )


def test_one_binding_reached_by_two_stars_and_a_name_exported_by_name_pass(
    project: Path, run_forge: RunForge
) -> None:
    planned(project, "dates", ["src/dates.js"], STAR_SHOP)
    dates = STAR_SHOP["src/dates.js"] + "export { fmt } from './money.js';\n"
    index = STAR_SHOP["src/index.js"] + "export { fmt as fmtMoney } from './money.js';\n"
    wt = worker_commit(project, "dates", {"src/dates.js": dates, "src/index.js": index})
    code, results = contract_results(run_forge, "dates", wt)
    assert code == 0, results
    assert results["src/index.js -> src/app.js"]["passed"] is True


def test_an_importer_already_broken_at_the_base_is_shown_not_counted(
    project: Path, run_forge: RunForge
) -> None:
    """cart.js imported a name util.js never had: the worker's change to util.js is not why."""
    base = {
        **SHOP_JS,
        "src/cart.js": SHOP_JS["src/cart.js"].replace("{ formatPrice }", "{ formatPrice, round }"),
    }
    planned(project, "util", ["src/util.js"], base)
    wt = worker_commit(project, "util", {"src/util.js": SHOP_JS["src/util.js"] + "// faster\n"})
    code, results = contract_results(run_forge, "util", wt)
    assert code == 0, results
    pair = results["src/util.js -> src/cart.js"]
    assert (pair["passed"], pair.get("preExisting"), pair["missing"]) == (False, True, ["round"])
    # The same change that also drops formatPrice is judged on what it broke.
    commit(wt, {"src/util.js": RENAMED}, "rename")
    code, results = contract_results(run_forge, "util", wt)
    pair = results["src/util.js -> src/cart.js"]
    assert (code, pair["passed"], pair.get("preExisting")) == (1, False, None)
