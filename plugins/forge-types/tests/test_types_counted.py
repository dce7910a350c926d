"""What counts without a base, and what a cancelled call leaves behind: real checkers."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from types_testing import run_forge_in


def type_result(completed: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The Python ``type_check`` result of a ``forge validate --json`` run."""
    report = json.loads(completed.stdout)
    (found,) = [r for r in report["results"] if r["type"] == "type_check"]
    return dict(found)


def test_without_a_base_a_member_missing_from_every_side_of_a_union_still_counts(
    shop: Path,
) -> None:
    """No narrowing makes ``value.bit_lenth()`` run when neither ``int`` nor ``str`` has it:
    pyrefly lists every member as missing it, and the typo fails as it does on an ``int``."""
    (shop / "shop" / "every.py").write_text(
        "def spelled(value: int | str) -> int:\n    return value.bit_lenth()\n\n\n"
        "def some(value: bytes | list[bytes] | None) -> str:\n    return value.decode()\n",
        encoding="utf-8",
    )
    done = run_forge_in(shop, "validate", "--files", "shop/every.py", "--json")
    result = type_result(done)
    assert result["checker"].startswith("pyrefly ")
    counted = [loc for loc in result["locations"] if not loc.get("informational")]
    assert [(loc["line"], loc["rule"]) for loc in counted] == [(2, "missing-attribute")]
    shown = [loc["line"] for loc in result["locations"] if loc.get("informational")]
    assert shown == [6], result["locations"]
    assert done.returncode == 1


def test_a_call_cancelled_while_the_checker_tells_its_version_leaves_no_version_behind(
    tmp_path: Path,
) -> None:
    """In a long-lived engine (the MCP server), a call cancelled while ``mypy --version``
    ran made its version "unknown" for every later call, until mypy was reinstalled."""
    import threading

    from forge.models import ValidateRequest
    from forge.runtime.cancellation import Cancelled, cancellable
    from forge.validate.run import Engine

    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n", encoding="utf-8")
    (tmp_path / "app.py").write_text("x: int = 1\n", encoding="utf-8")
    fake = tmp_path / ".venv" / "bin" / "mypy"
    fake.parent.mkdir(parents=True)
    fake.write_text(
        '#!/bin/sh\n[ "$1" = --version ] && { sleep 1; echo "mypy 1.2.3"; exit 0; }\nexit 0\n',
        encoding="utf-8",
    )
    fake.chmod(0o755)
    engine = Engine.for_project(tmp_path)
    request = ValidateRequest(module_id="m", files=["app.py"])
    with cancellable() as cancel:
        threading.Timer(0.3, cancel.set).start()
        with pytest.raises(Cancelled):
            engine.validate(request)
    report = engine.validate(request)
    (result,) = [r for r in report.results if r.type == "type_check"]
    assert getattr(result, "checker", None) == "mypy 1.2.3", result


def test_without_a_base_mypy_s_operator_on_no_optional_still_counts(shop: Path) -> None:
    """``1 + "a"`` raises TypeError whatever runs first: only an operand that may be None
    (an Optional not narrowed) is shown, not counted."""
    (shop / "pyproject.toml").write_text("[tool.mypy]\n", encoding="utf-8")
    (shop / "shop" / "ops.py").write_text(
        "def total(count: int | None) -> int:\n    return count + 1\n\n\n"
        'def broken() -> int:\n    return 1 + "a"\n',
        encoding="utf-8",
    )
    done = run_forge_in(shop, "validate", "--files", "shop/ops.py", "--json")
    result = type_result(done)
    assert result["checker"].startswith("mypy ")
    counted = [loc for loc in result["locations"] if not loc.get("informational")]
    assert [(loc["line"], loc["rule"]) for loc in counted] == [(6, "operator")]
    shown = [loc["line"] for loc in result["locations"] if loc.get("informational")]
    assert shown == [2], result["locations"]
    assert done.returncode == 1
