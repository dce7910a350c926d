"""The smaller findings of the third new-user trial (issue 41), each through the installed CLI."""

from __future__ import annotations

import signal
from pathlib import Path

from forge_testing import RunForge, forge_executable, signal_as_soon_as_started, write_plan

CART = {"id": "cart", "title": "Shopping cart", "objective": "o", "files": ["cart.py"],
        "verify": ["false"], "doneWhen": "it works"}  # fmt: skip


def cart_plan(project: Path) -> Path:
    return write_plan(project, [CART], name="shop")


def test_report_merge_headings_use_the_plans_titles(run_forge: RunForge, project: Path) -> None:
    plan = cart_plan(project)
    (project / "cart.py").write_text("x = 1\n", encoding="utf-8")
    done = run_forge("validate", "--plan", str(plan), "--module", "cart", "--json", "-o", "c.json")
    assert done.returncode == 1, done.stderr
    merged = run_forge("report", "merge", "c.json", "--plan", str(plan))
    assert merged.returncode == 1
    assert "== cart: Shopping cart" in merged.stdout, merged.stdout
    bare = run_forge("report", "merge", "c.json")  # the twin: no plan, no title to give
    assert "== cart: cart" in bare.stdout, bare.stdout


def test_logs_of_a_module_that_does_not_exist_say_so(run_forge: RunForge, project: Path) -> None:
    cart_plan(project)
    (project / "cart.py").write_text("x = 1\n", encoding="utf-8")
    run_forge("validate", "--plan", ".forge/plans/shop.json", "--module", "cart", "--run-id", "r1")
    done = run_forge("logs", "--run-id", "r1", "--module", "crat")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "no module 'crat'" in done.stderr and "did you mean 'cart'?" in done.stderr
    assert done.stderr.count("\n") == 1
    known = run_forge("logs", "--run-id", "r1", "--module", "cart")  # the twin
    assert known.returncode == 0 and "validate" in known.stdout


def test_plan_check_of_a_missing_file_is_a_usage_error(run_forge: RunForge, project: Path) -> None:
    done = run_forge("plan", "check", "missing.json")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "missing.json" in done.stderr and "no such file" in done.stderr
    (project / "broken.json").write_text("{not json", encoding="utf-8")
    broken = run_forge("plan", "check", "broken.json")  # the twin: a plan, invalid
    assert broken.returncode == 1


def test_status_says_passed_where_validate_says_passed(run_forge: RunForge, project: Path) -> None:
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    done = run_forge("validate", "--files", "a.py", "--module-id", "ok", "--run-id", "r1")
    assert done.returncode == 0 and "PASSED" in done.stdout
    status = run_forge("status")
    row = next(line for line in status.stdout.splitlines() if line.startswith("ok "))
    assert row.split()[2] == "passed", status.stdout  # MODULE TITLE STATUS ...
    assert "1/1 passed" in status.stdout and " done" not in status.stdout


def test_an_interrupted_validate_leaves_no_lock_beside_no_history(project: Path) -> None:
    argv = [forge_executable(), "validate", "--module-id", "m", "--run-id", "r1",
            "--command", "sleep 41.5"]  # fmt: skip
    forge = signal_as_soon_as_started(argv, "sleep 41.5", signal.SIGINT, project)
    _, stderr = forge.communicate(timeout=60)
    assert forge.returncode == 130, stderr
    folder = project / ".forge" / "iterations" / "r1"
    assert not (folder / "m.json").exists()
    assert not folder.exists() or sorted(p.name for p in folder.iterdir()) == []
