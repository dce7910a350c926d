"""The two ways ``forge serve`` runs, for the MCP conformance tests that must pass against both.

- ``direct``: the server runs in the ``forge serve`` process itself, as with
  ``FORGE_DAEMON=0`` (and as before there was a daemon to hand it to);
- ``daemon``: a forge daemon runs for the test's environment, and ``forge
  serve`` hands its stdio to it: the session runs in a forked child of the
  daemon, the ``forge serve`` process only relays signals and the exit code.

Any other test that starts ``forge serve`` gets ``FORGE_DAEMON=0``
(:func:`serve_environment`): a server run in its own process starts a daemon
for the next sessions, which such a test would leave running.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

from forge_testing import forge_executable

DIRECT = "direct"
DAEMON = "daemon"
MODES = (DIRECT, DAEMON)
#: How long a daemon may take to warm up on a loaded machine.
START_TIMEOUT_S = 120


def serve_environment(mode: str = DIRECT) -> dict[str, str]:
    """The variables a test hands to the ``forge serve`` it starts, for ``mode``.

    The test's ``FORGE_*`` settings, and what names the daemon's socket
    (``XDG_RUNTIME_DIR``, ``PYTHON*``: :func:`forge.daemon.address.socket_path`).
    """
    env = {
        name: value
        for name, value in os.environ.items()
        if name.startswith(("FORGE_", "PYTHON")) or name == "XDG_RUNTIME_DIR"
    }
    if mode == DIRECT:
        env["FORGE_DAEMON"] = "0"
    else:
        env.pop("FORGE_DAEMON", None)
    return env


@contextlib.contextmanager
def serving(mode: str, cwd: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """``mode``, with a daemon running for ``env`` (default: the test's) when it is ``daemon``.

    On the way out, the daemon must have served a session (else the test never
    reached it) and is stopped.
    """
    if mode == DIRECT:
        yield mode
        return
    env = {**os.environ, **(env or {})}
    env.pop("FORGE_DAEMON", None)
    started = _forge(env, cwd, "daemon", "start", "--idle", "300")
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        yield mode
        status = _forge(env, cwd, "daemon", "status")
        served = re.search(r"(\d+) connections served", status.stdout)
        assert served is not None and int(served.group(1)) > 0, status.stdout + status.stderr
    finally:
        _forge(env, cwd, "daemon", "stop")


def _forge(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [forge_executable(), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
        check=False,
    )
