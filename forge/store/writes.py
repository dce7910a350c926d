"""Writing state: atomic replaces, orphaned temp files swept, corrupt files moved aside.

A file is replaced through a temp file in the same folder (fsync, rename), so a
reader sees the old file or the new one, never half of one (see :mod:`forge.store`).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import os
import secrets
import stat
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import cast

from forge.errors import StateError, UsageError
from forge.store.safe_open import _FILE_FLAGS, _FILE_MODE, _folder_of, _open_file, _open_folder

logger = logging.getLogger("forge.store")

#: A temp file of a writer that no longer runs is swept once it is this old
#: (seconds); a temp file of unknown owner once it is :data:`ORPHAN_MAX_AGE` old.
ORPHAN_MIN_AGE = 10.0
ORPHAN_MAX_AGE = 3600.0


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

    Makes its folder, opens its lock file if there is one (it must be a regular
    file), and makes a temp file as an atomic write would (removed at once),
    which shows the lock file can be made when the write comes: a caller about
    to do work whose result ``path`` must keep, and that may be interrupted
    before it writes anything, leaves no empty lock file behind.
    """
    lock_path = path.with_name(f"{path.name}.lock")
    try:
        with _folder_of(lock_path, create=True) as (folder, name):
            with contextlib.suppress(FileNotFoundError):  # made by the first write
                os.close(_open_file(folder, name, os.O_RDWR, lock_path, create=False))
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
        if durable or len(data) < SWAP_MIN_BYTES or not _swapped(folder, temp, name):
            os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)
        raise
    if durable:
        with contextlib.suppress(OSError):  # pragma: no branch - platforms without directory fsync
            os.fsync(folder)
    _sweep(folder, name)


#: From this size on, a write that need not be durable swaps the new file in
#: (:func:`_swapped`) instead of renaming it over the old one. ext4 (its default
#: ``auto_da_alloc``) starts writing a file renamed over another to disk at
#: once: ~3 ms for a 250 KB status.json, after every tool call. The swap costs
#: ctypes' import (~6 ms, once a process), hence only for big files.
SWAP_MIN_BYTES = 64 * 1024


def _swapped(folder: int, temp: str, name: str) -> bool:
    """Exchange ``temp`` and the regular file ``name`` atomically, then delete the old one.

    Linux's ``renameat2(RENAME_EXCHANGE)``: readers see the old file or the new
    one, as with a rename. ``False`` (nothing done) where it is unavailable or
    ``name`` is not a regular file: the caller renames instead.
    """
    if sys.platform != "linux":
        return False
    try:
        if not stat.S_ISREG(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode):
            return False
    except OSError:
        return False
    renameat2 = _renameat2()
    if renameat2 is None or renameat2(folder, temp.encode(), folder, name.encode(), 2) != 0:
        return False  # 2 = RENAME_EXCHANGE; EINVAL on file systems without it
    with contextlib.suppress(OSError):  # else swept as a dead writer's temp file
        os.unlink(temp, dir_fd=folder)
    return True


@functools.cache
def _renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    """libc's ``renameat2`` (glibc 2.28+, musl 1.2.5+); ``None`` when there is none."""
    import ctypes  # deferred: ~6 ms, for big files only (see above)

    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return cast("Callable[[int, bytes, int, bytes, int], int]", function)


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
