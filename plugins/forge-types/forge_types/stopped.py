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

import json
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


#: mypy's crash: ``shop/b.py:8: error: INTERNAL ERROR -- Please try using mypy master``.
_MYPY_CRASH = re.compile(r"^(?P<where>.+?:\d+): error: INTERNAL ERROR", re.MULTILINE)
#: mypy's own refusal, on stderr: ``mypy: error: ...``, ``mypy: can't read file ...``.
_MYPY_SAYS = re.compile(r"^mypy: (?:error: )?(?P<what>.+)$", re.MULTILINE)


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


def mypy_blocker(stdout: str, stderr: str, root: Path) -> str | None:
    """The error that stopped a mypy run (exit 2), not the first diagnostic it printed.

    mypy prints what it found (files done first), then, when a blocking error stops
    it, the rest of what it had with the blocking one: a crash (``INTERNAL ERROR``, its
    exception in the traceback ``--show-traceback`` prints), a configuration or plugin
    error (on stderr), a syntax error or a module found twice (``Duplicate module
    named``, ``Source file found twice``: no error code) in that last batch, or its
    own words (``mypy: error: ...``). None: it printed nothing to tell. Files are named
    relative to ``root``, where mypy ran.
    """
    crash = _MYPY_CRASH.search(stderr)
    if crash is not None:
        where = crash["where"].removeprefix(f"{root}/")
        exception = _raised(f"{stdout}\n{stderr}")  # mypy prints the traceback on stdout
        return f"{where}: INTERNAL ERROR (mypy crashed){f': {exception}' if exception else ''}"
    serious = _mypy_errors(stderr)  # a configuration's or plugin's: mypy stopped at once
    printed = _mypy_errors(stdout)
    blocking = [item for item in printed if item.get("code") in (None, "syntax")]
    for found in (serious, blocking):
        if found:
            return _shown_mypy(_first_of_last_file(found))
    said = _MYPY_SAYS.findall(stderr)
    if said:
        return str(said[-1]).strip()
    return _shown_mypy(printed[-1]) if printed else None


def _mypy_errors(out: str) -> list[dict[str, object]]:
    """The errors of mypy's JSON output (``-O json``), one object a line."""
    found = []
    for line in out.splitlines():
        if line.startswith("{"):
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if isinstance(item, dict) and item.get("severity") == "error":
                found.append(item)
    return found


def _first_of_last_file(errors: list[dict[str, object]]) -> dict[str, object]:
    """The blocking error of mypy's last batch: the first (by line) of the last file."""
    last = errors[-1].get("file")
    return next(item for item in errors if item.get("file") == last)


def _shown_mypy(item: dict[str, object]) -> str:
    line = item.get("line")
    where = f"{item.get('file')}:{line}" if isinstance(line, int) and line > 0 else item.get("file")
    code = item.get("code")
    return f"{where}: {item.get('message')}{f' [{code}]' if code else ''}"


def _raised(stderr: str) -> str | None:
    """The exception a traceback in ``stderr`` ends with (``RuntimeError: it gave up``)."""
    lines = stderr.splitlines()
    if "Traceback (most recent call last):" not in lines:
        return None
    start = lines.index("Traceback (most recent call last):") + 1
    return next((line for line in lines[start:] if line and not line[0].isspace()), None)
