"""``file_check``: one result per listed file, whatever the file is, never a crash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forge.config import ForgeConfig
from forge.models import ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.validate.run import Engine


def file_checks(project: Path, files: list[str]) -> dict[str, tuple[bool, str]]:
    engine = Engine(project, ForgeConfig(), build_plugin_host())
    report = engine.validate(ValidateRequest(module_id="m", files=files))
    assert not [r for r in report.results if r.type == "plugin_error"], report.results
    return {r.target: (r.passed, r.message) for r in report.results if r.type == "file_check"}


@pytest.mark.parametrize(
    ("name", "passed", "says"),
    [
        ("fifo", False, "is not a regular file"),
        ("folder", False, "is a directory, not a file"),
        ("dangling", False, "does not exist"),
        ("loop", False, "cannot be checked: Too many levels of symbolic links"),
        ("n" * 300, False, "cannot be checked: File name too long"),
        ("link", True, "exists"),
    ],
)
def test_each_kind_of_path_fails_alone(project: Path, name: str, passed: bool, says: str) -> None:
    (project / "a.txt").write_text("", encoding="utf-8")
    os.mkfifo(project / "fifo")
    (project / "folder").mkdir()
    (project / "dangling").symlink_to("nowhere")
    (project / "loop").symlink_to("loop")
    (project / "link").symlink_to(project / "a.txt")
    checks = file_checks(project, [name, "a.txt"])
    assert checks[name][0] is passed and says in checks[name][1]
    assert checks["a.txt"] == (True, "exists")


def test_a_trailing_slash_on_a_file_fails(project: Path) -> None:
    (project / "ok.py").write_text("", encoding="utf-8")
    (project / "src").mkdir()
    checks = file_checks(project, ["ok.py/", "ok.py", "src/"])
    assert checks["ok.py/"] == (
        False,
        f"{project / 'ok.py'} is a file, but 'ok.py/' names a directory",
    )
    assert checks["ok.py"] == (True, "exists")
    assert checks["src/"][0] is False and "is a directory, not a file" in checks["src/"][1]
