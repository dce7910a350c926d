"""The ``spec_tests`` check against a conftest, a config or a test module that takes over the run.

pytest lets a ``conftest.py`` decide whether a test's function runs at all
(``pytest_pyfunc_call``), skip it on the way (``pytest_runtest_setup``), rewrite
its report, load plugins that do any of it (``pytest_plugins``, ``-p`` in
``addopts``), or patch the code under test through the name a test module
imported, or through the module looked up by name (``importlib``, ``__import__``,
``sys.modules``, ``vars()``). Each move below hides the ``mul`` bug from pytest (its run passes)
and must fail the module; each honest twin (fixtures, markers, options, a
switched-off plugin) must pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from py_calc_testing import BROKEN, calc_project, failing, spec_results, validate, write

if TYPE_CHECKING:
    from pathlib import Path

    from forge_testing import RunForge

DROP_MUL = '    items[:] = [item for item in items if "mul" not in item.name]\n'

MOVES = {
    "the test function never runs": (
        {"tests/conftest.py": "def pytest_pyfunc_call(pyfuncitem):\n    return True\n"},
        ("tests/conftest.py", 1, "pytest_pyfunc_call added: it decides how tests run or end"),
    ),
    "the project's top conftest": (
        {"conftest.py": "def pytest_pyfunc_call(pyfuncitem):\n    return True\n"},
        ("conftest.py", 1, "pytest_pyfunc_call added: it decides how tests run or end"),
    ),
    "skipped on the way": (
        {
            "tests/conftest.py": "import pytest\n\n\ndef pytest_runtest_setup(item):\n"
            '    if "mul" in item.name:\n        pytest.skip("flaky")\n'
        },
        ("tests/conftest.py", 4, "pytest_runtest_setup added: it decides how tests run or end"),
    ),
    "a hook under another name": (
        {
            "tests/conftest.py": "import pytest\n\n\n"
            '@pytest.hookimpl(specname="pytest_pyfunc_call")\ndef pytest_tidy(pyfuncitem):\n'
            "    return True\n"
        },
        ("tests/conftest.py", 5, "pytest_pyfunc_call added: it decides how tests run or end"),
    ),
    "a hook bound by assignment": (
        {
            "tests/conftest.py": "def _never(pyfuncitem):\n    return True\n\n\n"
            "pytest_pyfunc_call = _never\n"
        },
        ("tests/conftest.py", 5, "pytest_pyfunc_call added: it decides how tests run or end"),
    ),
    "a plugin registered at configure": (
        {
            "tests/conftest.py": "class _Quiet:\n    def pytest_pyfunc_call(self, pyfuncitem):\n"
            "        return True\n\n\ndef pytest_configure(config):\n"
            "    config.pluginmanager.register(_Quiet())\n"
        },
        ("tests/conftest.py", 6, "pytest_configure added: it decides how tests run or end"),
    ),
    "a plugin module loaded by the conftest": (
        {
            "tests/conftest.py": 'pytest_plugins = ["tests.helpers"]\n',
            "tests/__init__.py": "",
            "tests/helpers.py": "def pytest_pyfunc_call(pyfuncitem):\n    return True\n",
        },
        (
            "tests/conftest.py",
            1,
            "pytest_plugins added: it loads plugins that decide how tests run",
        ),
    ),
    "a plugin module loaded by addopts": (
        {
            "pytest.ini": "[pytest]\naddopts = -p tests.helpers\n",
            "tests/__init__.py": "",
            "tests/helpers.py": "def pytest_pyfunc_call(pyfuncitem):\n    return True\n",
        },
        (
            "pytest.ini",
            1,
            "addopts gained -p=tests.helpers: it loads a plugin that decides how tests run",
        ),
    ),
    "the tested name patched by an autouse fixture": (
        {
            "tests/conftest.py": "import pytest\n\n\n@pytest.fixture(autouse=True)\n"
            "def exact(monkeypatch):\n    import tests.test_calc as spec\n\n"
            '    monkeypatch.setattr(spec, "mul", lambda a, b: a * b)\n',
            "tests/__init__.py": "",
        },
        (
            "tests/conftest.py",
            8,
            "patches tests.test_calc.mul, the module's own code: the test no longer tests it",
        ),
    ),
}
PATCH_MUL = "lambda a, b: a * b"
#: A test module that runs first (its name sorts first) and patches mul before test_calc imports it.
for how, code, line in [
    (
        "importlib",
        f'import importlib\n\nm = importlib.import_module("src.calc")\nm.mul = {PATCH_MUL}\n',
        4,
    ),
    ("__import__", f'setattr(__import__("src.calc", fromlist=["mul"]), "mul", {PATCH_MUL})\n', 1),
    (
        "sys.modules",
        f'import sys\n\nimport src.calc\n\nsys.modules["src.calc"].mul = {PATCH_MUL}\n',
        5,
    ),
    ("vars()", f'from src import calc\n\nvars(calc)["mul"] = {PATCH_MUL}\n', 3),
]:
    MOVES[f"mul patched through {how}"] = (
        {"tests/test_000.py": code + "\n\ndef test_ok():\n    assert True\n"},
        (
            "tests/test_000.py",
            line,
            "patches src.calc.mul, the module's own code: the test no longer tests it",
        ),
    )


@pytest.mark.parametrize("move", sorted(MOVES))
def test_a_runner_takeover_that_hides_the_bug_fails_the_module(
    run_forge: RunForge, project: Path, move: str
) -> None:
    files, (target, line, says) = MOVES[move]
    calc = calc_project(project)
    write(calc, {"src/calc.py": BROKEN, **files})
    code, report = validate(run_forge, calc)
    assert code == 1 and report["recommendation"] != "PROCEED", report
    found = [(where, at, message) for where, at, message in failing(report) if where == target]
    assert any(at == line and message.endswith(says) for _, at, message in found), failing(report)
    [command] = [r for r in report["results"] if r["type"] == "command"]
    assert command["passed"], command  # pytest itself was gamed: only forge sees it


HONEST = {
    "a fixture for new tests": {
        "tests/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef operands():\n"
        "    return 2, 3\n",
        "tests/test_more.py": "from src.calc import mul\n\n\n"
        "def test_mul_operands(operands):\n    assert mul(*operands) == 6\n",
    },
    "markers registered, an option added": {
        "tests/conftest.py": "def pytest_configure(config):\n"
        '    """The markers the suite uses."""\n'
        '    config.addinivalue_line("markers", "slow: a slow test")\n\n\n'
        "def pytest_addoption(parser):\n"
        '    parser.addoption("--runslow", action="store_true")\n'
    },
    "an autouse fixture that patches the environment": {
        "tests/conftest.py": "import pytest\n\n\n@pytest.fixture(autouse=True)\n"
        "def quiet(monkeypatch):\n"
        '    monkeypatch.setenv("CALC_LOG", "0")\n'
        '    monkeypatch.setattr("time.sleep", lambda seconds: None)\n'
    },
    "a plugin switched off": {"pytest.ini": "[pytest]\naddopts = -p no:randomly -q\n"},
}


@pytest.mark.parametrize("edit", sorted(HONEST))
def test_honest_runner_edits_pass(run_forge: RunForge, project: Path, edit: str) -> None:
    calc = calc_project(project)
    write(calc, HONEST[edit])
    code, report = validate(run_forge, calc)
    assert spec_results(report) and all(r["passed"] for r in spec_results(report)), report
    assert code == 0, report
