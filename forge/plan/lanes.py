"""Lanes: what a module may change, and which of its changes leave that lane.

A module's lane is its ``files`` plus its ``mayChange`` globs, minus its
``disallowed_changes`` globs (:mod:`forge.globs`), all relative to the
project root. Its changes are what its working dir changed since it forked
from the base, committed or not (:mod:`forge.git.changes`). Not counted:
forge's own ``.forge/`` folder, well-known lock files, the project's
``[tool.forge] generated`` globs and files git marks ``linguist-generated``
in ``.gitattributes`` (a lock file the package manager rewrote is not the
worker straying). A file ``disallowed_changes`` forbid counts whatever it is.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from forge.git.runner import git_text, run_git
from forge.globs import matches
from forge.plan.model import Plan, PlanModule, normalise_path

if TYPE_CHECKING:
    from forge.git.changes import Changes

#: Files package managers write, besides Node's (``node_packages.LOCKFILES``): never a
#: worker's own change.
OTHER_LOCK_FILES = (
    "deno.lock",
    "poetry.lock",
    "uv.lock",
    "pdm.lock",
    "Pipfile.lock",
    "Cargo.lock",
    "go.sum",
    "Gemfile.lock",
    "composer.lock",
    "mix.lock",
    "pubspec.lock",
    "Podfile.lock",
    "packages.lock.json",
    "gradle.lockfile",
    "flake.lock",
)
#: Never a module's change: forge's own state, wherever a worktree keeps it.
FORGE_STATE = (".forge/",)


@dataclass(frozen=True)
class LaneViolation:
    """One changed file a module may not change."""

    #: Relative to the project root: ``../other/x.py`` for a file outside the project.
    path: str
    #: The ``disallowed_changes`` glob that forbids it; None: it is only outside the lane.
    disallowed_by: str | None
    #: Other modules that list the file in their ``files``.
    owners: tuple[str, ...]
    #: Whether the change is committed (else staged, unstaged or untracked).
    committed: bool
    #: The project's folder in its repository (``sub/``) when the file is outside it.
    outside_project: str | None = None

    def message(self, module_id: str) -> str:
        """One line for the worker: what it changed, whose it is, what to do."""
        how = "committed" if self.committed else "not committed"
        if self.outside_project is not None:
            # No plan path reaches it (a plan describes its project), so no advice to
            # add it to mayChange: the lane cannot hold it.
            return (
                f"changed ({how}) outside the project ({self.outside_project} of its "
                f"repository), so outside module {module_id}'s lane: revert it"
            )
        if self.disallowed_by is not None:
            return (
                f"changed ({how}), but module {module_id}'s disallowed_changes forbid it "
                f"({self.disallowed_by}): revert it"
            )
        if self.owners:
            owners = ", ".join(self.owners)
            noun = "module" if len(self.owners) == 1 else "modules"
            return (
                f"changed ({how}) outside module {module_id}'s lane; it belongs to {noun} "
                f"{owners}: revert it, or leave the change to {owners}"
            )
        return (
            f"changed ({how}) outside module {module_id}'s lane (its files and mayChange): "
            "revert it, or add it to the module's files or mayChange"
        )


@cache
def lock_files() -> frozenset[str]:
    """Every lock file name: Node's package managers' and the others'."""
    # deferred: the JavaScript resolver's package is only needed by a lane with lock files
    from forge.contracts.ecmascript.node_packages import LOCKFILES

    return frozenset((*LOCKFILES, *OTHER_LOCK_FILES))


def project_prefix(root: Path) -> str:
    """Where the project root is inside its repository (``""`` at the top, else ``sub/``)."""
    return git_text(root, "rev-parse", "--show-prefix") or ""


def lane_violations(
    changes: Changes,
    module: PlanModule,
    plan: Plan,
    *,
    prefix: str,
    root: Path,
    generated: Sequence[str] = (),
) -> list[LaneViolation]:
    """The changes of ``module``'s working dir that its lane does not allow, in path order.

    :param prefix: the project root's place in the repository (:func:`project_prefix`).
    :param root: the project root, against which plan paths are normalised.
    :param generated: the project's ``[tool.forge] generated`` globs.
    """
    listed = {normalise_path(file, root) for file in module.files}
    committed = set(changes.committed)
    candidates = [
        (repo_path, repo_path[len(prefix) :] if repo_path.startswith(prefix) else None)
        for repo_path in changes.files
    ]
    outside = [
        (repo_path, path)
        for repo_path, path in candidates
        if path is None or not in_lane(path, module, listed)
    ]
    ignored = _generated(changes.top, outside, generated)
    found = []
    for repo_path, path in outside:
        forbidden = matches(path, module.disallowed_changes) if path is not None else None
        if forbidden is None and repo_path in ignored:
            continue
        found.append(
            LaneViolation(
                # Outside the project, as a path from its root (``../other/x.py``): the
                # repository's own spelling (``other/x.py``) reads as a file inside it.
                path=path if path is not None else from_project(repo_path, prefix),
                disallowed_by=forbidden,
                owners=tuple(_owners(plan, module.id, path, root)) if path is not None else (),
                committed=repo_path in committed,
                outside_project=prefix if path is None else None,
            )
        )
    return found


def from_project(repo_path: str, prefix: str) -> str:
    """``repo_path`` (from the repository's top) as a path from the project root at ``prefix``.

    ``from_project("other/x.py", "sub/")`` is ``../other/x.py``;
    ``from_project("a/c/x.py", "a/b/")`` is ``../c/x.py``. Computed on the two
    strings alone (``posixpath.relpath`` would ask for the working dir).
    """
    folder = [part for part in prefix.split("/") if part]
    parts = repo_path.split("/")
    shared = 0
    while shared < len(folder) and shared < len(parts) - 1 and folder[shared] == parts[shared]:
        shared += 1
    return "/".join([".."] * (len(folder) - shared) + parts[shared:])


def in_lane(path: str, module: PlanModule, listed: set[str]) -> bool:
    """Whether ``module`` may change ``path`` (project-relative), generated files aside.

    :param listed: the module's ``files``, normalised.
    """
    if matches(path, module.disallowed_changes):
        return False
    return path in listed or matches(path, module.may_change) is not None


def _owners(plan: Plan, module_id: str, path: str, root: Path) -> Iterable[str]:
    for other in plan.modules:
        if other.id != module_id and any(normalise_path(f, root) == path for f in other.files):
            yield other.id


def _generated(top: Path, paths: list[tuple[str, str | None]], globs: Sequence[str]) -> set[str]:
    """Which of ``paths`` ((repository path, project path)) are generated: never a change."""
    found = {
        repo_path
        for repo_path, path in paths
        if repo_path.startswith(FORGE_STATE)
        or "/.forge/" in repo_path
        or repo_path.rsplit("/", 1)[-1] in lock_files()
        or (path is not None and matches(path, globs))
    }
    rest = [repo_path for repo_path, _ in paths if repo_path not in found]
    if rest:
        found.update(_marked_generated(top, rest))
    return found


def _marked_generated(top: Path, paths: list[str]) -> set[str]:
    """Paths ``.gitattributes`` marks ``linguist-generated`` (GitHub hides their diffs too)."""
    request = "".join(f"{path}\0" for path in paths).encode("utf-8", "surrogateescape")
    try:
        out = run_git(top, ["check-attr", "-z", "--stdin", "linguist-generated"], request)
    except (OSError, subprocess.SubprocessError):
        return set()
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    return {
        fields[index]
        for index in range(0, len(fields) - 2, 3)
        if fields[index + 2] in {"set", "true"}
    }
