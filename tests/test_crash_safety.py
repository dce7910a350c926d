"""Crash safety: a writer killed with SIGKILL at random moments never leaves a torn state file."""

from __future__ import annotations

import hashlib
import json
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

KILLS = 50

WRITER = textwrap.dedent(
    """
    import hashlib, json, sys
    from pathlib import Path
    from forge.history import record_attempt
    from forge.store import write_json

    root = Path(sys.argv[1])
    session = root / "state" / "run-1.json"
    history = root / "iterations" / "run-1" / "mod.json"
    print("ready", flush=True)
    seq = 0
    while True:
        seq += 1
        payload = "x" * (seq * 7919 % 200_000)  # sizes vary so a torn write would show
        digest = hashlib.sha256(payload.encode()).hexdigest()
        write_json(session, {"seq": seq, "payload": payload, "sha256": digest})
        record_attempt(history, module_id="mod", run_id="run-1", source="update",
                       score=(seq % 10) / 10, issues=[f"issue-{seq % 3}"], status="failed")
    """
)


def check_state(root: Path) -> None:
    session = root / "state" / "run-1.json"
    if session.exists():
        state = json.loads(session.read_text(encoding="utf-8"))
        assert hashlib.sha256(state["payload"].encode()).hexdigest() == state["sha256"]
    history = root / "iterations" / "run-1" / "mod.json"
    if history.exists():
        attempts = json.loads(history.read_text(encoding="utf-8"))["attempts"]
        assert [a["attempt"] for a in attempts] == list(range(1, len(attempts) + 1))
    # Leftover temp files from a killed writer never look like state.
    for leftover in root.rglob("*.tmp"):
        assert leftover.name.startswith(".") and not leftover.name.endswith(".json")


@pytest.mark.slow
def test_sigkill_at_random_moments_never_tears_state(tmp_path: Path) -> None:
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
        check_state(tmp_path)
        history = tmp_path / "iterations" / "run-1" / "mod.json"
        if history.exists():
            count = len(json.loads(history.read_text(encoding="utf-8"))["attempts"])
            assert count >= attempts_seen  # no completed attempt is ever lost
            attempts_seen = count
    assert attempts_seen > 0, "the writer never completed a write: the test proved nothing"
    assert not list(tmp_path.rglob("*.corrupt-*"))
