"""Merges in the object store (git merge-tree --write-tree), and merged trees read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from forge_testing import commit, git, repository_state

from forge.git import GitError
from forge.git.merge_tree import (
    commit_tree,
    grep_tree,
    merge_tree,
    parse_merge_tree,
    tree_files,
    tree_of,
    write_tree_files,
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    commit(root, {"a.py": "def f():\n    return 1\n", "b.py": "b = 1\n"}, "base")
    return root


def branch(repo: Path, name: str, files: dict[str, str]) -> str:
    git(repo, "checkout", "-q", "-b", name, "main")
    head = commit(repo, files, name)
    git(repo, "checkout", "-q", "main")
    return head


def test_a_clean_merge_gives_the_merged_tree_and_touches_nothing(repo: Path) -> None:
    first = branch(repo, "one", {"c.py": "c = 1\n"})
    second = branch(repo, "two", {"d.py": "d = 1\n"})
    before = repository_state(repo)
    outcome = merge_tree(repo, first, second)
    assert outcome.clean and outcome.conflicted == ()
    assert set(tree_files(repo, outcome.tree)) == {"a.py", "b.py", "c.py", "d.py"}
    merged = commit_tree(repo, outcome.tree, [first, second], "preview")
    assert merged == commit_tree(repo, outcome.tree, [first, second], "preview")  # reproducible
    assert tree_of(repo, merged) == outcome.tree
    assert repository_state(repo) == before


def test_a_content_conflict_names_the_file_and_its_kind(repo: Path) -> None:
    first = branch(repo, "one", {"a.py": "def f():\n    return 2\n"})
    second = branch(repo, "two", {"a.py": "def f():\n    return 3\n"})
    outcome = merge_tree(repo, first, second)
    assert not outcome.clean
    assert outcome.conflicted == ("a.py",)
    assert outcome.kinds("a.py") == ["CONFLICT (contents)"]
    assert any("a.py" in message.text for message in outcome.messages if message.conflict)


def test_a_modify_delete_conflict(repo: Path) -> None:
    first = branch(repo, "one", {"b.py": "b = 2\n"})
    git(repo, "checkout", "-q", "-b", "two", "main")
    git(repo, "rm", "-q", "b.py")
    second = commit(repo, {}, "delete")
    git(repo, "checkout", "-q", "main")
    outcome = merge_tree(repo, first, second)
    assert not outcome.clean and outcome.conflicted == ("b.py",)
    assert outcome.kinds("b.py") == ["CONFLICT (modify/delete)"]


def test_parse_reads_paths_with_spaces_and_several_messages() -> None:
    out = (
        b"1af97da688ff264d9830b037f26bf057abdc5218\0a b.py\0\0"
        b"1\0a b.py\0Auto-merging\0Auto-merging a b.py\n\0"
        b"1\0a b.py\0CONFLICT (contents)\0CONFLICT (content): Merge conflict in a b.py\n\0"
    )
    outcome = parse_merge_tree(out)
    assert outcome.tree == "1af97da688ff264d9830b037f26bf057abdc5218"
    assert outcome.conflicted == ("a b.py",)
    assert [m.kind for m in outcome.messages] == ["Auto-merging", "CONFLICT (contents)"]
    assert outcome.messages[1].text == "CONFLICT (content): Merge conflict in a b.py"
    assert parse_merge_tree(b"1af97da688ff264d9830b037f26bf057abdc5218\n").clean


def test_merging_unknown_commits_is_an_error(repo: Path) -> None:
    with pytest.raises(GitError, match="merge-tree"):
        merge_tree(repo, "main", "no-such-branch")


def test_a_revision_like_an_option_is_a_revision_that_names_nothing(repo: Path) -> None:
    """git reads it after --end-of-options: never --output=<file>, never a help page."""
    before = repository_state(repo)
    for revision in ("--output=owned.txt", "-h", "--help"):
        with pytest.raises(GitError, match="is not a commit"):
            merge_tree(repo, "main", revision)
        with pytest.raises(GitError, match="no tree for"):
            tree_of(repo, revision)
    assert tree_of(repo, "main") == git(repo, "rev-parse", "main^{tree}")
    assert repository_state(repo) == before
    assert not (repo / "owned.txt").exists()


def test_a_tree_is_written_out_and_searched(repo: Path, tmp_path: Path) -> None:
    (repo / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (repo / "run.sh").chmod(0o755)
    head = commit(repo, {"pkg/mod.py": "from a import f\n"}, "more")
    tree = tree_of(repo, head)
    files = tree_files(repo, tree)
    assert set(files) == {"a.py", "b.py", "pkg/mod.py", "run.sh"}
    into = tmp_path / "out"
    into.mkdir()
    write_tree_files(repo, files, into)
    assert (into / "pkg" / "mod.py").read_text(encoding="utf-8") == "from a import f\n"
    assert (into / "run.sh").stat().st_mode & 0o111 and not (into / "b.py").stat().st_mode & 0o111
    assert grep_tree(repo, tree, ["import f"]) == ["pkg/mod.py"]
    assert grep_tree(repo, tree, ["nowhere to be found"]) == []
