"""``forge hook``: real Claude Code hook events on stdin, the installed ``forge`` deciding.

Each event carries the fields Claude Code sends (``session_id``,
``transcript_path``, ``cwd``, ``permission_mode``, ``hook_event_name``, and
``tool_name``/``tool_input``/``tool_response`` or ``stop_hook_active``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from forge_testing import forge_executable, post_tool_use, run_hook, stop

PLAN = {
    "modules": [
        {
            "id": "api",
            "title": "API",
            "objective": "total() returns 2",
            "files": ["api.py", "app.py"],
            # -B: tests rewrite api.py within a second at the same size, which a
            # cached .pyc (keyed by mtime seconds and size) would hide.
            "verify": [f"{sys.executable} -B -c 'import api; assert api.total() == 2'"],
            "doneWhen": "the verify command passes",
        }
    ]
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def forge_project(root: Path, *, total: int = 1) -> None:
    """A project with a plan whose module ``api`` passes when ``total()`` returns 2."""
    write(root / ".forge" / "plans" / "plan.json", json.dumps(PLAN))
    write(root / "api.py", f"def total():\n    return {total}\n")
    write(root / "app.py", "from api import total\n\nprint(total())\n")


def attempts(root: Path, run_id: str = "run-1", module: str = "api") -> int:
    path = root / ".forge" / "iterations" / run_id / f"{module}.json"
    return len(json.loads(path.read_text(encoding="utf-8"))["attempts"]) if path.exists() else 0


WORKER = {"FORGE_MODULE_ID": "api", "FORGE_RUN_ID": "run-1"}


# --- PostToolUse -----------------------------------------------------------------------


def test_a_broken_write_is_blocked_with_the_file_and_place_named(project: Path) -> None:
    bad = write(project / "src" / "calc.py", "def add(a, b:\n    return a + b\n")
    decision, _ = run_hook(
        post_tool_use(project, "Write", {"file_path": str(bad), "content": bad.read_text()}),
        cwd=project,
    )
    assert decision is not None and decision["decision"] == "block"
    assert "src/calc.py:1:" in decision["reason"]
    assert "missing `)`" in decision["reason"] or "never closed" in decision["reason"]


def test_a_good_write_is_allowed_silently(project: Path) -> None:
    good = write(project / "calc.py", "def add(a, b):\n    return a + b\n")
    decision, stderr = run_hook(
        post_tool_use(project, "Write", {"file_path": str(good), "content": good.read_text()}),
        cwd=project,
    )
    assert decision is None
    assert stderr == ""


def test_work_in_progress_checks_wait_for_the_stop(project: Path) -> None:
    """forge-stubs does not declare ``judges_edits``: a placeholder mid-edit is not blocked."""
    write(project / "helpers.py", "def x():\n    return 1\n")
    # A project import: not the standalone shortcut, the declared checks run.
    draft = write(project / "calc.py", "from helpers import x\n\n\ndef add(a, b):\n    pass\n")
    decision, stderr = run_hook(
        post_tool_use(project, "Write", {"file_path": str(draft), "content": draft.read_text()}),
        cwd=project,
        env={"FORGE_DISABLE_PLUGINS": "types"},
    )
    assert decision is None, decision
    assert stderr == ""


def test_an_edit_importing_a_name_its_neighbour_does_not_export_is_blocked(project: Path) -> None:
    write(project / "api.py", "def total():\n    return 1\n")
    app = write(project / "app.py", "from api import totals\n")
    decision, _ = run_hook(
        post_tool_use(
            project,
            "Edit",
            {"file_path": str(app), "old_string": "total", "new_string": "totals"},
        ),
        cwd=project,
    )
    assert decision is not None and decision["decision"] == "block"
    assert (
        "app.py:1:17: 'totals' is not exported by api.py (did you mean 'total'?)"
        in (decision["reason"])
    )


def test_an_edit_that_breaks_a_listed_importer_is_blocked_at_the_importer(project: Path) -> None:
    forge_project(project)
    api = write(project / "api.py", "def grand_total():\n    return 2\n")
    decision, _ = run_hook(
        post_tool_use(project, "MultiEdit", {"file_path": "api.py", "edits": []}),
        cwd=project,
        env=WORKER,
    )
    assert decision is not None and decision["decision"] == "block"
    assert "app.py:1:17: 'total' is not exported by api.py" in decision["reason"]
    # Without the module, app.py is still one of the project's importers of api.py
    # (issue 27: it used to be let through).
    decision, _ = run_hook(
        post_tool_use(project, "Write", {"file_path": str(api), "content": ""}), cwd=project
    )
    assert decision is not None and "app.py:1:17: 'total'" in decision["reason"]


TWO_MODULES = {
    "modules": [
        {
            "id": "math",
            "title": "Math",
            "objective": "total()",
            "files": ["src/mathutil.py"],
            "verify": ["true"],
            "doneWhen": "it adds",
        },
        {
            "id": "report",
            "title": "Report",
            "objective": "a report of totals",
            "files": ["src/report.py"],
            "verify": ["true"],
            "doneWhen": "it reports",
            "dependsOn": ["math"],
        },
    ]
}


@pytest.mark.parametrize("worker", [True, False])
def test_an_edit_that_breaks_another_modules_importer_is_blocked_naming_it(
    project: Path, worker: bool
) -> None:
    """Issue 27: a worker renames ``total`` in its module's file while another
    module's file (and a file of no module) imports it."""
    write(project / ".forge" / "plans" / "plan.json", json.dumps(TWO_MODULES))
    write(project / "src" / "report.py", "from mathutil import total\n\nprint(total([1]))\n")
    write(project / "src" / "legacy.py", "import mathutil\n\nmathutil.total([2])\n")
    write(project / "src" / "other.py", "import json\n\nprint(json.dumps('total'))\n")
    edited = write(project / "src" / "mathutil.py", "def sum_all(xs):\n    return sum(xs)\n")
    decision, _ = run_hook(
        post_tool_use(project, "Edit", {"file_path": str(edited)}),
        cwd=project,
        env={"FORGE_MODULE_ID": "math", "FORGE_RUN_ID": "run-1"} if worker else {},
    )
    assert decision is not None and decision["decision"] == "block", decision
    reason = decision["reason"]
    assert "src/report.py:1:" in reason and "'total' is not exported by src/mathutil.py" in reason
    assert "module report" in reason, reason
    assert "src/legacy.py:3:" in reason, reason
    assert "other.py" not in reason


def test_an_edit_that_keeps_its_importers_whole_is_allowed(project: Path) -> None:
    write(project / ".forge" / "plans" / "plan.json", json.dumps(TWO_MODULES))
    write(project / "src" / "report.py", "from mathutil import total\n\nprint(total([1]))\n")
    edited = write(project / "src" / "mathutil.py", "def total(xs):\n    return sum(xs) + 0\n")
    decision, stderr = run_hook(
        post_tool_use(project, "Edit", {"file_path": str(edited)}),
        cwd=project,
        env={"FORGE_MODULE_ID": "math"},
    )
    assert decision is None and stderr == ""


def test_a_fifo_among_the_projects_sources_does_not_hang_the_importer_search(
    project: Path,
) -> None:
    """A FIFO named like a source file is no importer: opening it would block for good."""
    write(project / ".forge" / "plans" / "plan.json", json.dumps(TWO_MODULES))
    write(project / "src" / "report.py", "from mathutil import total\n\nprint(total([1]))\n")
    os.mkfifo(project / "src" / "pipe.py")
    edited = write(project / "src" / "mathutil.py", "def sum_all(xs):\n    return sum(xs)\n")
    completed = subprocess.run(
        [forge_executable(), "hook"],
        input=json.dumps(post_tool_use(project, "Edit", {"file_path": str(edited)})),
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "src/report.py:1:" in json.loads(completed.stdout)["reason"]


def test_the_neighbours_come_from_the_session_worktree_too(project: Path) -> None:
    forge_project(project)
    worktree = project / "wt-api"
    forge_project(worktree)
    write(
        project / ".forge" / "state" / "run-1.json",
        json.dumps({"runId": "run-1", "worktrees": {"api": "wt-api"}}),
    )
    write(worktree / "api.py", "def grand_total():\n    return 2\n")
    decision, _ = run_hook(
        post_tool_use(worktree, "Edit", {"file_path": str(worktree / "api.py")}), cwd=worktree
    )
    assert decision is not None and "app.py:1:17: 'total'" in decision["reason"]


def test_codex_apply_patch_names_its_files_in_the_patch(project: Path) -> None:
    write(project / "util.py", "def helper(:\n")
    patch = "*** Begin Patch\n*** Add File: util.py\n+def helper(:\n*** End Patch\n"
    decision, _ = run_hook(post_tool_use(project, "apply_patch", {"command": patch}), cwd=project)
    assert decision is not None and "util.py:1:" in decision["reason"]


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("Bash", {"command": "echo 'def f(:' > broken.py"}),
        ("Read", {"file_path": "broken.py"}),
        ("Write", {"file_path": "notes.txt", "content": "def f(:"}),
        ("Write", {"file_path": "missing.py", "content": ""}),
        ("TodoWrite", {"todos": []}),
    ],
)
def test_other_tools_and_unknown_files_are_allowed_silently(
    project: Path, tool: str, tool_input: dict[str, Any]
) -> None:
    write(project / "broken.py", "def f(:\n")
    write(project / "notes.txt", "def f(:\n")
    decision, stderr = run_hook(post_tool_use(project, tool, tool_input), cwd=project)
    assert decision is None
    assert stderr == ""


def test_an_edit_is_checked_without_writing_anything(project: Path) -> None:
    bad = write(project / "calc.py", "def add(:\n")
    run_hook(post_tool_use(project, "Write", {"file_path": str(bad)}), cwd=project)
    assert not (project / ".forge").exists()


# --- Stop / SubagentStop ---------------------------------------------------------------


def test_a_failing_modules_subagent_stop_is_blocked_with_a_summary(project: Path) -> None:
    forge_project(project)
    decision, _ = run_hook(stop(project), cwd=project, env=WORKER)
    assert decision is not None and decision["decision"] == "block"
    reason = decision["reason"]
    assert "module api fails" in reason and "attempt 1 of 3 -> RETRY" in reason
    assert "FAIL command" in reason and "AssertionError" in reason
    assert attempts(project) == 1


def test_a_passing_modules_stop_is_allowed_and_recorded(project: Path) -> None:
    forge_project(project, total=2)
    decision, _ = run_hook(stop(project, event="Stop"), cwd=project, env=WORKER)
    assert decision is None
    assert attempts(project) == 1
    status = json.loads((project / ".forge" / "status.json").read_text(encoding="utf-8"))
    assert status["runId"] == "run-1"


def test_escalate_allows_the_stop_with_the_reason(project: Path) -> None:
    forge_project(project)
    write(project / "pyproject.toml", "[tool.forge]\nmax-attempts = 1\n")
    decision, _ = run_hook(stop(project), cwd=project, env=WORKER)
    assert decision is not None and "decision" not in decision
    assert "-> ESCALATE" in decision["systemMessage"]
    assert "a person must look" in decision["systemMessage"]


def test_stops_after_an_escalation_never_count_past_the_limit(project: Path) -> None:
    """Issue 27: Claude Code fires Stop at the end of every turn; once a module has
    escalated, stops with nothing changed record no attempt, and none says "2 of 1"."""
    forge_project(project)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    write(project / "pyproject.toml", "[tool.forge]\nmax-attempts = 1\n")
    messages = []
    for _ in range(3):
        decision, _ = run_hook(stop(project), cwd=project, env=WORKER)
        assert decision is not None and "decision" not in decision  # allowed: escalated
        messages.append(decision["systemMessage"])
    assert attempts(project) == 1
    assert "attempt 1 of 1 -> ESCALATE" in messages[0]
    assert "escalated" in messages[1] and "nothing changed" in messages[1], messages[1]
    # A change is a new try: validated again, and said as what it is.
    write(project / "api.py", "def total():\n    return 3\n")
    decision, _ = run_hook(stop(project), cwd=project, env=WORKER)
    assert decision is not None and attempts(project) == 2
    messages.append(decision["systemMessage"])
    for message in messages:
        assert not re.search(r"attempt (\d+) of (\d+)", message) or all(
            int(n) <= int(m) for n, m in re.findall(r"attempt (\d+) of (\d+)", message)
        ), message
    assert "attempt 2, past the limit of 1" in messages[-1], messages[-1]


def test_a_repeated_stop_with_nothing_changed_is_not_looped(project: Path) -> None:
    forge_project(project)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    first, _ = run_hook(stop(project), cwd=project, env=WORKER)
    assert first is not None and first["decision"] == "block"
    again, _ = run_hook(stop(project, active=True), cwd=project, env=WORKER)
    assert again is not None and "decision" not in again
    assert "nothing changed" in again["systemMessage"]
    assert attempts(project) == 1  # not validated again
    # An untracked file the agent adds is a change: the stop is validated again.
    write(project / "notes.md", "tried something\n")
    third, _ = run_hook(stop(project, active=True), cwd=project, env=WORKER)
    assert third is not None and "attempt 2 of 3" in third["systemMessage"]
    assert attempts(project) == 2


def test_a_fixed_module_stops_after_a_block(project: Path) -> None:
    forge_project(project)
    blocked, _ = run_hook(stop(project), cwd=project, env=WORKER)
    assert blocked is not None and blocked["decision"] == "block"
    write(project / "api.py", "def total():\n    return 2\n")
    decision, _ = run_hook(stop(project, active=True), cwd=project, env=WORKER)
    assert decision is None
    assert attempts(project) == 2
    assert not (project / ".forge" / "hook" / "run-1" / "api.json").exists()


def worker_worktree(project: Path) -> Path:
    """``project`` committed on main, and module api's worktree ../wt-api recorded in run-7."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=project, check=True)
    write(project / ".gitignore", ".forge/\n")
    subprocess.run([*git, "add", "-A"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=project, check=True)
    worktree = project.parent / "wt-api"
    subprocess.run(
        [*git, "worktree", "add", "-q", str(worktree), "-b", "forge/api"], cwd=project, check=True
    )
    session = {
        "runId": "run-7",
        "planPath": ".forge/plans/plan.json",
        "worktrees": {"api": "../wt-api"},
    }
    write(project / ".forge" / "state" / "run-7.json", json.dumps(session))
    return worktree


def test_a_worker_in_a_git_worktree_is_found_from_the_session_state(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No FORGE_* variables at all: the main checkout's .forge and the session's worktrees."""
    monkeypatch.delenv("FORGE_CWD")
    forge_project(project)
    worktree = worker_worktree(project)
    (worktree / "src").mkdir()
    decision, _ = run_hook(stop(worktree / "src"), cwd=worktree / "src")
    assert decision is not None and decision["decision"] == "block"
    assert attempts(project, "run-7") == 1
    # The orchestrator in the main checkout owns no module: its stop is not checked.
    decision, _ = run_hook(stop(project, event="Stop"), cwd=project)
    assert decision is None
    assert attempts(project, "run-7") == 1


def test_an_edit_of_another_modules_file_is_blocked_naming_both_modules(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker in its worktree (found from the session) writes the file module db owns."""
    monkeypatch.delenv("FORGE_CWD")
    plan = {
        "modules": [
            {**PLAN["modules"][0], "mayChange": ["notes/*.md"]},
            {**PLAN["modules"][0], "id": "db", "files": ["db.py"], "verify": ["true"]},
        ]
    }
    write(project / ".forge" / "plans" / "plan.json", json.dumps(plan))
    write(project / "api.py", "def total():\n    return 1\n")
    write(project / "db.py", "def store():\n    return 1\n")
    worktree = worker_worktree(project)
    own = write(worktree / "api.py", "def total():\n    return 2\n")
    note = write(worktree / "notes" / "api.md", "why\n")
    other = write(worktree / "db.py", "def store():\n    return 2\n")
    for allowed in (own, note):
        decision, _ = run_hook(
            post_tool_use(worktree, "Write", {"file_path": str(allowed)}), cwd=worktree
        )
        assert decision is None, decision
    decision, _ = run_hook(post_tool_use(worktree, "Edit", {"file_path": str(other)}), cwd=worktree)
    assert decision is not None and decision["decision"] == "block"
    assert "db.py: changed (not committed) outside module api's lane" in decision["reason"]
    assert "it belongs to module db" in decision["reason"]


def test_a_stop_outside_any_forge_project_is_allowed_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORGE_CWD", raising=False)
    decision, stderr = run_hook(stop(tmp_path, event="Stop"), cwd=tmp_path)
    assert decision is None and stderr == ""


# --- forge's own failures allow --------------------------------------------------------


def test_a_crash_of_forge_allows_with_one_line_on_stderr(project: Path) -> None:
    forge_project(project)
    write(project / "pyproject.toml", "[tool.forge]\nmax-attempts = 'many'\n")
    bad = write(project / "calc.py", "def add(:\n")
    for event, env in (
        (stop(project), WORKER),
        (post_tool_use(project, "Write", {"file_path": str(bad)}), {}),
    ):
        decision, stderr = run_hook(event, cwd=project, env=env)
        assert decision is None
        assert stderr.count("\n") == 1
        assert stderr.startswith("forge hook: allowed without checking:")
        assert "max-attempts" in stderr


@pytest.mark.parametrize(
    ("stdin", "env", "says"),
    [
        ("not json", {}, "not a JSON hook event"),
        ("[1, 2]", {}, "not a JSON object"),
        (
            json.dumps({"hook_event_name": "Stop", "cwd": "."}),
            {"FORGE_MODULE_ID": "nope"},
            "no usable module 'nope'",
        ),
        (
            json.dumps({"hook_event_name": "Stop"}),
            {"FORGE_MODULE_ID": "api", "FORGE_RUN_ID": "../x"},
            "not a valid run id",
        ),
        (
            json.dumps({"hook_event_name": "Stop"}),
            {"FORGE_MODULE_ID": "api", "FORGE_PLAN": "missing.json"},
            "no such file",
        ),
    ],
)
def test_a_bad_event_or_setup_allows_with_the_reason(
    project: Path, stdin: str, env: dict[str, str], says: str
) -> None:
    forge_project(project)
    completed = subprocess.run(
        [forge_executable(), "hook"],
        input=stdin,
        cwd=project,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0
    assert completed.stdout == ""
    assert says in completed.stderr and completed.stderr.count("\n") == 1


@pytest.mark.parametrize("name", ["SessionStart", "UserPromptSubmit", "Notification"])
def test_unknown_events_are_allowed_silently(project: Path, name: str) -> None:
    forge_project(project)
    event = {**stop(project), "hook_event_name": name, "source": "startup"}
    # FORGE_DAEMON=0: SessionStart would start a daemon that outlives the test by 30
    # minutes (the daemon it starts: tests/cli/test_cli_daemon.py).
    decision, stderr = run_hook(event, cwd=project, env={**WORKER, "FORGE_DAEMON": "0"})
    assert decision is None and stderr == ""
    assert attempts(project) == 0


def test_the_hook_does_not_import_mcp(project: Path) -> None:
    bad = write(project / "calc.py", "def add(:\n")
    script = (
        "import io, sys\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(post_tool_use(project, 'Write', {'file_path': str(bad)})).encode()!r}))\n"
        "from forge.cli import main\n"
        "main(['hook'])\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')), file=sys.stderr)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert '"decision": "block"' in completed.stdout
    assert completed.stderr.strip() == "[]"


# --- the cheap answer for a clean stand-alone Python file ------------------------------

LOADED = """
import io, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from forge.cli import main
main(["hook"])
heavy = ("forge.validate.run", "pydantic", "tree_sitter", "mcp", "forge.plugin_host.entry_points",
         "forge.plugin_host.pydantic_lookup", "dataclasses", "hashlib", "threading")
print(sorted(name for name in heavy if name in sys.modules), file=sys.stderr)
"""


def loaded_after(
    event: dict[str, Any], cwd: Path, env: dict[str, str] | None = None
) -> tuple[str, list[str]]:
    """Run the hook in a fresh interpreter: its stdout, and which heavy modules it imported."""
    # -I: the project's own json.py must not shadow the standard library for forge itself.
    completed = subprocess.run(
        [sys.executable, "-I", "-c", LOADED, json.dumps(event)],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return completed.stdout, json.loads(completed.stderr.strip().replace("'", '"'))


def test_a_clean_standalone_python_file_is_allowed_without_loading_the_checks(
    project: Path,
) -> None:
    good = write(project / "tool.py", "import json\nfrom os import path\n\nprint(json, path)\n")
    out, heavy = loaded_after(post_tool_use(project, "Write", {"file_path": str(good)}), project)
    assert out == "" and heavy == []


@pytest.mark.parametrize(
    ("files", "why"),
    [
        (
            {"app.py": "from json import dumps\n", "json.py": "def loads(t):\n    return t\n"},
            "a project file shadows the standard library module",
        ),
        (
            {"app.py": "from .util import helper\n", "util.py": "def other():\n    pass\n"},
            "a relative import",
        ),
        ({"app.py": "import requestz\n"}, "a package outside the standard library"),
        ({"app.py": "def f(:\n"}, "CPython rejects it"),
    ],
)
def test_anything_but_a_clean_standalone_file_gets_the_checks(
    project: Path, files: dict[str, str], why: str
) -> None:
    for name, text in files.items():
        write(project / name, text)
    out, heavy = loaded_after(
        post_tool_use(project, "Write", {"file_path": str(project / "app.py")}), project
    )
    assert "forge.validate.run" in heavy, why
    if "json.py" in files:
        assert "'dumps' is not exported by json.py" in out


def test_a_module_file_gets_the_checks_even_when_clean(project: Path) -> None:
    forge_project(project)
    good = write(project / "tool.py", "import json\n")
    event = post_tool_use(project, "Write", {"file_path": str(good)})
    assert loaded_after(event, project)[1] == []  # no module: FORGE_MODULE_ID is not set
    assert "forge.validate.run" in loaded_after(event, project, env=WORKER)[1]


def test_checks_that_do_not_judge_edits_are_not_even_run(project: Path) -> None:
    """forge-stubs' check waits for the stop: an edit never runs (nor imports) its detector."""
    write(project / "helpers.py", "def x():\n    return 1\n")
    draft = write(project / "calc.py", "from helpers import x\n\n\ndef add(a, b):\n    pass\n")
    script = LOADED.replace(
        '("forge.validate.run", "pydantic", "tree_sitter", "mcp", "forge.plugin_host.entry_points",\n'
        '         "forge.plugin_host.pydantic_lookup", "dataclasses", "hashlib", "threading")',
        '("forge.validate.run", "forge_stubs.plugin", "forge_stubs.detect")',
    )
    completed = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            script,
            json.dumps(post_tool_use(project, "Write", {"file_path": str(draft)})),
        ],
        cwd=project,
        env={**os.environ, "FORGE_DISABLE_PLUGINS": "types"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert completed.stdout == ""  # allowed
    # Its plugin declares its check (the catalog needs it); its detector never runs.
    assert completed.stderr.strip() == "['forge.validate.run', 'forge_stubs.plugin']"


# --- a file too large to judge ----------------------------------------------------------


def _huge_python(path: Path) -> Path:
    """About 20 MB of valid Python importing only the standard library: 400,000 assignments."""
    pad = "#" * 38
    path.write_text(
        "import os\n" + "".join(f"x_{n} = {n}  {pad}\n" for n in range(400_000)), "utf-8"
    )
    assert path.stat().st_size > 20_000_000
    return path


def _timed_hook(event: dict[str, Any], cwd: Path) -> tuple[dict[str, Any] | None, float]:
    started = time.monotonic()
    decision, stderr = run_hook(event, cwd=cwd)
    assert stderr == ""
    return decision, time.monotonic() - started


@pytest.mark.parametrize("where", ["a plain folder", "a forge project, imported by app.py"])
def test_a_file_over_the_parse_limit_is_answered_in_time_as_not_judged(
    project: Path, where: str
) -> None:
    """CPython's parse of a 20 MB file took the hook 5 to 40 s (its budget is 2 s, Claude
    Code's timeout 30 s); in a project its importer's contract check failed ("cannot
    check"), blocking an edit forge never judged. Over the limit: neither, and it says so."""
    if "project" in where:
        forge_project(project)
        write(project / "app.py", "from big import x_1\n\nprint(x_1)\n")
    big = _huge_python(project / "big.py")
    decision, seconds = _timed_hook(
        post_tool_use(project, "Write", {"file_path": str(big)}), project
    )
    assert seconds < 10, f"{seconds:.1f} s"  # generous: a loaded machine, a cold start
    assert decision is not None and "decision" not in decision  # allowed, not blocked
    message = decision["systemMessage"]
    assert message.startswith("forge: big.py not checked (too large to judge): ")
    assert "over the 5,242,880-byte parse limit ([tool.forge] max-parse-bytes)" in message


def test_the_configured_parse_limit_decides_what_is_too_large(project: Path) -> None:
    write(project / "pyproject.toml", "[tool.forge]\nmax-parse-bytes = 1000\n")
    small = write(project / "calc.py", "def add(a, b:\n" + "# padding\n" * 200)
    decision, _ = run_hook(post_tool_use(project, "Write", {"file_path": str(small)}), cwd=project)
    assert decision is not None and "decision" not in decision  # its syntax error unjudged
    assert "over the 1,000-byte parse limit" in decision["systemMessage"]
    write(project / "pyproject.toml", "[tool.forge]\nmax-parse-bytes = 100000\n")
    decision, _ = run_hook(post_tool_use(project, "Write", {"file_path": str(small)}), cwd=project)
    assert decision is not None and decision["decision"] == "block"


def test_an_edit_outside_the_lane_is_blocked_however_large_the_file(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lane check reads no file, only git: another module's file over the parse limit,
    written by a worker, still leaves the lane (it was allowed as "too large to judge")."""
    monkeypatch.delenv("FORGE_CWD")
    plan = {
        "modules": [
            PLAN["modules"][0],
            {**PLAN["modules"][0], "id": "db", "files": ["db.py"], "verify": ["true"]},
        ]
    }
    write(project / ".forge" / "plans" / "plan.json", json.dumps(plan))
    write(project / "pyproject.toml", "[tool.forge]\nmax-parse-bytes = 1000\n")
    write(project / "db.py", "def store():\n    return 1\n")
    worktree = worker_worktree(project)
    other = write(worktree / "db.py", "def store():\n    return 2\n" + "# padding\n" * 200)
    decision, _ = run_hook(post_tool_use(worktree, "Edit", {"file_path": str(other)}), cwd=worktree)
    assert decision is not None and decision.get("decision") == "block", decision
    assert "db.py: changed (not committed) outside module api's lane" in decision["reason"]
