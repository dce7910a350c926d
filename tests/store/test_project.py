"""Which project a folder is: a worker's git worktree belongs to the main checkout's project.

The setup the README advises: plans committed (``.forge/*`` ignored,
``!.forge/plans/`` kept), so every worktree holds ``.forge/plans/`` of its own;
still, the project is the main checkout, and the worktree the module's
working dir, for ``forge validate``, ``status``, ``logs``, the MCP server and
``forge ui`` alike.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import urllib.request
from pathlib import Path

import pytest
from forge_testing import commit, forge_executable, git, running_ui, shop_repo, shop_worktree

from forge.store.project import nearest_project, project_place_of


def forge_in(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed forge run in ``cwd`` as a user runs it: no FORGE_CWD."""
    env = {name: value for name, value in os.environ.items() if name != "FORGE_CWD"}
    return subprocess.run(
        [forge_executable(), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def shop(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The shop project, plans committed; FORGE_CWD unset as a user has it."""
    monkeypatch.delenv("FORGE_CWD")
    return shop_repo(project)


def straying_cart(shop: Path) -> Path:
    """Module cart's worktree, whose branch changed shop/pricing.py (module pricing's)."""
    worktree = shop_worktree(shop, "cart")
    commit(worktree, {"shop/pricing.py": "def price(item):\n    return 2 * item\n"}, "oops")
    return worktree


VALIDATE = ["validate", "--plan", ".forge/plans/shop.json", "--module", "cart", "--base", "main"]


def test_validate_inside_a_worktree_judges_the_lane_as_from_the_main_checkout(shop: Path) -> None:
    worktree = straying_cart(shop)
    inside = forge_in(worktree, *VALIDATE)
    outside = forge_in(shop, *VALIDATE, "--cwd", "../wt-cart")
    for done in (inside, outside):
        assert done.returncode == 1, done.stdout + done.stderr
        assert re.search(r"FAIL lane_check +shop/pricing\.py: changed", done.stdout)
        assert "it belongs to module pricing" in done.stdout
    # Both attempts are the project's: one history, in the main checkout's .forge/.
    history = json.loads((shop / ".forge/iterations/cart.json").read_text(encoding="utf-8"))
    assert len(history["attempts"]) == 2
    assert not (worktree / ".forge" / "iterations").exists()


def test_a_worktree_that_stays_in_its_lane_passes_inside_it(shop: Path) -> None:
    worktree = shop_worktree(shop, "cart")
    commit(worktree, {"shop/cart.py": "def total(items):\n    return len(items)\n"}, "cart")
    done = forge_in(worktree, *VALIDATE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"PASS lane_check +\(lane\): 1 changed file since", done.stdout)


def test_the_workers_edited_copy_of_the_plan_is_not_what_it_is_judged_by(shop: Path) -> None:
    worktree = straying_cart(shop)
    plan = json.loads((worktree / ".forge/plans/shop.json").read_text(encoding="utf-8"))
    plan["modules"][0]["files"].append("shop/pricing.py")  # the worker widens its own lane
    commit(worktree, {".forge/plans/shop.json": json.dumps(plan)}, "my lane")
    done = forge_in(worktree, *VALIDATE)
    assert done.returncode == 1, done.stdout
    assert re.search(r"FAIL lane_check +shop/pricing\.py: changed", done.stdout)


def test_status_and_logs_in_a_worktree_show_the_projects_state(shop: Path) -> None:
    worktree = straying_cart(shop)
    forge_in(worktree, *VALIDATE, "--run-id", "run-1")
    status = forge_in(worktree, "status")
    assert status.returncode == 0, status.stderr
    assert "cart" in status.stdout and "failed" in status.stdout
    logs = forge_in(worktree, "logs", "--run-id", "run-1")
    assert logs.returncode == 0, logs.stderr
    assert "cart" in logs.stdout
    assert not (worktree / ".forge" / "logs").exists()


def test_a_main_checkout_without_forge_state_leaves_the_worktree_its_own_project(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORGE_CWD")
    git(project, "init", "-q")
    commit(project, {"a.py": "A = 1\n"}, "base")
    worktree = shop_worktree(project, "a")
    (worktree / "b.py").write_text("def b(:\n", encoding="utf-8")
    done = forge_in(worktree, "validate", "--files", "b.py", "--module-id", "b")
    assert done.returncode == 1
    assert (worktree / ".forge" / "iterations" / "b.json").is_file()
    assert not (project / ".forge").exists()


def test_the_place_of_a_folder_in_a_worktree_and_in_its_subfolders(shop: Path) -> None:
    worktree = straying_cart(shop)
    (worktree / "shop" / "deep").mkdir()
    place = project_place_of(worktree.resolve())
    assert (place.root, place.working_dir) == (shop.resolve(), worktree.resolve())
    assert place.in_worktree
    assert place.project_file(worktree / ".forge/plans/shop.json") == (
        shop.resolve() / ".forge/plans/shop.json"
    )
    near = nearest_project(worktree / "shop" / "deep")
    assert near is not None and (near.root, near.working_dir) == place_pair(shop, worktree)
    own = project_place_of(shop.resolve())
    assert (own.root, own.working_dir, own.in_worktree) == (shop.resolve(), shop.resolve(), False)


def place_pair(root: Path, working_dir: Path) -> tuple[Path, Path]:
    return root.resolve(), working_dir.resolve()


@pytest.mark.anyio
async def test_the_mcp_server_started_in_a_worktree_judges_and_records_as_the_project(
    shop: Path,
) -> None:
    from mcp import Client
    from mcp_client import call, stdio_parameters

    worktree = straying_cart(shop)
    parameters = stdio_parameters(worktree, forge_executable(), "serve")
    async with Client(parameters) as client:
        report = await call(
            client, "validate", {"moduleId": "cart", "files": ["shop/cart.py"], "baseRef": "main"}
        )
    lane = [result for result in report["results"] if result["type"] == "lane_check"]
    assert [result["target"] for result in lane] == ["shop/pricing.py"]
    assert not report["passed"]
    assert (shop / ".forge/iterations/cart.json").is_file()
    assert not (worktree / ".forge/iterations").exists()


def test_forge_ui_started_in_a_worktree_shows_the_project(shop: Path) -> None:
    worktree = straying_cart(shop)
    forge_in(worktree, *VALIDATE, "--run-id", "run-1")
    with (
        running_ui(worktree) as address,
        urllib.request.urlopen(f"{address}api/runs", timeout=30) as answer,
    ):
        runs = json.loads(answer.read())
    assert runs["project"] == str(shop.resolve())
    assert "run-1" in json.dumps(runs)
