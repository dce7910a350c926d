"""Base revisions resolved and files read at them, in real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from forge_testing import commit, git

from forge.git import BLOB_CACHE, GitError, resolve_base


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    return root


def test_auto_is_the_merge_base_with_main(repo: Path) -> None:
    first = commit(repo, {"a.py": "x = 1\n"}, "first")
    git(repo, "checkout", "-q", "-b", "work")
    commit(repo, {"a.py": "x = 2\n"}, "on work")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"b.py": "y = 1\n"}, "main moves on")
    git(repo, "checkout", "-q", "work")
    base = resolve_base(repo / ".", "auto")
    assert base is not None
    assert (base.commit, base.ref, base.root) == (first, "auto", repo.resolve())
    assert base.contents([repo / "a.py", repo / "b.py"]) == {
        repo / "a.py": b"x = 1\n",
        repo / "b.py": None,  # absent at the base: everything in it is new
    }


def test_auto_prefers_origin_head_then_master(repo: Path, tmp_path: Path) -> None:
    git(repo, "checkout", "-q", "-b", "master")
    base_commit = commit(repo, {"a.py": "x = 1\n"}, "first")
    git(repo, "checkout", "-q", "-b", "work")
    commit(repo, {"a.py": "x = 2\n"}, "second")
    base = resolve_base(repo, "auto")
    assert base is not None and base.commit == base_commit
    # A clone's origin/HEAD names the remote's default branch, whatever it is called.
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--branch", "work", str(repo), str(clone))
    git(repo, "symbolic-ref", "HEAD", "refs/heads/master")
    assert git(clone, "symbolic-ref", "refs/remotes/origin/HEAD") == "refs/remotes/origin/work"
    clone_base = resolve_base(clone, "auto")
    assert clone_base is not None and clone_base.commit == git(clone, "rev-parse", "HEAD")


def test_auto_without_a_default_branch_is_no_base(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "trunk")
    commit(repo, {"a.py": "x = 1\n"}, "first")
    assert resolve_base(repo, "auto") is None


def test_outside_git_there_is_no_base(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert resolve_base(plain, "auto") is None
    assert resolve_base(plain, "main") is None


def test_named_ref_that_does_not_exist_is_a_clear_error(repo: Path) -> None:
    commit(repo, {"a.py": "x = 1\n"}, "first")
    with pytest.raises(GitError, match=r"baseRef 'nope' is not a commit of the repository"):
        resolve_base(repo, "nope")
    with pytest.raises(GitError, match="starts with '-'"):
        resolve_base(repo, "--output=/tmp/x")
    with pytest.raises(GitError, match="empty"):
        resolve_base(repo, " ")


def test_named_ref_tag_and_commit_id(repo: Path) -> None:
    first = commit(repo, {"src/a.py": "x = 1\n"}, "first")
    git(repo, "tag", "v1")
    commit(repo, {"src/a.py": "x = 2\n"}, "second")
    for ref in ("v1", first[:10], "HEAD~1"):
        base = resolve_base(repo / "src", ref)
        assert base is not None and base.commit == first
        assert base.contents([repo / "src" / "a.py"]) == {repo / "src" / "a.py": b"x = 1\n"}


def test_contents_never_touch_the_worktree_and_are_cached_per_blob(repo: Path) -> None:
    commit(repo, {"a.py": "x = 1\n", "b.py": "x = 1\n"}, "first")
    (repo / "a.py").write_text("x = 'edited, not committed'\n", encoding="utf-8")
    (repo / "new.py").write_text("y = 1\n", encoding="utf-8")
    status = git(repo, "status", "--porcelain")
    base = resolve_base(repo, "HEAD")
    assert base is not None
    got = base.contents([repo / "a.py", repo / "b.py", repo / "new.py", repo.parent / "out.py"])
    assert got[repo / "a.py"] == got[repo / "b.py"] == b"x = 1\n"
    assert got[repo / "new.py"] is None and got[repo.parent / "out.py"] is None
    assert git(repo, "status", "--porcelain") == status
    blob = git(repo, "rev-parse", "HEAD:a.py")
    assert BLOB_CACHE.get(blob) == b"x = 1\n"


def test_odd_paths_links_and_large_files(repo: Path) -> None:
    big = "x = 1\n" * 50_000
    commit(repo, {"dir with space/é*.py": "a = 1\n", "big.py": big}, "first")
    (repo / "link.py").symlink_to("big.py")
    commit(repo, {}, "link")
    base = resolve_base(repo, "HEAD")
    assert base is not None
    odd, large, link = repo / "dir with space" / "é*.py", repo / "big.py", repo / "link.py"
    assert base.contents([odd, large, link]) == {odd: b"a = 1\n", large: big.encode(), link: None}
