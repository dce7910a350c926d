"""``forge hook`` in a worker's git worktree, plans committed as the README advises.

The worktree holds ``.forge/plans/`` of its own (checked out with the
project), yet the project is the main checkout: an edit or a stop in the
worktree is judged by the project's plan, against the module's lane, and its
attempts land in the project's ``.forge/``. Real Claude Code events, the
installed ``forge hook``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_testing import (
    commit,
    git,
    post_tool_use,
    run_hook,
    shop_repo,
    shop_worktree,
    stop,
)

CART = {"FORGE_MODULE_ID": "cart"}


@pytest.fixture
def shop(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The shop project (plans committed), FORGE_CWD unset: a worker started as the docs say."""
    monkeypatch.delenv("FORGE_CWD")
    return shop_repo(project)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def attempts(root: Path, module: str = "cart", run_id: str | None = None) -> int:
    folder = root / ".forge" / "iterations"
    path = (folder / run_id if run_id else folder) / f"{module}.json"
    return len(json.loads(path.read_text(encoding="utf-8"))["attempts"]) if path.exists() else 0


def test_an_edit_of_another_modules_file_in_the_worktree_is_blocked(shop: Path) -> None:
    worktree = shop_worktree(shop, "cart")
    other = write(worktree / "shop/pricing.py", "def price(item):\n    return 2 * item\n")
    event = post_tool_use(worktree, "Write", {"file_path": str(other), "content": ""})
    decision, _ = run_hook(event, cwd=worktree, env=CART)
    assert decision is not None and decision.get("decision") == "block", decision
    assert (
        "shop/pricing.py: changed (not committed) outside module cart's lane"
        in (decision["reason"])
    )
    assert "it belongs to module pricing" in decision["reason"]


def test_an_edit_of_its_own_file_in_the_worktree_is_allowed(shop: Path) -> None:
    worktree = shop_worktree(shop, "cart")
    own = write(worktree / "shop/cart.py", "def total(items):\n    return len(items)\n")
    event = post_tool_use(worktree, "Write", {"file_path": str(own), "content": ""})
    decision, _ = run_hook(event, cwd=worktree, env=CART)
    assert decision is None


def test_the_module_is_found_from_the_sessions_worktrees_too(shop: Path) -> None:
    worktree = shop_worktree(shop, "cart")
    session = {"runId": "run-1", "worktrees": {"cart": "../wt-cart"}}
    write(shop / ".forge" / "state" / "run-1.json", json.dumps(session))
    other = write(worktree / "shop/pricing.py", "def price(item):\n    return 3\n")
    event = post_tool_use(worktree / "shop", "Edit", {"file_path": str(other)})
    decision, _ = run_hook(event, cwd=worktree / "shop")
    assert decision is not None and decision.get("decision") == "block", decision
    assert "it belongs to module pricing" in decision["reason"]


def test_a_stop_whose_branch_left_its_lane_is_blocked_naming_file_and_owner(shop: Path) -> None:
    worktree = shop_worktree(shop, "cart")
    commit(worktree, {"shop/pricing.py": "def price(item):\n    return 2 * item\n"}, "oops")
    decision, _ = run_hook(stop(worktree, event="Stop"), cwd=worktree, env=CART)
    assert decision is not None and decision.get("decision") == "block", decision
    assert "FAIL lane_check shop/pricing.py" in decision["reason"]
    assert "it belongs to module pricing" in decision["reason"]
    # The attempt is the project's: forge status and forge ui see it.
    assert attempts(shop) == 1
    assert attempts(worktree) == 0


def test_a_stop_inside_its_lane_is_allowed_and_recorded_as_passed(shop: Path) -> None:
    worktree = shop_worktree(shop, "cart")
    commit(worktree, {"shop/cart.py": "def total(items):\n    return len(items)\n"}, "cart")
    decision, _ = run_hook(stop(worktree, event="Stop"), cwd=worktree, env=CART)
    assert decision is None
    history = json.loads((shop / ".forge/iterations/cart.json").read_text(encoding="utf-8"))
    assert [attempt["passed"] for attempt in history["attempts"]] == [True]


def test_the_stop_judges_the_lane_against_the_configured_base(shop: Path) -> None:
    """No main or master branch: ``auto`` finds no base; ``[tool.forge] base-ref`` names it."""
    git(shop, "branch", "-m", "main", "trunk")
    commit(shop, {"pyproject.toml": '[tool.forge]\nbase-ref = "trunk"\n'}, "config")
    worktree = shop.parent / "wt-cart"
    git(shop, "worktree", "add", "-q", "-b", "forge/cart", str(worktree), "trunk")
    commit(worktree, {"shop/pricing.py": "def price(item):\n    return 2 * item\n"}, "oops")
    decision, _ = run_hook(stop(worktree, event="Stop"), cwd=worktree, env=CART)
    assert decision is not None and decision.get("decision") == "block", decision
    assert "FAIL lane_check shop/pricing.py" in decision["reason"]


def test_forge_cwd_naming_the_project_finds_the_worktree_as_the_working_dir(shop: Path) -> None:
    worktree = shop_worktree(shop, "cart")
    commit(worktree, {"shop/pricing.py": "def price(item):\n    return 2 * item\n"}, "oops")
    env = {**CART, "FORGE_CWD": str(shop)}
    decision, _ = run_hook(stop(worktree, event="Stop"), cwd=worktree, env=env)
    assert decision is not None and "FAIL lane_check shop/pricing.py" in decision["reason"]
    assert attempts(shop) == 1 and attempts(worktree) == 0
