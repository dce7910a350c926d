"""The diagnostics at the base revision: the base tree exported from git, cached under .forge/.

The base tree is read from git's object store (``git archive`` of the base
commit, unpacked into a private temporary folder): nothing is checked out,
and the worktree, index, refs and stash are never touched. The checker runs
there with the same interpreter, configuration and ``node_modules`` (linked
in, read-only for the checker) as the working tree. What it finds is kept in
``.forge/cache/types/<key>.json`` per (base commit, checker and version,
configuration, environment), file by file, so the next call only checks the
files it has not seen yet.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from forge.git import Base, GitError
from forge.git.export import export_tree
from forge.store.json_files import peek_json, update_json
from forge_types.diagnostics import CheckerFailed, Diagnostic

#: What a cache file holds and how its messages are written: part of every cache key, so
#: a forge-types that writes them differently never reads another's.
CACHE_FORMAT = "3"
#: Cache entries (files) one cache file keeps at most; the oldest go first.
MAX_CACHED_FILES = 20_000

#: Run the checker in a folder standing for the working dir; return its diagnostics.
RunAt = Callable[[Path, list[Path]], list[Diagnostic]]


def cache_file(project_root: Path, key: str) -> Path:
    """``.forge/cache/types/<key>.json``."""
    return project_root / ".forge" / "cache" / "types" / f"{key}.json"


def base_diagnostics(
    base: Base, cwd: Path, files: list[Path], cache: Path, run_at: RunAt
) -> tuple[dict[str, list[Diagnostic]], list[str]]:
    """Each file's diagnostics at the base (by path relative to ``cwd``), and notices.

    A file absent at the base maps to ``[]``: everything in it is new.
    ``run_at(folder, files)`` runs the checker in the stand-in for ``cwd``.
    """
    relative = {path: _relative(path, cwd) for path in files}
    known, notices = _read(cache)
    missing = [path for path, rel in relative.items() if rel is not None and rel not in known]
    if missing:
        found = _check_at_base(base, cwd, missing, relative, run_at)
        known.update(found)
        try:
            update_json(cache, lambda current: _merged(current, found))
        except OSError as exc:  # a read-only project still gets its verdict
            notices.append(f"base diagnostics not cached: {exc}")
        except Exception as exc:
            notices.append(f"base diagnostics not cached: {exc}")
    return {rel: known.get(rel, []) for rel in relative.values() if rel is not None}, notices


def _check_at_base(
    base: Base, cwd: Path, missing: list[Path], relative: dict[Path, str | None], run_at: RunAt
) -> dict[str, list[Diagnostic]]:
    prefix = base.relative(cwd) or PurePosixPath(".")
    with tempfile.TemporaryDirectory(prefix="forge-types-base-") as folder:
        top = Path(folder).resolve()
        try:
            stand_in = export_tree(base, top, prefix)
        except GitError as exc:
            raise CheckerFailed(str(exc)) from None
        modules = cwd / "node_modules"
        if modules.is_dir() and not (stand_in / "node_modules").exists():
            (stand_in / "node_modules").symlink_to(modules, target_is_directory=True)
        present = [stand_in / rel for path in missing if (rel := relative[path]) is not None]
        present = [path for path in present if path.is_file() and not path.is_symlink()]
        found: dict[str, list[Diagnostic]] = {relative[p] or "": [] for p in missing}
        if present:
            for item in run_at(stand_in, present):
                found.setdefault(item.path, []).append(item)
        return {rel: items for rel, items in found.items() if rel}


def _relative(path: Path, cwd: Path) -> str | None:
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return None


def _read(cache: Path) -> tuple[dict[str, list[Diagnostic]], list[str]]:
    data, problem = peek_json(cache)
    notices = [problem] if problem else []
    return _decoded(data), notices


def _decoded(data: Any) -> dict[str, list[Diagnostic]]:
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    decoded: dict[str, list[Diagnostic]] = {}
    for rel, items in files.items():
        if isinstance(items, list):
            diagnostics = [Diagnostic.from_json(item) for item in items]
            decoded[str(rel)] = [item for item in diagnostics if item is not None]
    return decoded


def _merged(current: Any, found: dict[str, list[Diagnostic]]) -> dict[str, Any]:
    files = current.get("files") if isinstance(current, dict) else None
    merged: dict[str, Any] = dict(files) if isinstance(files, dict) else {}
    for rel, items in found.items():
        merged.pop(rel, None)
        merged[rel] = [item.to_json() for item in items]
    while len(merged) > MAX_CACHED_FILES:
        merged.pop(next(iter(merged)))
    return {"version": 1, "files": merged}
