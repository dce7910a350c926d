"""What changed: the topics a page is told to fetch again."""

from __future__ import annotations

import json
from pathlib import Path

from forge_testing import RunForge

from forge.store.forge_dir import ForgeDir
from forge.ui.watch import Watcher

PLAN = ".forge/plans/quickstart.json"


def test_each_kind_of_change_names_its_topics(example: Path, run_forge: RunForge) -> None:
    forge_dir = ForgeDir(example)
    watcher = Watcher(forge_dir, None, [forge_dir.project_memory])
    assert watcher.changes() == set()  # the first look is the baseline
    assert watcher.run == "demo"
    assert watcher.changes() == set()
    run_forge("validate", "--plan", PLAN, "--module", "greeter", "--run-id", "demo")
    assert {"graph", "log"} <= watcher.changes()
    assert watcher.changes() == set()
    run_forge("memory", "save", "use pytest -q", "--category", "test_command")
    assert "memory" in watcher.changes()
    (example / ".forge" / "state" / "demo.json").write_text(json.dumps({}), encoding="utf-8")
    assert {"sessions", "graph"} <= watcher.changes()
    # A newer run: a page that follows the newest one moves to it.
    run_forge("validate", "--plan", PLAN, "--module", "greeter", "--run-id", "next")
    assert "graph" in watcher.changes()
    assert watcher.run == "next"


def test_a_pinned_run_ignores_other_runs_logs(example: Path, run_forge: RunForge) -> None:
    forge_dir = ForgeDir(example)
    (forge_dir.logs / "other.jsonl").write_text("{}\n", encoding="utf-8")
    watcher = Watcher(forge_dir, "demo", [])
    watcher.changes()
    with (forge_dir.logs / "other.jsonl").open("a", encoding="utf-8") as handle:
        handle.write("{}\n")
    assert "log" not in watcher.changes()
    with forge_dir.log("demo").open("a", encoding="utf-8") as handle:
        handle.write("{}\n")
    assert "log" in watcher.changes()


def test_a_folder_deleted_and_made_again_is_a_change(example: Path) -> None:
    import shutil

    watcher = Watcher(ForgeDir(example), None, [])
    watcher.changes()
    shutil.rmtree(example / ".forge")
    assert "graph" in watcher.changes()
    (example / ".forge").mkdir()
    assert "graph" in watcher.changes()
