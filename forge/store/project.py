"""Which project a folder belongs to: where its ``.forge/`` is, and where its files are.

The rule (DESIGN.md, "Where a worker runs"; docs/parallel.md explains it): a
folder is its own project, except in a git *linked worktree* (``git worktree
add``) whose main checkout holds ``.forge/`` at the same place: then the
project is the main checkout's folder, and the worktree's folder is the
module's working dir. A worktree that has ``.forge/plans/`` of its own (plans
committed to git are checked out in every worktree) is still not a project:
attempts, logs and plans are the main checkout's, so ``forge status`` and
``forge ui`` see a worker's attempts, and a worker's edited copy of the plan
is not what it is judged by.

Found from the files git keeps (the worktree's ``.git`` file, its ``commondir``),
never by running git, and with the standard library alone: ``forge hook`` asks
on every edit, before it decides whether to load anything of forge's.
:func:`forge.config.project_place` (the CLI, the MCP server, ``forge ui``) and
:mod:`forge.hook.target` both ask here.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

#: Longest ``.git`` file or ``commondir`` read (git writes one short line).
_MAX_LINK_BYTES = 4096


class ProjectPlace(NamedTuple):
    """A project as seen from one folder: its ``.forge/`` root, and the module's files."""

    #: The project: the folder whose ``.forge/`` forge uses, and plan paths are relative to.
    root: Path
    #: Where the files of the module at hand are: ``root`` itself, or in a linked
    #: worktree, the worktree's folder at ``root``'s place.
    working_dir: Path

    @property
    def in_worktree(self) -> bool:
        """Whether the module's files are in a linked worktree of the project's checkout."""
        return self.working_dir != self.root

    def project_file(self, path: Path) -> Path:
        """``path`` read from the project's checkout when it is a file of the worktree.

        A plan named as ``.forge/plans/shop.json`` inside a worker's worktree is
        the worker's copy: the project's own file of that name is what counts,
        when there is one.
        """
        if not self.in_worktree:
            return path
        try:
            relative = path.absolute().relative_to(self.working_dir)
        except ValueError:
            return path
        counterpart = self.root / relative
        return counterpart if counterpart.is_file() else path


def project_place_of(folder: Path) -> ProjectPlace:
    """``folder`` as a project: itself, or the main checkout's folder it is the worktree of.

    :param folder: an absolute, resolved folder (``FORGE_CWD``, the working dir).
    """
    main = _main_checkout_counterpart(folder)
    if main is not None and (main / ".forge").is_dir():
        return ProjectPlace(root=main, working_dir=folder)
    return ProjectPlace(root=folder, working_dir=folder)


def nearest_project(cwd: Path) -> ProjectPlace | None:
    """The project ``cwd`` is in, looking in ``cwd`` and its parents; None outside any.

    For an agent's hook, whose working dir may be any folder of the project:
    at each level, the main checkout's counterpart first (when ``cwd`` is in a
    linked worktree), then the folder's own ``.forge/``.
    """
    here = cwd.resolve()
    linked = _linked_worktree(here)
    for folder in (here, *here.parents):
        if linked is not None:
            top, main = linked
            if folder == top or top in folder.parents:
                counterpart = main / folder.relative_to(top)
                if (counterpart / ".forge").is_dir():
                    return ProjectPlace(root=counterpart, working_dir=folder)
        if (folder / ".forge").is_dir():
            return ProjectPlace(root=folder, working_dir=folder)
    return None


def _main_checkout_counterpart(folder: Path) -> Path | None:
    """Where ``folder`` of a linked worktree is in the main checkout; None elsewhere."""
    linked = _linked_worktree(folder)
    if linked is None:
        return None
    top, main = linked
    return main / folder.relative_to(top)


def _linked_worktree(folder: Path) -> tuple[Path, Path] | None:
    """(the linked worktree's top folder, its main checkout's) for a folder in one, else None.

    A linked worktree's top holds a ``.git`` *file* (``gitdir: <common>/worktrees/<name>``)
    whose folder names the repository's common dir in ``commondir``; the main
    checkout is the folder holding that common dir, when it is called ``.git``
    (a bare repository, or a submodule's, has no main checkout to use).
    """
    for top in (folder, *folder.parents):
        dot_git = top / ".git"
        if dot_git.is_dir():
            return None  # a main checkout (or a plain repository)
        if not dot_git.is_file():
            continue
        gitdir_text = _read_line(dot_git)
        if gitdir_text is None or not gitdir_text.startswith("gitdir:"):
            return None
        gitdir = Path(gitdir_text.removeprefix("gitdir:").strip())
        gitdir = gitdir if gitdir.is_absolute() else top / gitdir
        common_text = _read_line(gitdir / "commondir")
        if not common_text:
            return None  # a submodule's checkout: not a linked worktree
        common = Path(common_text)
        common = (common if common.is_absolute() else gitdir / common).resolve()
        if common.name != ".git" or common.parent.resolve() == top.resolve():
            return None
        return top, common.parent
    return None


def _read_line(path: Path) -> str | None:
    """The first line of a small file git wrote; None when it cannot be read."""
    try:
        with path.open("rb") as handle:
            data = handle.read(_MAX_LINK_BYTES)
    except OSError:
        return None
    lines = data.decode("utf-8", "replace").splitlines()
    return lines[0].strip() if lines else ""


def agent_project(cwd: Path, configured: str | None) -> ProjectPlace | None:
    """The project of an agent working in ``cwd`` (``forge hook``); None outside any.

    :param configured: ``FORGE_CWD``, when set: its project is the agent's, and
        ``cwd``'s worktree (if it is one of that project's) the working dir.
    """
    near = nearest_project(cwd)
    if not configured:
        return near
    root = project_place_of(Path(configured).expanduser().resolve()).root
    if near is not None and near.root == root:
        return near
    return ProjectPlace(root=root, working_dir=root)
