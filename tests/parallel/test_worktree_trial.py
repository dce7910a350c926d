"""The third new-user trial, end to end: two workers in their own git worktrees of a
project whose plans are committed, hooks in each, validate in each, stops, the merge preview.

As the README and docs/parallel.md say to work: ``.forge/*`` ignored and
``!.forge/plans/`` kept, ``git worktree add ../wt-<id> -b forge/<id>``, each worker
started in its worktree with ``FORGE_MODULE_ID`` and no ``FORGE_CWD``. The cart
worker strays into module pricing's file (first through the shell), ignores the
block, commits, and is caught at its stop, by ``forge validate`` in its worktree and
by the merge preview; once it reverts the stray change, the layer merges cleanly.
Every hook is the installed ``forge hook`` fed Claude Code's event JSON.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from forge_testing import (
    forge_executable,
    git,
    post_tool_use,
    run_hook,
    shell,
    shop_repo,
    stop,
)

PLAN = ".forge/plans/shop.json"
GOOD_CART = (
    "from shop.pricing import price\n\n\n"
    "def total(items):\n    return round(sum(price(item) for item in items), 2)\n"
)


def forge_in(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed forge, run in ``cwd`` as a person runs it there: no FORGE_CWD."""
    env = {name: value for name, value in os.environ.items() if name != "FORGE_CWD"}
    return subprocess.run(
        [forge_executable(), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def write(cwd: Path, name: str, text: str, env: dict[str, str]) -> dict[str, Any] | None:
    """The Write tool writing ``name`` in ``cwd``, then its PostToolUse hook: the decision."""
    path = cwd / name
    path.write_text(text, encoding="utf-8")
    event = post_tool_use(cwd, "Write", {"file_path": str(path), "content": text})
    return run_hook(event, cwd=cwd, env=env)[0]


def reason(decision: dict[str, Any] | None) -> str:
    assert decision is not None and decision.get("decision") == "block", decision
    text: str = decision["reason"]
    return text


def attempts(root: Path, module: str) -> list[dict[str, Any]]:
    path = root / ".forge" / "iterations" / f"{module}.json"
    history: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return list(history["attempts"])


def test_two_workers_in_worktrees_are_judged_by_their_lanes_from_edit_to_merge(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORGE_CWD")
    shop = shop_repo(project)
    trees = {}
    for module in ("cart", "pricing"):
        trees[module] = shop.parent / f"wt-{module}"
        git(shop, "worktree", "add", "-q", str(trees[module]), "-b", f"forge/{module}")
        assert (trees[module] / PLAN).is_file()  # the committed plan is in every worktree
    cart, pricing = trees["cart"], trees["pricing"]
    as_cart, as_pricing = {"FORGE_MODULE_ID": "cart"}, {"FORGE_MODULE_ID": "pricing"}

    # The cart worker: a broken Write is blocked at once, the fixed one allowed.
    broken = reason(write(cart, "shop/cart.py", "def total(items:\n    return 0\n", as_cart))
    assert "shop/cart.py:1:" in broken and "was never closed" in broken
    assert write(cart, "shop/cart.py", GOOD_CART, as_cart) is None
    # It strays into pricing's file through the shell: blocked, naming the owner.
    _, after = shell(cart, "sed -i 's/return item/return 2 * item/' shop/pricing.py", as_cart)
    stray = reason(after)
    assert "shop/pricing.py: changed (not committed) outside module cart's lane" in stray
    assert "it belongs to module pricing" in stray
    # It ignores the block and commits everything; its stop is blocked.
    git(cart, "commit", "-qam", "cart, and a faster price")
    stopped = reason(run_hook(stop(cart, event="Stop"), cwd=cart, env=as_cart)[0])
    assert "FAIL lane_check shop/pricing.py" in stopped and "module pricing" in stopped
    # forge validate in its worktree says the same, and the attempts are the project's.
    validated = forge_in(cart, "validate", "--plan", PLAN, "--module", "cart", "--base", "main")
    assert validated.returncode == 1, validated.stdout + validated.stderr
    assert re.search(r"FAIL lane_check +shop/pricing\.py: changed \(committed\)", validated.stdout)
    assert "ESCALATE" in validated.stdout  # the same failure as at its stop
    assert [attempt["passed"] for attempt in attempts(shop, "cart")] == [False, False]
    assert not (cart / ".forge" / "iterations").exists()

    # The pricing worker stays in its lane: allowed, passed, its stop let through.
    assert (
        write(pricing, "shop/pricing.py", "def price(item):\n    return item + 1\n", as_pricing)
        is None
    )
    git(pricing, "commit", "-qam", "pricing")
    validated = forge_in(
        pricing, "validate", "--plan", PLAN, "--module", "pricing", "--base", "main"
    )
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert re.search(r"PASS lane_check +\(lane\)", validated.stdout)
    assert run_hook(stop(pricing, event="Stop"), cwd=pricing, env=as_pricing)[0] is None

    # The orchestrator sees both workers' attempts from the main checkout.
    status = forge_in(shop, "status", "--json")
    assert status.returncode == 0, status.stderr
    modules = {module["id"]: module for module in json.loads(status.stdout)["modules"]}
    assert set(modules) >= {"cart", "pricing"}

    # The merge preview fails the layer: the stray file, its owner, cart's verdict.
    preview = forge_in(shop, "merge", "check", "--plan", PLAN, "--layer", "1", "--no-checks")
    assert preview.returncode == 1, preview.stdout + preview.stderr
    assert "LANE     cart: shop/pricing.py changed (committed) outside module cart's lane" in (
        preview.stdout
    )
    conflict = next(
        line for line in preview.stdout.splitlines() if line.startswith("CONFLICT shop/")
    )
    assert "cart changed it outside its lane (it belongs to module pricing)" in conflict
    assert "dependsOn" not in conflict
    assert "cart: forge/cart (worktree), 2 changed files; latest validation ESCALATE" in (
        preview.stdout
    )
    assert "latest validation PROCEED" in preview.stdout

    # The cart worker reverts the stray change: validate, stop and preview all pass.
    git(cart, "checkout", "main", "--", "shop/pricing.py")
    git(cart, "commit", "-qm", "leave pricing to pricing")
    validated = forge_in(cart, "validate", "--plan", PLAN, "--module", "cart", "--base", "main")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert run_hook(stop(cart, event="Stop"), cwd=cart, env=as_cart)[0] is None
    preview = forge_in(shop, "merge", "check", "--plan", PLAN, "--layer", "1")
    assert preview.returncode == 0, preview.stdout + preview.stderr
    assert "PASSED: 2 modules merge cleanly" in preview.stdout
