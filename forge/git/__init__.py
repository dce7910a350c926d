"""git, read and never written: base revisions and file contents at a revision.

:mod:`~forge.git.revisions` resolves a base revision (``auto``: the merge-base
of ``HEAD`` with the default branch) and reads what a file was at it, from git
objects (the baseline of every file check, and tests switched off by a change).
Nothing here checks out, stashes or moves a ref.
"""

from forge.git.revisions import AUTO, BLOB_CACHE, Base, GitError, materialize, resolve_base

__all__ = ["AUTO", "BLOB_CACHE", "Base", "GitError", "materialize", "resolve_base"]
