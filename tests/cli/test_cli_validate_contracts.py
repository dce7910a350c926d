"""``forge validate --contract`` and automatic contracts, run as the installed console script."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forge_testing import RunForge


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


TREE = {
    "src/api.ts": "export function getUserById(id: string) { return id; }\nexport default 1;\n",
    "src/app.ts": "import {\n  getUser,\n  getUserById,\n} from './api.js';\nimport * as api from './api';\napi.remove();\n",
}


def test_contract_failure_lists_each_missing_name_at_its_place(
    run_forge: RunForge, project: Path
) -> None:
    write(project, TREE)
    completed = run_forge("validate", "--contract", "src/api.ts:src/app.ts")
    assert completed.returncode == 1, completed.stdout
    lines = completed.stdout.splitlines()
    assert lines[0].startswith("FAIL contract_check  src/api.ts -> src/app.ts: 2 names")
    assert lines[1:3] == [
        "src/app.ts:2:3: 'getUser' is not exported by src/api.ts (did you mean 'getUserById'?)",
        "src/app.ts:6:5: 'remove' is not exported by src/api.ts",
    ]


def test_files_get_automatic_contracts_unless_turned_off(
    run_forge: RunForge, project: Path
) -> None:
    write(project, TREE)
    completed = run_forge("validate", "--files", "src/app.ts", "--json")
    assert completed.returncode == 1
    contracts = [
        r for r in json.loads(completed.stdout)["results"] if r["type"] == "contract_check"
    ]
    assert [(r["target"], r["automatic"], r["missing"]) for r in contracts] == [
        ("src/api.ts -> src/app.ts", True, ["getUser", "remove"])
    ]
    assert contracts[0]["exportedNames"] == ["default", "getUserById"]
    assert contracts[0]["importedNames"] == ["getUser", "getUserById", "remove"]

    completed = run_forge("validate", "--files", "src/app.ts", "--no-auto-contracts", "--json")
    assert completed.returncode == 0, completed.stdout
    types = [r["type"] for r in json.loads(completed.stdout)["results"]]
    assert types == ["file_check", "syntax_check"]


def test_a_kept_contract_passes(run_forge: RunForge, project: Path) -> None:
    write(project, {"lib.py": "def greet():\n    pass\n", "app.py": "from lib import greet\n"})
    completed = run_forge("validate", "--contract", "lib.py:app.py")
    assert completed.returncode == 0, completed.stdout
    assert completed.stdout.startswith(
        "PASS contract_check  lib.py -> app.py: all 1 imported name exported"
    )


def test_a_malformed_contract_is_a_usage_error(run_forge: RunForge) -> None:
    completed = run_forge("validate", "--contract", "only-one-side.ts")
    assert completed.returncode == 2
    assert "expected EXPORTER:IMPORTER" in completed.stderr
