"""The ``unknown_check`` rule: an acceptance criterion naming a check that does not exist."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from forge_testing import forge_executable

Make = Callable[..., dict[str, object]]


def _plan_check(project: Path, env: dict[str, str] | None = None) -> list[str]:
    done = subprocess.run(
        [forge_executable(), "plan", "check", "plan.json"],
        cwd=project,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.splitlines()


def test_a_misspelt_check_id_is_an_error_naming_the_closest_check(
    project: Path, make_module: Make
) -> None:
    criteria = [{"check": "syntax_check"}, {"check": "contract_chek", "blocking": False}]
    plan = {"modules": [make_module("api", acceptance_criteria=criteria)]}
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    lines = _plan_check(project, env={"FORGE_DISABLE_PLUGINS": ""})  # every plugin enabled
    assert lines == [
        'plan.json: error: module "api": acceptance_criteria[1].check "contract_chek" is '
        "neither a forge check nor a program on PATH (did you mean 'contract_check'?)  "
        "[unknown_check]",
        "1 plan checked: 1 invalid (1 error, 0 warnings)",
    ]


def test_an_unknown_id_with_no_close_check_lists_the_checks_and_the_disabled_plugins(
    project: Path, make_module: Make
) -> None:
    """stub_check is forge-stubs': disabled here (FORGE_DISABLE_PLUGINS=stubs,types), validate
    would run it as a command and fail the module, so the plan says so now."""
    criteria = [{"check": "stub_check"}, {"check": "zzz_qqq"}]
    plan = {"modules": [make_module("api", acceptance_criteria=criteria)]}
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    errors = _plan_check(project)[:-1]
    assert len(errors) == 2
    assert errors[0].startswith(
        'plan.json: error: module "api": acceptance_criteria[0].check "stub_check" is neither '
        "a forge check nor a program on PATH"
    )
    assert "plugins disabled here: stubs, types" in errors[0]
    assert errors[1].endswith("[unknown_check]")
    assert "the checks are: command, contract_check, cwd_check, file_check" in errors[1]
    assert "acceptance," not in errors[1]  # the core's own result, never a criterion's check
    enabled = _plan_check(project, env={"FORGE_DISABLE_PLUGINS": ""})
    assert len(enabled) == 2 and '"zzz_qqq"' in enabled[0]


def test_a_program_on_path_with_a_check_like_name_is_a_command(
    project: Path, make_module: Make, tmp_path: Path
) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    script = tools / "run_tests"
    script.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    script.chmod(0o755)
    plan = {"modules": [make_module("api", acceptance_criteria=[{"check": "run_tests"}])]}
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    path = f"{tools}{os.pathsep}{os.environ['PATH']}"
    assert _plan_check(project, env={"PATH": path})[-1] == "1 plan checked: valid (0 warnings)"
    assert "[unknown_check]" in _plan_check(project)[0]
