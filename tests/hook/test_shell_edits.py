"""Edits made through the shell are judged as a Write is: ``forge hook`` on Claude Code's
``Bash`` (and Codex's ``shell``) finds the files a command changed from the working tree's
state before it (kept at ``PreToolUse``, or after the previous command).

Real Claude Code events, real ``bash`` commands between them, the installed ``forge hook``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from forge_testing import (
    bash_event,
    git,
    run_hook,
    shell,
    shop_repo,
    shop_worktree,
)

BROKEN = "cat > shop/cart.py <<'EOF'\ndef total(items:\n    return 0\nEOF"
GOOD = "cat > shop/cart.py <<'EOF'\ndef total(items):\n    return 0\nEOF"


@pytest.fixture
def shop(project: Path) -> Path:
    """The shop project in git, plans committed; FORGE_CWD is the project."""
    return shop_repo(project)


def blocked(decision: dict[str, Any] | None) -> str:
    assert decision is not None and decision.get("decision") == "block", decision
    reason: str = decision["reason"]
    return reason


def test_a_broken_file_written_by_a_heredoc_is_blocked_as_a_write_is(shop: Path) -> None:
    before, after = shell(shop, BROKEN)
    assert before is None
    reason = blocked(after)
    assert "shop/cart.py:1:" in reason
    assert "was never closed" in reason


def test_a_good_file_written_by_a_heredoc_is_allowed_silently(shop: Path) -> None:
    assert shell(shop, GOOD) == [None, None]


def test_sed_on_a_file_already_changed_is_judged_again(shop: Path) -> None:
    assert shell(shop, GOOD) == [None, None]
    _, after = shell(shop, "sed -i 's/items)/items/' shop/cart.py")
    assert "shop/cart.py:1:" in blocked(after)


def test_a_command_that_changes_nothing_is_not_blamed_for_what_was_there(shop: Path) -> None:
    (shop / "shop" / "cart.py").write_text("def total(items:\n", encoding="utf-8")
    assert shell(shop, "ls shop && git status --short") == [None, None]


def test_a_code_generator_in_another_language_is_judged_too(shop: Path) -> None:
    command = "python3 -c \"open('shop/gen.py', 'w').write('x = (\\n')\""
    _, after = shell(shop, command)
    assert "shop/gen.py:1:" in blocked(after)


def test_without_pre_tool_use_the_previous_commands_state_is_compared_with(shop: Path) -> None:
    """Only the PostToolUse hook installed: the first command sets the state, the next is judged."""
    first = bash_event(shop, "true")
    assert run_hook(first, cwd=shop)[0] is None
    subprocess.run(["bash", "-c", BROKEN], cwd=shop, check=True)
    decision, _ = run_hook(bash_event(shop, BROKEN), cwd=shop)
    assert "shop/cart.py:1:" in blocked(decision)


def test_codex_shell_tool_is_judged_too(shop: Path) -> None:
    command = ["bash", "-lc", BROKEN]
    event = {**bash_event(shop, BROKEN, hook="PreToolUse"), "tool_name": "shell"}
    event["tool_input"] = {"command": command}
    assert run_hook(event, cwd=shop)[0] is None
    subprocess.run(command, cwd=shop, check=True)
    event = {**event, "hook_event_name": "PostToolUse"}
    decision, _ = run_hook(event, cwd=shop)
    assert "shop/cart.py:1:" in blocked(decision)


def test_an_out_of_lane_edit_through_the_shell_is_blocked_in_a_worktree(
    shop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORGE_CWD")
    worktree = shop_worktree(shop, "cart")
    env = {"FORGE_MODULE_ID": "cart"}
    command = "sed -i 's/return item/return 2 * item/' shop/pricing.py"
    _, after = shell(worktree, command, env=env)
    reason = blocked(after)
    assert "shop/pricing.py: changed (not committed) outside module cart's lane" in reason
    assert "it belongs to module pricing" in reason
    # The snapshots are the project's cache, not the worktree's.
    assert list((shop / ".forge" / "cache" / "shell").glob("*.json"))
    assert not (worktree / ".forge" / "cache").exists()
    # Its own file, through the shell: allowed.
    git(worktree, "checkout", "--", "shop/pricing.py")
    assert shell(worktree, GOOD, env=env) == [None, None]


def test_a_shell_outside_git_is_allowed_silently(project: Path) -> None:
    """Not a repository: no snapshot to compare with, nothing judged, nothing kept."""
    (project / ".forge").mkdir()
    assert shell(project, "echo 'def f(:' > broken.py") == [None, None]
    assert not (project / ".forge" / "cache" / "shell").exists()


def test_forge_state_written_by_a_command_is_not_judged(shop: Path) -> None:
    command = "mkdir -p .forge/x && echo 'def f(:' > .forge/x/broken.py"
    assert shell(shop, command) == [None, None]


def test_a_corrupt_or_planted_snapshot_is_never_trusted_nor_followed(
    shop: Path, tmp_path: Path
) -> None:
    """A snapshot that is not JSON, or a link planted where one belongs: nothing is judged
    against it and nothing is written through it; the next command is judged again."""
    assert shell(shop, "true") == [None, None]
    (snapshot,) = (shop / ".forge" / "cache" / "shell").glob("*.json")
    snapshot.write_text("{not json", encoding="utf-8")
    subprocess.run(["bash", "-c", BROKEN], cwd=shop, check=True)
    decision, stderr = run_hook(bash_event(shop, BROKEN), cwd=shop)
    assert decision is None and stderr == ""
    outside = tmp_path / "outside.json"
    outside.write_text("{}", encoding="utf-8")
    snapshot.unlink()
    snapshot.symlink_to(outside)
    _, after = shell(shop, "sed -i 's/return 0/return 1/' shop/cart.py")
    assert "shop/cart.py:1:" in blocked(after)  # judged against the PreToolUse snapshot
    assert outside.read_text(encoding="utf-8") == "{}"
    assert not snapshot.is_symlink()  # replaced by a snapshot, never written through
