"""git, read and never written: base revisions, changes, merges in the object store.

:mod:`~forge.git.revisions` resolves a base revision (``auto``: the merge-base
of ``HEAD`` with the default branch) and reads what a file was at it, from git
objects (the baseline of every file check, and tests switched off by a change).
:mod:`~forge.git.changes` lists the files a working dir changed against a base,
committed or not; :mod:`~forge.git.tracked` says which files git ignores or has
not committed (what will not merge); :mod:`~forge.git.merge_tree` merges branches with ``git
merge-tree --write-tree`` and reads the merged tree back;
:mod:`~forge.git.worktrees` lists worktrees and branches;
:mod:`~forge.git.shell_edits` finds what a shell command changed (git's view of
the working tree before it, kept in ``.forge/cache/shell/``);
:mod:`~forge.git.fingerprint` digests a module's work, compared between its stops;
:mod:`~forge.git.export` unpacks a base tree into a private folder. All run git through
:mod:`~forge.git.runner`. Nothing here checks out, stashes, writes an index
or moves a ref: a merge writes objects only.
"""

from forge.git.revisions import AUTO, BLOB_CACHE, Base, GitError, materialize, resolve_base

__all__ = ["AUTO", "BLOB_CACHE", "Base", "GitError", "materialize", "resolve_base"]
