"""On two cores forge-types checks the base only when the work shows a diagnostic
(two checker runs at once compete there), through the installed CLI on a real repository."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from forge_testing import commit, forge_executable, git
from types_testing import type_result

CLEAN = {
    "pyproject.toml": '[project]\nname = "till"\nversion = "0"\n',
    "till/__init__.py": "",
    "till/prices.py": "def price(amount: int) -> str:\n    return f'{amount} EUR'\n",
    "till/checkout.py": (
        "from till.prices import price\n\n\ndef pay(amount: int) -> str:\n"
        "    return price(amount)\n"
    ),
}


def _edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _on_two_cores(root: Path, *args: str) -> dict[str, object]:
    """The type_check result of the installed ``forge`` run in ``root`` on (at most) two of
    this machine's cores."""
    cores = sorted(os.sched_getaffinity(0))[:2]
    done = subprocess.run(
        [forge_executable(), *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        preexec_fn=lambda: os.sched_setaffinity(0, cores),
    )
    return type_result(json.loads(done.stdout))


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="cores are set on Linux only")
def test_on_two_cores_a_work_that_shows_nothing_is_not_checked_at_the_base(tmp_path: Path) -> None:
    """Two checker runs at once compete on two cores: the base is checked only when the work
    shows a diagnostic that it could make old; a clean work passes alone."""
    root = tmp_path / "till"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, CLEAN, "till")
    git(root, "checkout", "-q", "-b", "feature")
    _edit(root, "till/prices.py", "EUR'\n", "EUR'\n\n\ndef free() -> str:\n    return price(0)\n")
    args = ("validate", "--files", "till/prices.py", "--base", "main", "--json")
    clean = _on_two_cores(root, *args)
    assert clean["passed"] and clean["newCount"] == 0, clean["message"]
    assert list((root / ".forge" / "cache" / "types").glob("*.json")) == []
    # Its twin: a new error needs the base to be told new from old, and is.
    _edit(root, "till/checkout.py", "price(amount)", "price(amount, 2)")
    broken = _on_two_cores(root, *args[:2], "till/prices.py", "till/checkout.py", *args[3:])
    assert not broken["passed"] and broken["newCount"] == 1, broken["message"]
    assert len(list((root / ".forge" / "cache" / "types").glob("*.json"))) == 1
