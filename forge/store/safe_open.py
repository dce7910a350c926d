"""Opening state paths without following links, reading them capped, listing state folders.

A state path is opened one folder at a time from its *state root* with
``O_NOFOLLOW`` and folder descriptors, so no link below the root is followed
and no check-then-open race exists (see :mod:`forge.store`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from forge.errors import StateError
from forge.store.home import forge_home

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
_FILE_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_DIR_MODE = 0o700
_FILE_MODE = 0o600


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


def open_state_file(path: Path, limit: int) -> int | None:
    """A read-only descriptor of the state file ``path``; ``None`` when there is none.

    Opened as every state path is (no link followed anywhere below the project,
    non-blocking); a link, FIFO or folder there, or a file over ``limit``
    bytes, raises :class:`StateError`. The caller closes the descriptor.
    """
    try:
        with _folder_of(path, create=False) as (folder, name):
            fd = _open_file(folder, name, os.O_RDONLY, path, create=False)
    except (FileNotFoundError, NotADirectoryError):
        return None
    size = os.fstat(fd).st_size
    if size > limit:
        os.close(fd)
        raise _BadFile(path, _over_limit(size, limit))
    return fd


def _over_limit(size: int, limit: int) -> str:
    return f"is {size:,} bytes, over forge's limit of {limit:,}: move it aside"


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


def state_files(folder: Path, suffix: str) -> list[tuple[str, int]]:
    """``(name, mtime_ns)`` of each regular file in ``folder`` whose name ends in ``suffix``.

    Hidden files (the temp files of atomic writes) and links are left out; a
    missing folder has none.
    """
    return _listing(folder, suffix, stat.S_ISREG)


def state_folders(folder: Path) -> list[tuple[str, int]]:
    """``(name, mtime_ns)`` of each folder in ``folder`` (a run's histories), as
    :func:`state_files` lists files: no hidden name, no link."""
    return _listing(folder, "", stat.S_ISDIR)


def _listing(folder: Path, suffix: str, kind: Callable[[int], bool]) -> list[tuple[str, int]]:
    found = []
    try:
        with _open_folder(folder, create=False) as fd, os.scandir(fd) as entries:
            for entry in entries:
                if entry.name.startswith(".") or not entry.name.endswith(suffix):
                    continue
                with contextlib.suppress(OSError):  # removed while we looked
                    info = entry.stat(follow_symlinks=False)
                    if kind(info.st_mode):
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
