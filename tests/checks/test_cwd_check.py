"""``cwd_check``: a working dir that cannot be used halts the checks and records nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forge.config import ForgeConfig
from forge.models import ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.validate.run import Engine


@pytest.mark.parametrize(
    ("cwd", "says"),
    [
        ("missing", "does not exist"),
        ("file.txt", "is not a directory"),
        ("fifo", "is not a directory"),
        ("loop", "cannot be used (Too many levels of symbolic links)"),
        ("c" * 300, "cannot be used (File name too long)"),
    ],
)
def test_an_unusable_cwd_is_one_halting_failure(project: Path, cwd: str, says: str) -> None:
    (project / "file.txt").write_text("", encoding="utf-8")
    os.mkfifo(project / "fifo")
    (project / "loop").symlink_to("loop")
    engine = Engine(project, ForgeConfig(), build_plugin_host())
    report = engine.validate(
        ValidateRequest(module_id="m", cwd=cwd, files=["a.py"], commands=["true"])
    )
    [result] = report.results
    assert (result.type, result.passed) == ("cwd_check", False)
    assert says in result.message
    assert (report.attempt, report.recommendation) == (0, "ESCALATE")
    assert not (project / ".forge" / "iterations").exists()
