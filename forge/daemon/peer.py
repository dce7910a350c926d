"""Who a forge daemon serves: a caller exactly as confined as the daemon itself.

A command handed to the daemon runs with the daemon's privileges, in its
namespaces and control groups: a caller inside a sandbox (another mount or
network namespace, seccomp, ``no_new_privs``, fewer capabilities, an AppArmor
or SELinux label) or under resource limits (another cgroup) must not get out
of them by asking the daemon to run a plan's verify commands. So the daemon compares the
caller, found through ``SO_PEERCRED``, with itself, and refuses any
difference; a refused caller runs forge in its own process, inside its sandbox.
"""

from __future__ import annotations

import errno
import os
import socket
import struct

#: Lines of ``/proc/PID/status`` that must match: identity and confinement.
STATUS_FIELDS = (
    "Uid",
    "Gid",
    "Groups",
    "NoNewPrivs",
    "Seccomp",
    "Seccomp_filters",
    "CapInh",
    "CapPrm",
    "CapEff",
    "CapBnd",
    "CapAmb",
)


def refusal(connection: socket.socket) -> str | None:
    """Why the daemon must not serve the process at the other end; ``None`` to serve it."""
    raw = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", raw)
    if uid != os.getuid():
        return "the caller is another user"
    if pid <= 0:
        return "the caller is in another PID namespace"
    try:
        if _namespaces(str(pid)) != _namespaces("self"):
            return "the caller is in other namespaces (a container or sandbox)"
        if _root(str(pid)) != _root("self"):
            return "the caller has another root directory"
        if _confinement(str(pid)) != _confinement("self"):
            return "the caller is confined differently (seccomp, no_new_privs or capabilities)"
        if _security_label(str(pid)) != _security_label("self"):
            return "the caller runs under another security label (AppArmor or SELinux)"
        if _control_groups(str(pid)) != _control_groups("self"):
            return "the caller is in other control groups (other resource limits)"
    except OSError as exc:
        return f"the caller could not be inspected ({exc.strerror})"
    return None


def _namespaces(pid: str) -> dict[str, int]:
    folder = f"/proc/{pid}/ns"
    return {name: os.stat(os.path.join(folder, name)).st_ino for name in sorted(os.listdir(folder))}


def _root(pid: str) -> tuple[int, int]:
    status = os.stat(f"/proc/{pid}/root")
    return status.st_dev, status.st_ino


def _confinement(pid: str) -> dict[str, str]:
    with open(f"/proc/{pid}/status", encoding="utf-8", errors="replace") as status:
        fields = dict(line.rstrip("\n").partition(":")[::2] for line in status)
    return {name: fields.get(name, "").strip() for name in STATUS_FIELDS}


def _security_label(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/attr/current", "rb") as label:
            return label.read(4096).decode("utf-8", "replace").strip("\0\n")
    except OSError as exc:
        if exc.errno == errno.EINVAL:  # no security module keeps labels here
            return ""
        raise


def _control_groups(pid: str) -> str:
    with open(f"/proc/{pid}/cgroup", "rb") as groups:
        return groups.read(65536).decode("utf-8", "replace")
