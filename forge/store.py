"""All reading and writing under ``.forge/`` (and the global memory) goes through here.

The rules (DESIGN.md, "State on disk"):

- JSON files are replaced atomically: a temp file in the same folder, fsync,
  rename. A reader sees the old file or the new one, never half of one.
- JSONL appends are one ``write`` of one whole line on an ``O_APPEND``
  descriptor, so concurrent writers never interleave inside a line.
- Read-modify-write sequences hold a file lock (``<file>.lock``), so several
  server processes and CLI runs on one project never lose an update.
- ids are validated before they touch a path (:func:`forge.ids.check_id`).
- A corrupt file is moved aside as ``<name>.corrupt-<timestamp>``, never
  deleted, and the caller is told where it went.
- Files are created readable by their owner only (0600): they hold command
  lines, which may carry secrets.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from forge.errors import CorruptFileError, UsageError
from forge.ids import check_id

logger = logging.getLogger("forge.store")

T = TypeVar("T")

#: How long a writer waits for another process's lock before giving up.
LOCK_TIMEOUT_SECONDS = 60.0


def utc_now() -> str:
    """The current time as ISO 8601 UTC with milliseconds: ``2026-11-21T09:44:00.123Z``."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def valid_id(value: str, what: str) -> str:
    """Return ``value`` if it may become a file name, else raise :class:`UsageError`."""
    try:
        return check_id(value, what)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


# --- primitives --------------------------------------------------------------


def write_json(path: Path, value: Any) -> None:
    """Replace ``path`` atomically with ``value`` as pretty JSON."""
    data = (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    write_bytes_atomic(path, data)


def write_bytes_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data``: temp file in the same folder, fsync, rename.

    ``durable=False`` skips the fsyncs: readers still see the old file or the
    new one, never half of one, but a power cut may lose the update. Only for
    files nothing depends on: ``status.json`` (rewritten after every call) and
    caches that are rebuilt when missing or damaged (memory index, entry points).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # The temp name starts with a dot and ends in .tmp: no reader globbing
    # "*.json" can mistake it for state.
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        Path(temp_name).replace(path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            Path(temp_name).unlink()
        raise
    if durable:
        _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def read_json(path: Path) -> Any:
    """Load JSON from ``path``; ``None`` when it does not exist.

    A file that is not valid JSON (or not readable as text) is moved aside and
    :class:`CorruptFileError` is raised naming both paths.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CorruptFileError(f"{path} is a directory, expected a JSON file") from None
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        moved = quarantine(path)
        raise CorruptFileError(
            f"{path} was corrupt ({type(exc).__name__}: {exc}); moved aside to {moved.name}"
        ) from None


def quarantine(path: Path) -> Path:
    """Move a corrupt file aside as ``<name>.corrupt-<timestamp>``; return the new path."""
    target = _corrupt_name(path)
    path.replace(target)
    logger.warning("moved corrupt file %s aside to %s", path, target)
    return target


def _corrupt_name(path: Path) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return path.with_name(f"{path.name}.corrupt-{stamp}")


def append_line(path: Path, record: Any, *, mend_last_line: bool = False) -> None:
    """Append ``record`` as one JSON line with a single ``write`` on ``O_APPEND``.

    With ``mend_last_line``, a file whose last line lacks its newline (a hand
    edit) gets one first, so the new line does not fuse with it. Only for a
    caller holding the file's lock: without it, another process's append in
    flight can look like a missing newline.
    """
    line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    access = os.O_RDWR if mend_last_line else os.O_WRONLY
    fd = os.open(path, access | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        if mend_last_line:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line
        written = os.write(fd, line)
        if written != len(line):  # pragma: no cover - only on a full disk or a signal
            raise OSError(f"short write to {path}: {written} of {len(line)} bytes")
    finally:
        os.close(fd)


def numbered_lines(path: Path) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """``(line number, record)`` for each non-blank line of ``path``; ``None`` for a corrupt one.

    A line is corrupt when it is not UTF-8 JSON of an object (a torn or
    hand-edited line). A missing file has no lines.
    """
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                record = None
            yield number, record if isinstance(record, dict) else None


def describe_bad_lines(numbers: list[int]) -> str:
    """``"2 unreadable lines (3, 9)"``: how notices name the corrupt lines of a JSONL file."""
    shown = ", ".join(str(n) for n in numbers[:10])
    more = f" and {len(numbers) - 10} more" if len(numbers) > 10 else ""
    return f"{len(numbers)} unreadable line{'s' if len(numbers) != 1 else ''} ({shown}{more})"


def set_aside_lines(path: Path, bad_lines: Iterable[int]) -> Path:
    """Copy ``path`` aside as ``<name>.corrupt-<timestamp>``, then drop ``bad_lines`` from it.

    The copy keeps every byte (nothing is ever deleted); the file itself is
    replaced atomically by its other lines, verbatim. The caller holds the
    file's lock, so no writer appends in between. Returns the copy's path.
    """
    data = path.read_bytes()
    target = _corrupt_name(path)
    write_bytes_atomic(target, data)
    drop = set(bad_lines)
    # Lines end at b"\n" only, as :func:`numbered_lines` counts them (a stray
    # b"\r" inside a corrupt line must not shift the numbers).
    kept = [
        line + b"\n"
        for number, line in enumerate(data.split(b"\n"), start=1)
        if number not in drop and line.strip()
    ]
    write_bytes_atomic(path, b"".join(kept))
    logger.warning("moved %d corrupt lines of %s aside to %s", len(drop), path, target)
    return target


def peek_json(path: Path) -> tuple[Any, str | None]:
    """Load JSON from ``path`` without side effects: ``(value, problem)``.

    For readers that must not change anything (a ``get``): a missing file is
    ``(None, None)``; a corrupt one is ``(None, "<why>")`` and stays where it
    is until the next writer moves it aside.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"{path} cannot be read: {exc}"
    try:
        return json.loads(raw.decode("utf-8")), None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return (
            None,
            f"{path} is corrupt ({type(exc).__name__}); it will be moved aside on the next write",
        )


def remove(path: Path) -> bool:
    """Delete ``path`` under its lock; ``True`` when there was a file to delete."""
    with locked(path):
        try:
            path.unlink()
        except FileNotFoundError:
            return False
    return True


def newest(folder: Path, suffix: str, *, skip: tuple[str, ...] = ()) -> Path | None:
    """The most recently modified file in ``folder`` whose name ends in ``suffix``.

    Hidden files (the temp files of atomic writes) and names starting with one
    of ``skip`` are ignored; ties go to the later name so the answer is
    deterministic.
    """
    best: tuple[int, str] | None = None
    found: Path | None = None
    try:
        entries = list(os.scandir(folder))
    except OSError:  # no such folder, or unreadable: nothing there
        return None
    for entry in entries:
        if entry.name.startswith((".", *skip)) or not entry.name.endswith(suffix):
            continue
        try:
            if not entry.is_file():
                continue
            key = (entry.stat().st_mtime_ns, entry.name)
        except OSError:  # removed while we looked
            continue
        if best is None or key > best:
            best, found = key, Path(entry.path)
    return found


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the inter-process lock that guards read-modify-write of ``path``."""
    from filelock import FileLock  # only writers pay for it: ``forge plan check`` never locks

    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(f"{path}.lock", timeout=LOCK_TIMEOUT_SECONDS):
        yield


def update_json(path: Path, change: Callable[[Any], T]) -> tuple[T, list[str]]:
    """Read ``path``, apply ``change`` to its value, write the result back, under a lock.

    ``change`` receives ``None`` when the file is missing or was corrupt (the
    corrupt file is moved aside first) and returns the new value. ``change``
    may raise :class:`CorruptFileError` when the file is valid JSON of the
    wrong shape: that file is moved aside too and ``change`` gets ``None``.
    Returns the new value and notices (e.g. "moved aside") for the caller.
    """
    notices: list[str] = []
    with locked(path):
        try:
            current = read_json(path)
        except CorruptFileError as exc:
            notices.append(str(exc))
            current = None
        try:
            new_value = change(current)
        except CorruptFileError as exc:
            moved = quarantine(path)
            notices.append(f"{path} {exc}; moved aside to {moved.name}")
            new_value = change(None)
        write_json(path, new_value)
    return new_value, notices


# --- the project's .forge folder ------------------------------------------------


class ForgeDir:
    """Paths inside a project's ``.forge/`` folder; ids are validated before use."""

    SUBFOLDERS = ("plans", "iterations", "memory", "logs", "state")

    def __init__(self, project_root: Path) -> None:
        self.project_root = project_root
        self.root = project_root / ".forge"

    def ensure(self) -> None:
        """Create ``.forge/`` and its subfolders."""
        for name in self.SUBFOLDERS:
            (self.root / name).mkdir(parents=True, exist_ok=True)

    @property
    def plans(self) -> Path:
        """``.forge/plans``: plans written by the planner agent."""
        return self.root / "plans"

    def newest_plan(self) -> Path | None:
        """The most recently modified ``.forge/plans/*.json``; ``None`` when there is none."""
        return newest(self.plans, ".json")

    @property
    def status(self) -> Path:
        """``.forge/status.json``: live progress."""
        return self.root / "status.json"

    @property
    def project_memory(self) -> Path:
        """``.forge/memory/project.jsonl``."""
        return self.root / "memory" / "project.jsonl"

    @property
    def logs(self) -> Path:
        """``.forge/logs``: one event log per run."""
        return self.root / "logs"

    @property
    def sessions(self) -> Path:
        """``.forge/state``: one session snapshot per run."""
        return self.root / "state"

    def iterations(self, run_id: str | None) -> Path:
        """``.forge/iterations[/<runId>]``: the attempt histories of a run (legacy: of no run)."""
        folder = self.root / "iterations"
        return folder if run_id is None else folder / valid_id(run_id, "runId")

    def iteration(self, module_id: str, run_id: str | None) -> Path:
        """Attempt history of one module; the legacy flat path when there is no run."""
        return self.iterations(run_id) / f"{valid_id(module_id, 'moduleId')}.json"

    def log(self, run_id: str) -> Path:
        """``.forge/logs/<runId>.jsonl``."""
        return self.logs / f"{valid_id(run_id, 'runId')}.jsonl"

    def session(self, run_id: str) -> Path:
        """``.forge/state/<runId>.json``."""
        return self.sessions / f"{valid_id(run_id, 'runId')}.json"
