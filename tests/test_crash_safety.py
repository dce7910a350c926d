"""Crash safety: a writer killed with SIGKILL at random moments never leaves a torn state file.

The writer is forge's own session and attempt-history code, saving in a
tight loop; after each kill the files are read back through the same code
the tools use.
"""

from __future__ import annotations

import hashlib
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from forge.state.sessions import list_sessions, load_session
from forge.store.forge_dir import ForgeDir
from forge.validate.iteration import read_state

KILLS = 50

WRITER = textwrap.dedent(
    """
    import hashlib, sys
    from pathlib import Path
    from forge.validate.iteration import IterationUpdate, update_state
    from forge.state.sessions import save_session
    from forge.store.forge_dir import ForgeDir

    forge_dir = ForgeDir(Path(sys.argv[1]))
    history = forge_dir.iteration("mod", "run-1")
    print("ready", flush=True)
    seq = 0
    while True:
        seq += 1
        payload = "x" * (seq * 7919 % 200_000)  # sizes vary so a torn write would show
        digest = hashlib.sha256(payload.encode()).hexdigest()
        save_session(forge_dir, "run-1", {"seq": seq, "payload": payload, "sha256": digest})
        update = IterationUpdate(status="failed", score=(seq % 10) / 10, issues=[f"i-{seq % 3}"])
        update_state(history, module_id="mod", run_id="run-1", update=update)
    """
)


def check_state(forge_dir: ForgeDir) -> int:
    """Read everything back as the tools do; return the number of attempts recorded."""
    session = load_session(forge_dir, "run-1")  # raises if the snapshot were torn
    if session.found:
        state = session.model_dump()
        assert hashlib.sha256(state["payload"].encode()).hexdigest() == state["sha256"]
    # Leftover temp files of a killed writer are never listed as sessions.
    listed = list_sessions(forge_dir)
    assert [s.run_id for s in listed.sessions] == (["run-1"] if session.found else [])
    assert listed.notices == []
    for leftover in forge_dir.root.rglob("*.tmp"):
        assert leftover.name.startswith(".") and not leftover.name.endswith(".json")
    history = read_state(forge_dir.iteration("mod", "run-1"), module_id="mod", run_id="run-1")
    assert history.notices == []
    assert [a.attempt for a in history.attempts] == list(range(1, len(history.attempts) + 1))
    return len(history.attempts)


@pytest.mark.slow
def test_sigkill_at_random_moments_never_tears_state(tmp_path: Path) -> None:
    forge_dir = ForgeDir(tmp_path)
    rng = random.Random(20261121)
    attempts_seen = 0
    for _ in range(KILLS):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.0, 0.15))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        count = check_state(forge_dir)
        assert count >= attempts_seen  # no completed attempt is ever lost
        attempts_seen = count
    assert attempts_seen > 0, "the writer never completed a write: the test proved nothing"
    assert not list(tmp_path.rglob("*.corrupt-*"))
