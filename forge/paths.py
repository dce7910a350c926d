"""How forge spells a file the user named: resolved against a working dir, compared, shown.

Standard library only: ``forge hook`` uses these before it knows whether an
edit needs forge's checks at all.
"""

from __future__ import annotations

from pathlib import Path


def absolute(cwd: Path, name: str) -> Path:
    """``name`` as a path, relative to ``cwd`` unless it is absolute (``~`` expanded)."""
    path = Path(name).expanduser()
    return path if path.is_absolute() else cwd / path


def path_key(path: Path) -> str:
    """One spelling per file (symlinks and ``..`` resolved), to compare paths."""
    return str(path.resolve())


def shown(path: Path, cwd: Path) -> str:
    """``path`` relative to ``cwd`` when it is inside it, else as it is."""
    try:
        return path.resolve().relative_to(cwd.resolve()).as_posix()
    except ValueError:
        return str(path)
