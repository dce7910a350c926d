"""All reading and writing under ``.forge/`` (and the global memory) goes through here.

The rules (DESIGN.md, "State on disk"; SECURITY.md names the test holding each):

- A state path is opened one folder at a time from its *state root* (the
  project for ``.forge/...``, ``FORGE_HOME`` for global memory) with
  ``O_NOFOLLOW`` and folder descriptors: a symlink anywhere below the root is
  refused, never followed, so a link planted in ``.forge/`` (a cloned
  repository can carry one) cannot send a write elsewhere, and no
  check-then-open race can either.
- Only regular files are read or written (a FIFO would hang forge, a device
  never end), and every read is capped in size.
- JSON files are replaced atomically: a temp file in the same folder, fsync,
  rename. A reader sees the old file or the new one, never half of one. Temp
  files orphaned by a killed writer are swept by the next write.
- JSONL appends hold the file's lock and write one whole line: what a full
  disk leaves of a line is cut off again, and a torn tail left by a crash is
  set aside before the next append, so no line fuses with a fragment.
- Read-modify-write sequences hold a file lock (``<file>.lock``, ``flock``),
  so several server processes and CLI runs on one project never lose an update.
- ids are validated before they touch a path (:func:`forge.ids.check_id`).
- A corrupt file (not UTF-8 JSON, a lone surrogate escape, a symlink or FIFO
  where a state file belongs, over its size limit) is moved aside as
  ``<name>.corrupt-<timestamp>``, never deleted, and the caller is told where.
- Folders are created 0700 and files 0600 whatever the umask: they hold
  command lines, which may carry secrets.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import re
import secrets
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from forge.errors import CorruptFileError, StateError, UsageError
from forge.ids import check_id

logger = logging.getLogger("forge.store")

T = TypeVar("T")

#: How long a writer waits for another process's lock before giving up.
LOCK_TIMEOUT_SECONDS = 60.0
#: Largest JSON state file read (attempt histories, session snapshots, status).
MAX_STATE_BYTES = 64 * 1024 * 1024
#: Largest JSONL file read (memory, event logs): rotate a log that grows past it.
MAX_JSONL_BYTES = 256 * 1024 * 1024
#: Longest JSONL line read; a longer one counts as unreadable.
MAX_LINE_BYTES = 1024 * 1024
#: A temp file of a writer that no longer runs is swept once it is this old
#: (seconds); a temp file of unknown owner once it is :data:`ORPHAN_MAX_AGE` old.
ORPHAN_MIN_AGE = 10.0
ORPHAN_MAX_AGE = 3600.0

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
_FILE_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_DIR_MODE = 0o700
_FILE_MODE = 0o600
# A JSON escape of a UTF-16 surrogate: only then can decoded text hold a lone one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def utc_now() -> str:
    """The current time as ISO 8601 UTC with milliseconds: ``2026-11-21T09:44:00.123Z``."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def valid_id(value: str, what: str) -> str:
    """Return ``value`` if it may become a file name, else raise :class:`UsageError`."""
    try:
        return check_id(value, what)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


# --- opening without following links -------------------------------------------


class _BadFile(StateError):
    """The file itself (not a folder above it) is no state file: a symlink, FIFO, device, too big."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path} {reason}")
        self.path = path
        self.reason = reason


_SYMLINK = (
    "is a symbolic link; forge does not follow links inside its state folders "
    "(a cloned repository can carry one): remove it"
)
_NOT_REGULAR = "is not a regular file (a FIFO, socket or device): remove it"


def _split(path: Path) -> tuple[Path, tuple[str, ...]]:
    """The state root above ``path``, where links may lead (the user chose it), and the names below.

    ``.../.forge/...`` hangs below its project; paths under ``FORGE_HOME``
    below that; any other path below its own folder.
    """
    parts = path.parts
    for index in range(len(parts) - 1, -1, -1):
        if parts[index] == ".forge":
            return Path(*parts[:index]) if index else Path(), parts[index:]
    from forge.config import forge_home  # config imports store's readers lazily too

    home = forge_home()
    try:
        below = path.relative_to(home).parts
    except ValueError:
        return path.parent, (path.name,)
    return home, below


def _open_root(root: Path, create: bool) -> int:
    try:
        return os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        if not create:
            raise
    # Above the state root is the user's own path (FORGE_HOME, a test's tmp dir).
    root.mkdir(mode=_DIR_MODE, parents=True, exist_ok=True)
    return os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def _refusal(parent: int, name: str, shown: Path, *, want_dir: bool) -> StateError:
    """Why ``name`` in ``parent`` cannot be opened as it is: a link, or not the right kind."""
    try:
        mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
    except OSError:
        mode = 0
    if stat.S_ISLNK(mode):
        # Only the file itself is set aside by readers; a linked folder is refused.
        return StateError(f"{shown} {_SYMLINK}") if want_dir else _BadFile(shown, _SYMLINK)
    if want_dir:
        return StateError(f"{shown} is not a folder: forge keeps its state in a folder there")
    if stat.S_ISDIR(mode):
        return StateError(f"{shown} is a folder; forge expected a state file there")
    return _BadFile(shown, _NOT_REGULAR)


def _open_dir_at(parent: int, name: str, shown: Path, create: bool) -> int:
    while True:
        try:
            return os.open(name, _DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise _refusal(parent, name, shown, want_dir=True) from None
            raise
        try:
            os.mkdir(name, _DIR_MODE, dir_fd=parent)
        except FileExistsError:
            continue  # made by another process meanwhile (or a link): look again
        child = os.open(name, _DIR_FLAGS, dir_fd=parent)
        os.fchmod(child, _DIR_MODE)  # the umask may have taken bits off
        return child


@contextlib.contextmanager
def _open_folder(folder: Path, *, create: bool) -> Iterator[int]:
    """A descriptor of ``folder``, reached from its state root without following any link."""
    root, below = _split(folder)
    fd = _open_root(root, create)
    shown = root
    try:
        for name in below:
            shown = shown / name
            child = _open_dir_at(fd, name, shown, create)
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


@contextlib.contextmanager
def _folder_of(path: Path, *, create: bool) -> Iterator[tuple[int, str]]:
    """``path``'s folder as a descriptor (see :func:`_open_folder`) and ``path``'s name in it."""
    with _open_folder(path.parent, create=create) as fd:
        yield fd, path.name


def _open_file(folder: int, name: str, flags: int, shown: Path, *, create: bool) -> int:
    """Open the regular file ``name`` in ``folder``; a new one is 0600 whatever the umask."""
    try:
        fd = os.open(name, flags | _FILE_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        if not create:
            raise
        try:
            fd = os.open(
                name, flags | _FILE_FLAGS | os.O_CREAT | os.O_EXCL, _FILE_MODE, dir_fd=folder
            )
        except FileExistsError:  # made meanwhile, or a dangling link: look again
            return _open_file(folder, name, flags, shown, create=False)
        os.fchmod(fd, _FILE_MODE)
        return fd
    except OSError as exc:
        # ELOOP: a link (O_NOFOLLOW); ENXIO: a FIFO with no reader or a socket;
        # EISDIR: a folder opened for writing.
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR, errno.EOPNOTSUPP):
            raise _refusal(folder, name, shown, want_dir=False) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _refusal(folder, name, shown, want_dir=False)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_state_file(path: Path) -> int | None:
    """A read-only descriptor of the state file ``path``; ``None`` when there is none.

    Opened as every state path is (no link followed anywhere below the project,
    non-blocking); a link, FIFO or folder there raises :class:`StateError`.
    The caller closes the descriptor.
    """
    try:
        with _folder_of(path, create=False) as (folder, name):
            return _open_file(folder, name, os.O_RDONLY, path, create=False)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _read_fd(fd: int, shown: Path, limit: int) -> bytes:
    """All of the regular file open at ``fd``, refused unread when over ``limit`` bytes."""
    size = os.fstat(fd).st_size
    if size > limit:
        raise _BadFile(shown, f"is {size:,} bytes, over forge's limit of {limit:,}")
    chunks = []
    total = 0
    while total <= limit:
        chunk = os.read(fd, min(1024 * 1024, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > limit:  # it grew while we read
        raise _BadFile(shown, f"is over forge's limit of {limit:,} bytes")
    return b"".join(chunks)


def _read_state(path: Path, limit: int) -> bytes:
    """The bytes of the state file ``path``; :class:`FileNotFoundError` when it is missing."""
    with _folder_of(path, create=False) as (folder, name):
        fd = _open_file(folder, name, os.O_RDONLY, path, create=False)
        try:
            return _read_fd(fd, path, limit)
        finally:
            os.close(fd)


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of a project file such as ``pyproject.toml``: links followed, FIFOs refused.

    Unlike state, a project file may be a symlink (it is the user's choice),
    but it must be a regular file of at most ``limit`` bytes, or
    :class:`StateError` says why; a missing file raises
    :class:`FileNotFoundError`. Never blocks: a FIFO is opened non-blocking
    and refused.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket
            raise StateError(f"{path} {_NOT_REGULAR}") from None
        if isinstance(exc, FileNotFoundError):
            raise
        raise StateError(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise StateError(f"{path} is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise StateError(f"{path} {_NOT_REGULAR}")
        return _read_fd(fd, path, limit)
    except OSError as exc:
        raise StateError(f"{path} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _unwritable(path: Path, exc: OSError) -> StateError:
    """A one-line :class:`StateError` for a write the system refused (full disk, read-only, ...)."""
    reason = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        reason += " (free some space; forge's read-only tools keep working meanwhile)"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        reason += " (forge keeps its state in .forge/ of the project: make it writable)"
    elif exc.errno == errno.EISDIR:
        reason = "a folder is in the way of the file"
    return StateError(f"cannot write {path}: {reason}")


def ensure_writable(path: Path) -> None:
    """Raise :class:`StateError` now if ``path`` could not be written later.

    Makes its folder and its lock file, and a temp file as an atomic write
    would (removed at once): for a caller about to do work whose result
    ``path`` must keep.
    """
    lock_path = path.with_name(f"{path.name}.lock")
    try:
        with _folder_of(lock_path, create=True) as (folder, name):
            os.close(_open_file(folder, name, os.O_RDWR, lock_path, create=True))
            probe = f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
            os.close(
                os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FILE_FLAGS, 0, dir_fd=folder)
            )
            os.unlink(probe, dir_fd=folder)
    except OSError as exc:
        raise _unwritable(path, exc) from exc


def ensure_folder(folder: Path) -> None:
    """Create ``folder`` (0700) and the state folders above it, following no link."""
    try:
        with _open_folder(folder, create=True):
            pass
    except OSError as exc:
        raise _unwritable(folder, exc) from exc


# --- JSON ------------------------------------------------------------------------


def decode_json(raw: bytes) -> Any:
    """Decode UTF-8 JSON that forge can write back: a lone surrogate escape is refused.

    ``"\\ud800"`` is valid JSON, but the text it decodes to cannot be encoded
    again: it would break every later write or reply that carries it.
    Raises :class:`ValueError` (``JSONDecodeError``, ``UnicodeError``) or
    :class:`RecursionError`.
    """
    value = json.loads(raw.decode("utf-8"))
    if _SURROGATE_ESCAPE.search(raw):
        # Pairs are fine; raises UnicodeEncodeError when one stands alone.
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    return value


def write_json(path: Path, value: Any) -> None:
    """Replace ``path`` atomically with ``value`` as pretty JSON."""
    write_bytes_atomic(path, _encode(json.dumps(value, indent=2, ensure_ascii=False) + "\n"))


def _encode(text: str) -> bytes:
    """``text`` as UTF-8; :class:`UsageError` for a lone surrogate (a non-UTF-8 CLI argument)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UsageError(
            f"cannot store text that is not valid UTF-8 ({exc.object[exc.start : exc.end]!a} "
            f"at character {exc.start}): pass arguments as UTF-8"
        ) from None


def write_bytes_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data``: temp file in the same folder, fsync, rename.

    ``durable=False`` skips the fsyncs: readers still see the old file or the
    new one, never half of one, but a power cut may lose the update. Only for
    files nothing depends on: ``status.json`` (rewritten after every call) and
    caches that are rebuilt when missing or damaged (memory index, entry points).
    """
    try:
        with _folder_of(path, create=True) as (folder, name):
            _replace_at(folder, name, data, durable=durable)
    except OSError as exc:
        raise _unwritable(path, exc) from exc


def _write_whole(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # pragma: no cover - POSIX reports ENOSPC instead
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def _replace_at(folder: int, name: str, data: bytes, *, durable: bool = True) -> None:
    # The temp name starts with a dot and ends in .tmp: no reader globbing
    # "*.json" can mistake it for state. The pid says whose it is (see _sweep).
    temp = f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(
        temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FILE_FLAGS, _FILE_MODE, dir_fd=folder
    )
    try:
        try:
            os.fchmod(fd, _FILE_MODE)
            _write_whole(fd, data)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        # rename replaces a link planted at ``name`` itself; it never writes through it.
        os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)
        raise
    if durable:
        with contextlib.suppress(OSError):  # pragma: no branch - platforms without directory fsync
            os.fsync(folder)
    _sweep(folder, name)


def _sweep(folder: int, name: str) -> None:
    """Delete the temp files of ``name`` that writers killed mid-write left behind."""
    prefix = f".{name}."
    now = time.time()
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if not (entry.name.startswith(prefix) and entry.name.endswith(".tmp")):
                continue
            with contextlib.suppress(OSError):
                if not entry.is_file(follow_symlinks=False):
                    continue
                age = now - entry.stat(follow_symlinks=False).st_mtime
                owner = entry.name[len(prefix) :].split(".", 1)[0]
                gone = owner.isdigit() and not _running(int(owner))
                if age > ORPHAN_MAX_AGE or (gone and age > ORPHAN_MIN_AGE):
                    os.unlink(entry.name, dir_fd=folder)
                    logger.info("removed %s, left by a writer that was killed", entry.name)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it exists
        return True
    return True


def read_json(path: Path) -> Any:
    """Load JSON from ``path``; ``None`` when it does not exist.

    A file forge cannot use as state (not UTF-8 JSON, a lone surrogate, over
    :data:`MAX_STATE_BYTES`, a symlink or a FIFO) is moved aside and
    :class:`CorruptFileError` is raised naming both paths.
    """
    try:
        raw = _read_state(path, MAX_STATE_BYTES)
    except FileNotFoundError:
        return None
    except _BadFile as exc:
        moved = quarantine(path)
        raise CorruptFileError(
            f"{path} {exc.reason.split(':')[0]}; moved aside to {moved.name}"
        ) from None
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return decode_json(raw)
    except (ValueError, RecursionError) as exc:
        moved = quarantine(path)
        raise CorruptFileError(
            f"{path} was corrupt ({type(exc).__name__}: {_short(exc)}); moved aside to {moved.name}"
        ) from None


def _short(exc: BaseException) -> str:
    return str(exc)[:200]


def quarantine(path: Path) -> Path:
    """Move a corrupt file aside as ``<name>.corrupt-<timestamp>``; return the new path."""
    target = _corrupt_name(path)
    try:
        with _folder_of(path, create=False) as (folder, name):
            os.rename(name, target.name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError as exc:
        raise _unwritable(target, exc) from exc
    # The caller reports it (a notice, an error): this is for a server's log.
    logger.info("moved corrupt file %s aside to %s", path, target)
    return target


def _corrupt_name(path: Path) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return path.with_name(f"{path.name}.corrupt-{stamp}")


def peek_json(path: Path) -> tuple[Any, str | None]:
    """Load JSON from ``path`` without side effects: ``(value, problem)``.

    For readers that must not change anything (a ``get``): a missing file is
    ``(None, None)``; a corrupt one is ``(None, "<why>")`` and stays where it
    is until the next writer moves it aside.
    """
    try:
        raw = _read_state(path, MAX_STATE_BYTES)
    except FileNotFoundError:
        return None, None
    except _BadFile as exc:
        return None, f"{path} {exc.reason.split(':')[0]}; it will be moved aside on the next write"
    except StateError as exc:
        return None, str(exc)
    except OSError as exc:
        return None, f"{path} cannot be read: {exc.strerror or exc}"
    try:
        return decode_json(raw), None
    except (ValueError, RecursionError) as exc:
        return (
            None,
            f"{path} is corrupt ({type(exc).__name__}); it will be moved aside on the next write",
        )


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


def remove(path: Path) -> bool:
    """Delete ``path`` under its lock; ``True`` when there was a file to delete."""
    existed = True
    with locked(path):
        try:
            with _folder_of(path, create=False) as (folder, name):
                try:
                    os.unlink(name, dir_fd=folder)
                except FileNotFoundError:
                    existed = False
                # Its lock goes too, still held: a waiter sees it gone and starts over.
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(f"{name}.lock", dir_fd=folder)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise _unwritable(path, exc) from exc
    return existed


# --- JSONL -----------------------------------------------------------------------


def append_line(path: Path, record: Any) -> None:
    """Append ``record`` as one JSON line, whole or not at all, under the file's lock.

    A write the disk cannot finish is cut back off, so a full disk never
    leaves half a line. A last line without its newline is mended first: kept
    (given its newline) when it is a JSON object, as a hand edit may leave
    it, else set aside as ``<name>.corrupt-<timestamp>`` and cut off, as a
    writer killed mid-line leaves it.
    """
    line = _encode(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    try:
        with locked(path), _folder_of(path, create=True) as (folder, name):
            fd = _open_file(folder, name, os.O_RDWR | os.O_APPEND, path, create=True)
            try:
                end, prefix = _mend_tail(fd, folder, name, path)
                try:
                    _write_whole(fd, prefix + line)
                except OSError:
                    os.ftruncate(fd, end)
                    raise
            finally:
                os.close(fd)
    except OSError as exc:
        raise _unwritable(path, exc) from exc


def _mend_tail(fd: int, folder: int, name: str, path: Path) -> tuple[int, bytes]:
    """Where the next line starts, and what must precede it, after mending a torn tail."""
    size = os.fstat(fd).st_size
    if not size or os.pread(fd, 1, size - 1) == b"\n":
        return size, b""
    window = min(size, MAX_LINE_BYTES)
    tail = os.pread(fd, window, size - window)
    cut = tail.rfind(b"\n") + 1
    fragment = tail[cut:]
    if cut == 0 and window < size:
        return size, b"\n"  # a fragment longer than any line: leave it to the readers
    if _json_object(fragment) is not None:
        return size, b"\n"
    try:
        _replace_at(folder, _corrupt_name(path).name, fragment)
    except OSError:
        return size, b"\n"  # cannot keep a copy (full disk?): keep it in place as a bad line
    start = size - len(fragment)
    os.ftruncate(fd, start)
    logger.warning("set aside a torn last line of %s (%d bytes)", path, len(fragment))
    return start, b""


def _json_object(raw: bytes) -> dict[str, Any] | None:
    try:
        record = decode_json(raw)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def numbered_lines(
    path: Path, *, limit: int = MAX_JSONL_BYTES
) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """``(line number, record)`` for each non-blank line of ``path``; ``None`` for a corrupt one.

    A line is corrupt when it is not UTF-8 JSON of an object (a torn or
    hand-edited line, a lone surrogate) or longer than :data:`MAX_LINE_BYTES`.
    A missing file has no lines; a file over ``limit`` bytes, a symlink or a
    FIFO raises :class:`StateError`.
    """
    try:
        with _folder_of(path, create=False) as (folder, name):
            fd = _open_file(folder, name, os.O_RDONLY, path, create=False)
    except FileNotFoundError:
        return
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(fd).st_size
        if size > limit:
            raise _BadFile(
                path, f"is {size:,} bytes, over forge's limit of {limit:,}: move it aside"
            )
        number = 0
        read = 0
        while read <= limit:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            read += len(raw)
            if len(raw) > MAX_LINE_BYTES:
                while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                    raw = handle.readline(MAX_LINE_BYTES)
                    read += len(raw)
                yield number, None
                continue
            if raw.strip():
                yield number, _json_object(raw)


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
    try:
        data = _read_state(path, MAX_JSONL_BYTES)
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror or exc}") from exc
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


# --- folders and locks -------------------------------------------------------------


def state_files(folder: Path, suffix: str) -> list[tuple[str, int]]:
    """``(name, mtime_ns)`` of each regular file in ``folder`` whose name ends in ``suffix``.

    Hidden files (the temp files of atomic writes) and links are left out; a
    missing folder has none.
    """
    found = []
    try:
        with _open_folder(folder, create=False) as fd, os.scandir(fd) as entries:
            for entry in entries:
                if entry.name.startswith(".") or not entry.name.endswith(suffix):
                    continue
                with contextlib.suppress(OSError):  # removed while we looked
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(info.st_mode):
                        found.append((entry.name, info.st_mtime_ns))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise StateError(f"cannot list {folder}: {exc.strerror or exc}") from exc
    return found


def newest(folder: Path, suffix: str, *, skip: tuple[str, ...] = ()) -> Path | None:
    """The most recently modified file in ``folder`` whose name ends in ``suffix``.

    Hidden files (the temp files of atomic writes) and names starting with one
    of ``skip`` are ignored; ties go to the later name so the answer is
    deterministic.
    """
    files = [
        (name, mtime) for name, mtime in state_files(folder, suffix) if not name.startswith(skip)
    ]
    if not files:
        return None
    _, name = max((mtime, name) for name, mtime in files)
    return folder / name


_held = threading.local()


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the inter-process lock that guards read-modify-write of ``path``.

    ``flock`` on ``<path>.lock`` (created 0600, never through a link). A thread
    already holding it passes through, so a locked section may append.
    """
    key = str(path.absolute())
    held: set[str] = _held.__dict__.setdefault("paths", set())
    if key in held:
        yield
        return
    lock_path = path.with_name(f"{path.name}.lock")
    fd = _lock_file(lock_path, time.monotonic() + LOCK_TIMEOUT_SECONDS)
    try:
        held.add(key)
        try:
            yield
        finally:
            held.discard(key)
    finally:
        os.close(fd)  # releases the lock


def _lock_file(lock_path: Path, deadline: float) -> int:
    """A descriptor of ``lock_path`` holding its ``flock``, the file still at that path.

    :func:`remove` deletes a lock file while holding it; a process that was
    waiting on the deleted file then holds a lock nobody else sees, so it
    checks, once it holds the lock, that the path still names its file, and
    starts over when it does not.
    """
    while True:
        try:
            with _folder_of(lock_path, create=True) as (folder, name):
                fd = _open_file(folder, name, os.O_RDWR, lock_path, create=True)
                try:
                    _acquire(fd, lock_path, deadline)
                    mine = os.fstat(fd)
                    try:
                        there = os.stat(name, dir_fd=folder, follow_symlinks=False)
                    except FileNotFoundError:
                        there = None
                except BaseException:
                    os.close(fd)
                    raise
        except OSError as exc:
            raise _unwritable(lock_path, exc) from exc
        if there is not None and (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino):
            return fd
        os.close(fd)  # the lock file was removed while we waited: lock the new one


def _acquire(fd: int, lock_path: Path, deadline: float) -> None:
    pause = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if time.monotonic() >= deadline:
            raise StateError(
                f"{lock_path} is held by another process for over {LOCK_TIMEOUT_SECONDS:g} s; "
                "another forge is still writing there: retry once it is done"
            )
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


# --- the project's .forge folder ------------------------------------------------


class ForgeDir:
    """Paths inside a project's ``.forge/`` folder; ids are validated before use.

    Attempt histories keep runs and run-less modules apart on disk:
    ``iterations/<runId>/<moduleId>.json`` (folders only) and
    ``modules/<moduleId>.json``, so no runId can collide with a moduleId
    (``runId: "x.json"`` against module ``x``). A run-less history at the old
    place, ``iterations/<moduleId>.json``, is moved over when first touched.
    """

    SUBFOLDERS = ("plans", "iterations", "modules", "memory", "logs", "state")

    def __init__(self, project_root: Path) -> None:
        self.project_root = project_root
        self.root = project_root / ".forge"

    def ensure(self) -> None:
        """Create ``.forge/`` and its subfolders (0700, no link followed)."""
        for name in self.SUBFOLDERS:
            ensure_folder(self.root / name)

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
        """The folder of a run's attempt histories (``modules/`` for calls that name no run)."""
        if run_id is None:
            return self.root / "modules"
        return self.root / "iterations" / valid_id(run_id, "runId")

    def iteration(self, module_id: str, run_id: str | None) -> Path:
        """Attempt history of one module: ``iterations/<runId>/`` or, with no run, ``modules/``."""
        module = valid_id(module_id, "moduleId")
        if run_id is None:
            self._adopt_legacy(module)
            return self.root / "modules" / f"{module}.json"
        run = valid_id(run_id, "runId")
        if run.endswith(".json"):
            # An old run-less history of that name stands where the run's folder goes.
            self._adopt_legacy(run.removesuffix(".json"))
        return self.root / "iterations" / run / f"{module}.json"

    def module_ids(self, run_id: str | None) -> list[str]:
        """The modules that have an attempt history in ``run_id`` (or with no run), sorted."""
        if run_id is not None:
            folders = [self.root / "iterations" / valid_id(run_id, "runId")]
        else:
            folders = [self.root / "modules", self.root / "iterations"]
        names = {name for folder in folders for name, _ in state_files(folder, ".json")}
        return sorted(name.removesuffix(".json") for name in names)

    def _adopt_legacy(self, module: str) -> None:
        """Move ``iterations/<module>.json`` (the old run-less place) to ``modules/``, once."""
        name = f"{module}.json"
        try:
            with _open_folder(self.root / "iterations", create=False) as old:
                if not stat.S_ISREG(os.stat(name, dir_fd=old, follow_symlinks=False).st_mode):
                    return  # a run's folder, or something forge did not write
                with _open_folder(self.root / "modules", create=True) as new:
                    with contextlib.suppress(FileNotFoundError):
                        os.stat(name, dir_fd=new, follow_symlinks=False)
                        return  # already there: the new place wins
                    # Two processes may both get here: the second rename finds
                    # nothing to move (FileNotFoundError), never a file to clobber.
                    os.rename(name, name, src_dir_fd=old, dst_dir_fd=new)
        except (OSError, StateError):
            return  # nothing to adopt, or cannot now (read-only): the next write tries again

    def log(self, run_id: str) -> Path:
        """``.forge/logs/<runId>.jsonl``."""
        return self.logs / f"{valid_id(run_id, 'runId')}.jsonl"

    def session(self, run_id: str) -> Path:
        """``.forge/state/<runId>.json``."""
        return self.sessions / f"{valid_id(run_id, 'runId')}.json"
