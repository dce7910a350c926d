"""A forge daemon for a benchmark's run, shared by the cold-start benchmarks.

The daemon is keyed by ``FORGE_HOME``: a benchmark that gives its commands a
temporary ``FORGE_HOME`` starts its own daemon, and no daemon of the user's
is used by accident (its other commands set ``FORGE_DAEMON=0``).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def running_daemon(forge: str, env: dict[str, str], cwd: Path) -> Iterator[None]:
    """``forge daemon start`` for ``env``'s FORGE_HOME, stopped at the end."""
    subprocess.run([forge, "daemon", "start"], env=env, cwd=cwd, check=True, capture_output=True)
    try:
        yield
    finally:
        subprocess.run(
            [forge, "daemon", "stop"], env=env, cwd=cwd, check=False, capture_output=True
        )
