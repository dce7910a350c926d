"""A checker that ran and did not check: what each one prints when it stopped short.

A checker's exit status alone does not say whether it checked the program.
tsc reports its global and option diagnostics (``TS2688 Cannot find type
definition file``, ``TS5023 Unknown compiler option``, ``TS18003 No inputs``)
and then checks no types at all; while one file of the project does not parse
it reports only that. pyrefly with a configuration it cannot read exits 1 with
no diagnostic, having checked nothing. Read as "no diagnostic", each of these
would be a pass of code nobody checked: :func:`stopped` tells them apart, and
the run raises :class:`NotChecked` (the result says "did not run: ...").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from forge_types.diagnostics import CheckerFailed, Raw

#: tsc's words before a global diagnostic's "why is this file here" explanation.
_EXPLAINED = " The file is in the program because:"
#: pyrefly's line for a configuration it could not read (its JSON then lists nothing).
_PYREFLY_ERROR = re.compile(r"^\s*ERROR (?P<what>.+)$", re.MULTILINE)
#: pyrefly's warning when it goes on without the interpreter it was given.
_PYREFLY_INTERPRETER = re.compile(r"Failed to query interpreter at (?P<path>\S+?),? falling back")


class NotChecked(CheckerFailed):
    """The checker ran, but stopped before checking the program: ``raw`` is what it printed."""

    def __init__(self, reason: str, raw: Sequence[Raw] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.raw = list(raw)


def stopped(kind: str, returncode: int, raw: Sequence[Raw], stderr: str, root: Path) -> str | None:
    """Why a run of checker ``kind`` did not check the program; None when it did.

    ``raw`` is what its output said, ``root`` the folder it ran in (a diagnostic about no
    file names it).
    """
    if kind == "tsc":
        return _tsc_stopped(raw, root)
    if returncode != 0 and not raw:
        # Non-zero means it found something, yet it names nothing: it stopped before.
        said = _PYREFLY_ERROR.search(stderr) if kind == "pyrefly" else None
        why = said["what"] if said else (" ".join(stderr.split())[-300:] or "no output")
        return f"exited {returncode} and reported no diagnostic: {why.strip()}"
    return None


def _tsc_stopped(raw: Sequence[Raw], root: Path) -> str | None:
    """tsc's diagnostics that mean it checked no types (see its ``emitFilesAndReportErrors``).

    A global or option diagnostic (no file, or the tsconfig) stops the semantic check;
    so do syntax errors (``TS1xxx``) when they are all it reports.
    """
    # The configuration's own errors first: nothing can be left out to get past them.
    for path, line, _, code, message in sorted(raw, key=lambda item: item[0] == root):
        if path == root or path.suffix.lower() == ".json":
            where = "" if path == root else f" ({_shown(path, root)}:{line})"
            return f"{code} {message.split(_EXPLAINED, 1)[0]}{where}"
    if raw and all(code.startswith("TS1") and len(code) == 6 for *_, code, _ in raw):
        path, line, _, code, message = raw[0]
        return (
            f"{_shown(path, root)}:{line}: {code} {message} (tsc checks no types while a file "
            "of the project does not parse)"
        )
    return None


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def fell_back(kind: str, stderr: str) -> str | None:
    """What a checker left out by itself and went on without (pyrefly's interpreter)."""
    if kind == "pyrefly":
        found = _PYREFLY_INTERPRETER.search(stderr)
        if found is not None:
            return f"checked without the interpreter {found['path']}: pyrefly cannot run it"
    return None
