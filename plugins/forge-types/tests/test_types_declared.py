"""Files outside the checker configuration's declared scope (mypy's ``files``/``exclude``,
pyrefly's ``project-includes``/``project-excludes``, pyright's ``include``/``exclude``) are
judged by the "cannot run" rules only, not by the project's strictness."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from forge_testing import commit, git, plan_module, write_plan
from types_testing import run_forge_in, type_result

PRICES = (
    "def price(amount: int, currency: str = 'EUR') -> str:\n    return f'{amount} {currency}'\n"
)
TEST = (
    "from shop.prices import price\n\n\ndef test_price() -> None:\n    assert price(1) == '1 EUR'\n"
)
#: A test without annotations: mypy strict's no-untyped-def, and nothing that cannot run.
UNTYPED_TEST = "\n\ndef test_two():\n    assert price(2) == '2 EUR'\n"
#: A call with one argument too many: it cannot run, wherever it is.
WRONG_ARITY = "\n\ndef test_three() -> None:\n    assert price(3, 'EUR', 'x') == '3 EUR'\n"
UNTYPED_CODE = "\n\ndef untyped(amount):\n    return amount\n"

STRICT_FILES = '[tool.mypy]\nstrict = true\nfiles = ["shop"]\n'
STRICT_EXCLUDE = (
    '[tool.mypy]\nstrict = true\nfiles = ["shop", "tests"]\nexclude = ["^tests/fixtures/"]\n'
)
MYPY_INI = (
    "[mypy]\nstrict = True\nfiles = shop, tests\nexclude = (?x)(\n    ^tests/fixtures/\n  )\n"
)


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "shop"
    root.mkdir()
    git(root, "init", "-q")
    sources = {
        "pyproject.toml": '[project]\nname = "shop"\nversion = "0"\n',
        "shop/__init__.py": "",
        "shop/prices.py": PRICES,
        "tests/test_prices.py": TEST,
        "tests/fixtures/make.py": TEST,
    }
    for name, text in files.items():
        sources[name] = sources.get(name, "") + text
    commit(root, sources, "shop")
    git(root, "checkout", "-q", "-b", "work")
    return root


def _validate(root: Path, file: str, added: str) -> tuple[int, dict[str, Any]]:
    """``added`` appended to ``file``, validated against main; the working tree restored."""
    path = root / file
    try:
        path.write_text(path.read_text(encoding="utf-8") + added, encoding="utf-8")
        done = run_forge_in(root, "validate", "--files", file, "--base", "main", "--json")
        return done.returncode, type_result(json.loads(done.stdout))
    finally:
        git(root, "checkout", "-q", "--", ".")


@pytest.mark.parametrize(
    ("config", "outside", "inside", "said"),
    [
        ({"pyproject.toml": STRICT_FILES}, "tests/test_prices.py", "shop/prices.py",
         "files = shop in pyproject.toml [tool.mypy]"),
        ({"pyproject.toml": STRICT_EXCLUDE}, "tests/fixtures/make.py", "tests/test_prices.py",
         "exclude = ^tests/fixtures/ in pyproject.toml [tool.mypy]"),
        ({"mypy.ini": MYPY_INI}, "tests/fixtures/make.py", "tests/test_prices.py",
         "in mypy.ini [mypy]"),
    ],
    ids=["pyproject-files", "pyproject-exclude", "mypy-ini"],
)  # fmt: skip
def test_mypy_s_strictness_does_not_judge_files_it_never_checks(
    tmp_path: Path, config: dict[str, str], outside: str, inside: str, said: str
) -> None:
    """A strict mypy whose ``files`` leave the tests out counted a new untyped test as a new
    error, failing an honest edit the project's own mypy never sees."""
    root = _project(tmp_path, config)
    code, result = _validate(root, outside, UNTYPED_TEST)
    assert result["checker"].startswith("mypy "), result
    assert [(loc["rule"], loc.get("informational")) for loc in result["locations"]] == [
        ("no-untyped-def", True)
    ], result["locations"]
    assert code == 0 and result["newCount"] == 0, result["message"]
    assert result["passed"] is True and not result.get("preExisting"), result
    assert "outside mypy's scope" in result["message"] and said in result["message"], result
    # Out of scope, what cannot run still fails.
    code, result = _validate(root, outside, WRONG_ARITY)
    assert code == 1 and [loc["rule"] for loc in result["locations"]] == ["call-arg"], result
    # The honest twin: the same kind of edit inside the scope fails.
    code, result = _validate(
        root, inside, UNTYPED_TEST if inside.startswith("tests") else UNTYPED_CODE
    )
    assert code == 1 and result["newCount"] == 1, result["locations"]
    assert "outside" not in result["message"], result["message"]


def test_without_a_base_a_file_outside_the_scope_says_why_its_diagnostics_do_not_count(
    tmp_path: Path,
) -> None:
    """Without a base, a strict diagnostic in a file outside the scope is not one ``--base``
    would judge either: the message says which rule left it out."""
    root = _project(tmp_path, {"pyproject.toml": STRICT_FILES})
    path = root / "tests" / "test_prices.py"
    path.write_text(TEST + UNTYPED_TEST, encoding="utf-8")
    done = run_forge_in(root, "validate", "--files", "tests/test_prices.py", "--json")
    result = type_result(json.loads(done.stdout))
    assert done.returncode == 0, result["message"]
    assert "1 diagnostic in files outside mypy's scope" in result["message"], result["message"]
    assert "--base judges them" not in result["message"], result["message"]


def test_a_plan_module_owning_tests_is_judged_by_each_file_s_scope(tmp_path: Path) -> None:
    """A plan module owning the package and its tests: an untyped test passes, an untyped
    function in the package (inside ``files``) fails the module."""
    root = _project(tmp_path, {"pyproject.toml": STRICT_FILES})
    plan = write_plan(root, [plan_module("prices", ["shop/prices.py", "tests/test_prices.py"])])
    test = root / "tests" / "test_prices.py"
    test.write_text(TEST + UNTYPED_TEST, encoding="utf-8")
    args = ("validate", "--plan", str(plan), "--module", "prices", "--base", "main", "--json")
    done = run_forge_in(root, *args)
    result = type_result(json.loads(done.stdout))
    assert done.returncode == 0 and result["passed"] is True, result["message"]
    prices = root / "shop" / "prices.py"
    prices.write_text(PRICES + UNTYPED_CODE, encoding="utf-8")
    done = run_forge_in(root, *args)
    result = type_result(json.loads(done.stdout))
    assert done.returncode == 1, result["message"]
    assert [(loc["path"], loc.get("informational")) for loc in result["locations"]] == [
        ("shop/prices.py", None),
        ("tests/test_prices.py", True),
    ], result["locations"]


PYREFLY_SCOPE = (
    '[tool.pyrefly]\nproject-includes = ["shop", "tests"]\nproject-excludes = ["tests/fixtures"]\n'
)
#: Not a rule that means the code cannot run (pyrefly's bad-assignment).
BAD_ASSIGNMENT = "\n\nLIMIT: int = 'many'\n"


def test_pyrefly_s_project_excludes_leave_a_file_to_the_cannot_run_rules(tmp_path: Path) -> None:
    root = _project(tmp_path, {"pyproject.toml": PYREFLY_SCOPE})
    code, result = _validate(root, "tests/fixtures/make.py", BAD_ASSIGNMENT)
    assert result["checker"].startswith("pyrefly "), result
    assert code == 0 and [loc["rule"] for loc in result["locations"]] == ["bad-assignment"], result
    assert "outside pyrefly's scope" in result["message"], result["message"]
    assert "project-excludes = tests/fixtures" in result["message"], result["message"]
    code, result = _validate(root, "tests/fixtures/make.py", WRONG_ARITY)
    assert code == 1 and result["newCount"] == 1, result["locations"]
    # The honest twin: inside project-includes, the same assignment fails.
    code, result = _validate(root, "tests/test_prices.py", BAD_ASSIGNMENT)
    assert code == 1 and result["newCount"] == 1, result["locations"]


#: A stand-in pyright (no network to fetch the real one): it reports a reportArgumentType
#: error (not a rule of the code that cannot run) in every file it is handed.
FAKE_PYRIGHT = """#!/usr/bin/env python3
import json, sys
if sys.argv[1:2] == ["--version"]:
    print("pyright 1.1.414")
    sys.exit(0)
files = [a for a in sys.argv[1:] if a.endswith(".py")]
found = [{"file": f, "severity": "error", "message": "Argument of type \\"str\\" is not assignable",
          "rule": "reportArgumentType",
          "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}}
         for f in files if "MARK" in open(f, encoding="utf-8").read()]
print(json.dumps({"generalDiagnostics": found}))
sys.exit(1 if found else 0)
"""


@pytest.mark.parametrize(
    "config",
    [{"pyproject.toml": '[tool.pyright]\ninclude = ["shop"]\n'},
     {"pyrightconfig.json": '{\n  // the package only\n  "include": ["shop"],\n}\n'}],
    ids=["pyproject", "pyrightconfig"],
)  # fmt: skip
def test_pyright_s_include_leaves_the_tests_to_the_cannot_run_rules(
    tmp_path: Path, config: dict[str, str]
) -> None:
    root = _project(tmp_path, config)
    fake = root / ".venv" / "bin" / "pyright"
    fake.parent.mkdir(parents=True)
    fake.write_text(FAKE_PYRIGHT, encoding="utf-8")
    fake.chmod(0o755)
    code, result = _validate(root, "tests/test_prices.py", "\n# MARK\n")
    assert result["checker"] == "pyright 1.1.414", result
    assert code == 0 and result["informationalCount"] == 1, result
    assert "outside pyright's scope (include = shop in " in result["message"], result["message"]
    # The honest twin: inside include, it fails.
    code, result = _validate(root, "shop/prices.py", "\n# MARK\n")
    assert code == 1 and result["newCount"] == 1, result["locations"]
