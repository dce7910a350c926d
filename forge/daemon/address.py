"""Where a forge daemon listens: one socket per user, Python environment and ``FORGE_HOME``.

Imported by every ``forge`` command before it knows whether a daemon will run
it, so it keeps to the cheapest modules (no pathlib, no hashlib).
"""

from __future__ import annotations

import os
import stat
import sys
import zlib

#: Set to 0 (or off, no, false) to never use a running daemon.
SWITCH_VARIABLE = "FORGE_DAEMON"
#: How long a daemon waits for a command before it exits, unless told otherwise.
DEFAULT_IDLE_S = 30 * 60


def enabled() -> bool:
    """Whether this process may hand its command to a daemon (Linux, not switched off)."""
    switch = os.environ.get(SWITCH_VARIABLE, "").strip().lower()
    return sys.platform == "linux" and switch not in {"0", "off", "no", "false"}


def may_have_daemon() -> bool:
    """Whether a daemon may serve this process: allowed, and its socket exists (one stat)."""
    return enabled() and os.path.exists(socket_path())


def socket_path() -> str:
    """The daemon's socket for this user, interpreter and its settings, forge install and ``FORGE_HOME``.

    Keyed by all of them because each changes what a command does: another
    virtualenv or ``PYTHONPATH`` has other plugins (the ``PYTHON*`` variables
    take effect when an interpreter starts, so a forked child keeps its
    daemon's), another ``FORGE_HOME`` other global memory (the test suite
    gives every test its own, so no test meets a user's daemon).
    """
    home = os.environ.get("FORGE_HOME") or os.environ.get("XDG_DATA_HOME") or "~"
    settings = sorted(item for item in os.environb.items() if item[0].startswith(b"PYTHON"))
    identity = b"\0".join(
        (
            os.fsencode(os.path.realpath(sys.executable)),
            os.fsencode(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
            os.fsencode(os.path.abspath(os.path.expanduser(home))),
            *(name + b"=" + value for name, value in settings),
        )
    )
    # Two CRCs make a 64-bit name: enough to tell a user's few environments
    # apart; the folder's permissions, not the name, keep others out.
    key = (zlib.crc32(identity) << 32) | zlib.crc32(identity[::-1])
    return os.path.join(runtime_dir(), f"{key:016x}.sock")


def control_path(socket: str) -> str:
    """The daemon's second socket, for ``status`` and ``stop``: asking is not a command."""
    return socket.removesuffix(".sock") + ".ctl"


def runtime_dir() -> str:
    """This user's folder for daemon sockets: ``$XDG_RUNTIME_DIR/forge``, else ``/tmp/forge-UID``.

    Short on purpose: a Unix socket's path is limited to 107 bytes.
    """
    base = os.environ.get("XDG_RUNTIME_DIR") or ""
    if base and os.path.isabs(base):
        return os.path.join(base, "forge")
    return f"/tmp/forge-{os.getuid()}"


def private_dir_ok(path: str) -> bool:
    """Whether ``path`` is a real folder (no symlink) owned by this user and closed to others.

    Anyone who could write there could put their own socket in the daemon's place.
    """
    try:
        status = os.lstat(path)
    except OSError:
        return False
    return (
        stat.S_ISDIR(status.st_mode)
        and status.st_uid == os.getuid()
        and stat.S_IMODE(status.st_mode) & 0o077 == 0
    )
