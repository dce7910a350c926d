"""File locks for read-modify-write of state, and deleting a state file with its lock.

``flock`` on ``<file>.lock``: several server processes and CLI runs on one
project never lose an update (see :mod:`forge.store`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from forge.errors import StateError
from forge.store.safe_open import _folder_of, _open_file
from forge.store.writes import _unwritable

#: How long a writer waits for another process's lock before giving up.
LOCK_TIMEOUT_SECONDS = 60.0


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
