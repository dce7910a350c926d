"""The files a worktree changed against a base: committed, uncommitted, untracked; nothing written."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from forge_testing import commit, git, repository_state

from forge.git import GitError
from forge.git.changes import committed_changes, working_changes


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    commit(root, {"a.py": "a = 1\n", "b.py": "b = 1\n", ".gitignore": "*.log\n"}, "base")
    return root


def test_a_worktree_counts_commits_staged_unstaged_and_untracked_files(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    worktree = repo.parent / "wt"
    git(repo, "worktree", "add", "-q", "-b", "work", str(worktree))
    commit(worktree, {"c.py": "c = 1\n"}, "committed")
    (worktree / "a.py").write_text("a = 2\n", encoding="utf-8")  # unstaged
    (worktree / "d.py").write_text("d = 1\n", encoding="utf-8")
    git(worktree, "add", "d.py")  # staged
    (worktree / "e.py").write_text("e = 1\n", encoding="utf-8")  # untracked
    (worktree / "run.log").write_text("ignored\n", encoding="utf-8")
    (worktree / "b.py").unlink()  # deleted
    before = repository_state(repo)
    changes = working_changes(worktree / ".", base)
    assert changes is not None
    assert changes.top == worktree.resolve()
    assert changes.committed == ("c.py",)
    assert changes.uncommitted == ("a.py", "b.py", "d.py", "e.py")
    assert changes.files == ("a.py", "b.py", "c.py", "d.py", "e.py")
    assert repository_state(repo) == before


def test_the_base_moving_on_is_not_the_workers_change(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-b", "work")
    commit(repo, {"c.py": "c = 1\n"}, "work")
    git(repo, "checkout", "-q", "main")
    later = commit(repo, {"z.py": "z = 1\n"}, "main moves on")
    git(repo, "checkout", "-q", "work")
    changes = working_changes(repo, later)
    assert changes is not None
    assert (changes.fork_point, changes.files) == (base, ("c.py",))


def test_touched_but_unchanged_files_are_not_changes_and_the_index_is_not_refreshed(
    repo: Path,
) -> None:
    base = git(repo, "rev-parse", "HEAD")
    time.sleep(1.1)  # a new mtime git must look at: plain git diff would rewrite the index
    for name in ("a.py", "b.py"):
        os.utime(repo / name)
    index = (repo / ".git" / "index").read_bytes()
    changes = working_changes(repo, base)
    assert changes is not None and changes.files == ()
    assert (repo / ".git" / "index").read_bytes() == index


def test_outside_git_there_are_no_changes_and_unrelated_history_is_an_error(
    repo: Path, tmp_path: Path
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert working_changes(plain, "HEAD") is None
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    stranger = commit(other, {"x.py": "x = 1\n"}, "unrelated")
    git(repo, "fetch", "-q", str(other), "main")
    with pytest.raises(GitError, match="shares no history"):
        working_changes(repo, stranger)


def test_committed_changes_lists_both_sides_of_a_rename(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "mv", "a.py", "renamed.py")
    head = commit(repo, {}, "rename")
    assert committed_changes(repo, base, head) == ("a.py", "renamed.py")


def test_a_same_size_edit_in_the_second_of_the_commit_is_seen(repo: Path) -> None:
    # Racy git: an edit in the same second as the index write leaves the stat data
    # as recorded, and git reads the file only while the index file looks no older
    # than it. The private copy must keep the index's time, or the edit is missed.
    base = git(repo, "rev-parse", "HEAD")
    index = repo / ".git" / "index"
    for attempt in range(10):
        commit(repo, {"a.py": f"a = {attempt}\n"}, f"edit {attempt}")
        (repo / "a.py").write_text("a = x\n", encoding="utf-8")
        if int((repo / "a.py").stat().st_ctime) == int(index.stat().st_mtime):
            break
    else:  # pragma: no cover - ten second boundaries in a row
        pytest.skip("could not write the file in the second of the index write")
    time.sleep(1.1)  # the index copy, made now, is in a later second than the edit
    changes = working_changes(repo, base)
    assert changes is not None and "a.py" in changes.uncommitted
