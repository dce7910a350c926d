"""The merge preview judges more than git: a module's branch that left its lane fails it,
naming the file and the module that owns it, and each module's latest recorded verdict
is reported (a layer whose modules failed their latest validation is not clean).

The shop project of the README's advice (plans committed), workers in ``../wt-<id>``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_testing import RunForge, commit, shop_repo, shop_worktree

PRICING_TWICE = {"shop/pricing.py": "def price(item):\n    return 2 * item\n"}
CART_LEN = {
    "shop/cart.py": "from shop.pricing import price\n\n\ndef total(items):\n    return len(items)\n"
}


@pytest.fixture
def shop(project: Path) -> Path:
    return shop_repo(project)


def test_a_branch_that_left_its_lane_fails_the_preview_naming_file_and_owner(
    shop: Path, run_forge: RunForge
) -> None:
    commit(shop_worktree(shop, "cart"), {**CART_LEN, **PRICING_TWICE}, "cart, and pricing")
    done = run_forge("merge", "check", "--no-checks")
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        "LANE     cart: shop/pricing.py changed (committed) outside module cart's lane; "
        "it belongs to module pricing" in done.stdout
    )
    assert "FAILED:" in done.stdout and "1 change(s) outside a lane" in done.stdout
    report = json.loads(run_forge("merge", "check", "--no-checks", "--json").stdout)
    [stray] = report["laneViolations"]
    assert (stray["moduleId"], stray["file"], stray["owners"]) == (
        "cart",
        "shop/pricing.py",
        ["pricing"],
    )
    assert not report["passed"]


def test_branches_inside_their_lanes_pass(shop: Path, run_forge: RunForge) -> None:
    commit(shop_worktree(shop, "cart"), CART_LEN, "cart")
    commit(shop_worktree(shop, "pricing"), PRICING_TWICE, "pricing")
    done = run_forge("merge", "check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASSED: 2 modules merge cleanly" in done.stdout
    assert "LANE" not in done.stdout


def test_a_conflict_caused_by_a_worker_outside_its_lane_says_so(
    shop: Path, run_forge: RunForge
) -> None:
    commit(shop_worktree(shop, "pricing"), PRICING_TWICE, "pricing")
    commit(
        shop_worktree(shop, "cart"),
        {"shop/pricing.py": "def price(item):\n    return item + 1\n"},
        "cart edits pricing",
    )
    done = run_forge("merge", "check", "--no-checks")
    assert done.returncode == 1, done.stdout
    conflict = next(line for line in done.stdout.splitlines() if line.startswith("CONFLICT shop/"))
    assert "dependsOn" not in conflict
    assert "cart changed it outside its lane (it belongs to module pricing)" in conflict
    assert "revert cart's change" in conflict


def test_each_modules_latest_verdict_is_reported_and_a_failed_one_is_not_clean(
    shop: Path, run_forge: RunForge
) -> None:
    cart = shop_worktree(shop, "cart")
    commit(cart, {"shop/cart.py": "raise SystemExit('not yet')\n"}, "cart, broken")
    pricing = shop_worktree(shop, "pricing")
    commit(pricing, PRICING_TWICE, "pricing")
    plan = ".forge/plans/shop.json"
    for module, folder in (("cart", cart), ("pricing", pricing)):
        run_forge(
            "validate",
            "--plan",
            plan,
            "--module",
            module,
            "--cwd",
            str(folder),
            "--run-id",
            "run-1",
            "--base",
            "main",
        )
    done = run_forge("merge", "check", "--run-id", "run-1", "--no-checks")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "MERGED   cart: forge/cart (worktree), 1 changed file; latest validation RETRY" in (
        done.stdout
    )
    assert "latest validation PROCEED" in done.stdout
    assert "FAILED:" in done.stdout and "1 module(s) whose latest validation failed" in done.stdout
    # The cart fixed and validated again: the same layer merges cleanly.
    commit(cart, CART_LEN, "cart, fixed")
    run_forge(
        "validate",
        "--plan",
        plan,
        "--module",
        "cart",
        "--cwd",
        str(cart),
        "--run-id",
        "run-1",
        "--base",
        "main",
    )
    done = run_forge("merge", "check", "--run-id", "run-1", "--no-checks")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(run_forge("merge", "check", "--run-id", "run-1", "--json").stdout)
    verdicts = {module["moduleId"]: module["verdict"] for module in report["modules"]}
    assert verdicts["cart"]["recommendation"] == "PROCEED"
    assert verdicts["cart"]["attempt"] == 2


def test_a_module_never_validated_is_said_so_without_failing(
    shop: Path, run_forge: RunForge
) -> None:
    commit(shop_worktree(shop, "cart"), CART_LEN, "cart")
    done = run_forge("merge", "check", "--no-checks")
    assert done.returncode == 0, done.stdout
    assert "note: not validated yet: cart" in done.stdout
