"""Runs and plans found without moving anything; the newest run by default."""

from __future__ import annotations

import json
import os
from pathlib import Path

from forge_testing import RunForge

from forge.ui.reading import PeekingForgeDir, list_runs, plan_path_of, read_plan

PLAN = ".forge/plans/quickstart.json"


def test_runs_newest_first_with_the_run_less_one_and_no_process_log(
    example: Path, run_forge: RunForge
) -> None:
    forge = example / ".forge"
    run_forge("validate", "--plan", PLAN, "--all")  # no run id: iterations/ and logs/cli.jsonl
    (forge / "logs" / "serve-20260101T000000Z-1.jsonl").write_text("{}\n", encoding="utf-8")
    (forge / "state" / "later.json").write_text("{}", encoding="utf-8")
    (forge / "iterations" / "not a run id").mkdir()  # put there by hand: no run
    old = 1_700_000_000
    for path in (forge / "iterations" / "demo", forge / "logs" / "demo.jsonl"):
        os.utime(path, (old, old))
    runs, notices = list_runs(PeekingForgeDir(example))
    assert [run.id for run in runs] == ["later", "", "demo"]
    assert runs[1].label == "no run id" and notices == []


def test_a_run_less_history_at_an_earlier_forges_place_is_read_where_it_is(
    project: Path,
) -> None:
    moved = project / ".forge" / "modules" / "old.json"
    moved.parent.mkdir(parents=True)
    moved.write_text(json.dumps({"moduleId": "old", "attempts": []}), encoding="utf-8")
    forge_dir = PeekingForgeDir(project)
    assert forge_dir.iteration("old", None) == moved
    assert forge_dir.iteration("new", None) == project / ".forge" / "iterations" / "new.json"
    assert [run.id for run in list_runs(forge_dir)[0]] == [""]
    assert moved.is_file() and not (project / ".forge" / "iterations").exists()


def test_the_plan_of_a_run_is_its_sessions_then_status_then_the_newest(
    example: Path, run_forge: RunForge
) -> None:
    forge_dir = PeekingForgeDir(example)
    other = example / "elsewhere.json"
    other.write_text((example / PLAN).read_text(encoding="utf-8"), encoding="utf-8")
    assert plan_path_of(forge_dir, "demo", None) == example / PLAN  # the newest plan
    run_forge("validate", "--plan", "elsewhere.json", "--module", "greeter", "--run-id", "demo")
    from forge.state.status_file import read_status

    assert plan_path_of(forge_dir, "demo", read_status(forge_dir)) == other  # status.json's
    (example / ".forge" / "state" / "demo.json").write_text(
        json.dumps({"planPath": PLAN}), encoding="utf-8"
    )
    assert plan_path_of(forge_dir, "demo", read_status(forge_dir)) == example / PLAN
    plan, problems = read_plan(example / PLAN)
    assert plan is not None and problems == []


def test_unreadable_folders_are_notices_not_failures(project: Path) -> None:
    forge = project / ".forge"
    forge.mkdir()
    (forge / "iterations").write_text("not a folder", encoding="utf-8")
    (forge / "logs").symlink_to("/etc")
    runs, notices = list_runs(PeekingForgeDir(project))
    assert runs == []
    assert any("iterations" in n for n in notices) and any("logs" in n for n in notices)
