"""A checker that did not check is never a pass; what can be checked is checked.

tsc stopped by its configuration (``TS2688``, ``TS5023``), pyrefly stopped by a
configuration it cannot read, mypy by an interpreter it cannot find: each used
to read as "no type error". Now such a result says "did not run: <reason>", is
no pass (it counts as a failure, and the module escalates: "fix the environment"),
in every output; a missing ``types`` entry or
interpreter is left out and the rest checked, the result saying so.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from forge_testing import git, npm_installed
from types_testing import TYPESCRIPT, run_forge_in, type_result, typescript_repository

LEDGER = {
    "src/sum.ts": "export function sum(a: number, b: number, c: number): number {\n"
    "  return a + b + c;\n}\n",
    "src/main.ts": "import { sum } from './sum';\nexport const total = sum(1, 2, 3);\n",
}


def _ledger(tmp_path: Path, compiler_options: dict[str, object]) -> Path:
    tsconfig = {"compilerOptions": {"strict": True, **compiler_options}, "include": ["src"]}
    return typescript_repository(
        tmp_path / "ledger",
        npm_installed(TYPESCRIPT),
        {**LEDGER, "tsconfig.json": json.dumps(tsconfig)},
    )


def _wrong_arity(root: Path) -> None:
    main = root / "src" / "main.ts"
    main.write_text(main.read_text(encoding="utf-8").replace("sum(1, 2, 3)", "sum(1, 2)"), "utf-8")


@pytest.mark.slow
def test_tsc_stopped_by_its_configuration_did_not_run_and_is_no_pass_in_any_output(
    tmp_path: Path,
) -> None:
    """TS5023 (an unknown option) and TS5108 (a removed one): tsc checks no types.

    It said ``PASS type_check typescript: no type error``; the honest twin, the same
    project with its configuration fixed, passes.
    """
    root = _ledger(tmp_path, {"bogusOption": True, "target": "es3"})
    done = run_forge_in(root, "validate", "--files", "src/sum.ts", "--json")
    assert done.returncode == 1, done.stdout[-2000:]
    report = json.loads(done.stdout)
    result = type_result(report)
    assert result["passed"] is False and result["unjudged"] is True, result
    assert result["message"].startswith("tsc 5.9.3 did not run: TS5023 Unknown compiler option")
    assert "no type error" not in result["message"]
    assert report["passed"] is False and report["recommendation"] != "PROCEED"
    # The file and syntax checks passed; the type check counts as a failure, and the module
    # escalates: forge could not judge it, which no retry of the worker's fixes.
    assert report["score"] < 1.0 and report["recommendation"] == "ESCALATE", report
    text = run_forge_in(root, "validate", "--files", "src/sum.ts")
    assert text.returncode == 1
    assert "ERR  type_check" in text.stdout, text.stdout
    assert "typescript: tsc 5.9.3 did not run: TS5023" in text.stdout
    assert "checks passed, 1 could not judge" in text.stdout
    for fmt in ("junit", "sarif"):
        out = tmp_path / f"report.{fmt}"
        again = run_forge_in(
            root, "validate", "--files", "src/sum.ts", "--format", fmt, "-o", str(out)
        )
        assert again.returncode == 1, again.stderr
    junit = ET.parse(tmp_path / "report.junit").getroot()
    (error,) = junit.iter("error")
    assert "did not run: TS5023" in error.attrib["message"]
    assert junit.attrib["errors"] == "1" and junit.attrib["failures"] == "0"
    sarif = json.loads((tmp_path / "report.sarif").read_text(encoding="utf-8"))
    (invocation,) = sarif["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert any(
        "did not run" in n["message"]["text"] for n in invocation["toolExecutionNotifications"]
    )
    # The honest twin: the configuration fixed, the same files pass.
    (root / "tsconfig.json").write_text(json.dumps({"include": ["src"]}), encoding="utf-8")
    done = run_forge_in(root, "validate", "--files", "src/sum.ts", "--json")
    assert done.returncode == 0, done.stdout[-2000:]
    assert "unjudged" not in type_result(json.loads(done.stdout))


@pytest.mark.slow
def test_types_that_are_not_installed_are_left_out_and_the_rest_checked(tmp_path: Path) -> None:
    """``types: ["vitest", "node"]``, neither installed: tsc stopped at TS2688, the base and the
    work alike, and forge said "no type error". Checked without them, the wrong arity fails."""
    root = _ledger(tmp_path, {"types": ["vitest", "node"]})
    git(root, "checkout", "-q", "-b", "work")
    _wrong_arity(root)
    for base in ([], ["--base", "main"]):
        listed = ["src/sum.ts", "src/main.ts"]  # without a base, an importer's errors are shown
        done = run_forge_in(root, "validate", "--files", *listed, *base, "--json")
        assert done.returncode == 1, done.stdout[-2000:]
        result = type_result(json.loads(done.stdout))
        assert [(loc["path"], loc["rule"]) for loc in result["locations"]] == [
            ("src/main.ts", "TS2554")
        ], result
        assert result["message"].endswith("; checked without types node, vitest: not installed")
    assert git(root, "status", "--porcelain") == "M src/main.ts"  # no scratch file here
    # The honest twin: the right arity passes, checked the same way.
    git(root, "checkout", "-q", "--", ".")
    done = run_forge_in(root, "validate", "--files", "src/sum.ts", "--base", "main", "--json")
    assert done.returncode == 0, done.stdout[-2000:]
    assert "checked without types node, vitest" in type_result(json.loads(done.stdout))["message"]


def test_pyrefly_stopped_by_a_configuration_it_cannot_read_did_not_run(shop: Path) -> None:
    """pyrefly exits 1 with no diagnostic (``ERROR pyproject.toml: TOML parse error``)."""
    (shop / "pyrefly.toml").write_text('python-version = "2.7"\n', encoding="utf-8")
    checkout = shop / "shop" / "checkout.py"
    checkout.write_text(checkout.read_text(encoding="utf-8") + "\npay(1, 2)\n", "utf-8")
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json")
    assert done.returncode == 1, done.stdout[-2000:]
    result = type_result(json.loads(done.stdout))
    assert result["passed"] is False and result["unjudged"] is True, result
    assert "did not run: exited 1 and reported no diagnostic" in result["message"], result
    assert (
        "Python version 2.7.0 is not supported" in result["message"]
        or "pyrefly.toml" in (result["message"])
    )
    # The same over MCP, once the server's warm pyrefly listens: a language server handed a
    # configuration it cannot read goes on with its defaults, and must not answer for it.
    import time

    import anyio
    from forge_testing import forge_executable
    from forge_types.checkers import Invocation, socket_path
    from forge_types.selection import python_checker
    from mcp import Client
    from mcp_client import call, stdio_parameters

    checker = python_checker(shop.resolve(), None)
    assert checker is not None and hasattr(checker, "warm_key"), checker
    configured = checker.source.startswith("configured")
    key = checker.warm_key(Invocation(root=shop.resolve(), configured=configured))
    assert key is not None

    def warm_listens() -> None:
        deadline = time.monotonic() + 60
        while not socket_path(key).exists():
            assert time.monotonic() < deadline, "the warm checker never listened"
            time.sleep(0.1)

    async def over_mcp() -> dict[str, object]:
        async with Client(stdio_parameters(shop, forge_executable(), "serve")) as client:
            await anyio.to_thread.run_sync(warm_listens)
            return await call(client, "validate", {"moduleId": "m", "files": ["shop/checkout.py"]})

    report = anyio.run(over_mcp)
    assert report["passed"] is False and report["recommendation"] != "PROCEED", report
    assert type_result(report)["unjudged"] is True
    # The honest twin: a configuration pyrefly reads checks the file (and finds the call).
    (shop / "pyrefly.toml").write_text('python-version = "3.11"\n', encoding="utf-8")
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json")
    result = type_result(json.loads(done.stdout))
    assert "unjudged" not in result and result["newCount"] == 1, result


def test_mypy_s_interpreter_that_is_not_there_is_left_out_and_the_rest_checked(
    shop: Path,
) -> None:
    """mypy exits 2 at ``Invalid python executable``: run again on its own interpreter."""
    (shop / "pyproject.toml").write_text(
        '[project]\nname = "shop"\nversion = "0"\n\n[tool.mypy]\n'
        'python_executable = "/nowhere/bin/python"\n',
        encoding="utf-8",
    )
    checkout = shop / "shop" / "checkout.py"
    checkout.write_text(checkout.read_text(encoding="utf-8") + "\npay(1, 2)\n", "utf-8")
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json")
    result = type_result(json.loads(done.stdout))
    assert result["checker"].startswith("mypy "), result
    assert [loc["rule"] for loc in result["locations"] if not loc.get("informational")] == [
        "call-arg"
    ], result
    assert result["message"].endswith(
        "; checked without python_executable /nowhere/bin/python: not found"
    ), result
    assert done.returncode == 1


def test_mypy_s_blocking_error_is_named_not_the_diagnostic_printed_before_it(
    shop: Path,
) -> None:
    """mypy exits 2 at a blocking error (here ``Source file found twice``) after printing
    ordinary diagnostics; the result named the first of those, not what stopped the run."""
    (shop / "pyproject.toml").write_text(
        '[project]\nname = "shop"\nversion = "0"\n\n[tool.mypy]\nmypy_path = "shop"\n',
        encoding="utf-8",
    )
    (shop / "shop" / "report.py").write_text("import nothere_pkg\nimport prices\n", "utf-8")
    listed = ["shop/report.py", "shop/prices.py"]
    done = run_forge_in(shop, "validate", "--files", *listed, "--json")
    result = type_result(json.loads(done.stdout))
    assert result["checker"].startswith("mypy ") and result.get("unjudged") is True, result
    assert "Source file found twice under different module names" in result["message"], result
    assert "Cannot find implementation" not in result["message"], result["message"]
    # The honest twin: one route to the module, the run goes through and reports the import.
    (shop / "shop" / "report.py").write_text("import nothere_pkg\n", "utf-8")
    done = run_forge_in(shop, "validate", "--files", *listed, "--json")
    result = type_result(json.loads(done.stdout))
    assert "unjudged" not in result, result["message"]
    assert "import-not-found" in [loc["rule"] for loc in result["locations"]], result


CRASHING_PLUGIN = """\
from mypy.plugin import Plugin


class Crashing(Plugin):
    def get_function_hook(self, fullname):
        if fullname.endswith(".boom"):
            def hook(ctx):
                raise RuntimeError("the plugin gave up")
            return hook
        return None


def plugin(version):
    return Crashing
"""


def test_mypy_that_crashed_after_its_first_diagnostics_says_it_crashed(shop: Path) -> None:
    """mypy's plugin crashes on the second file, after mypy printed the first one's error: the
    result named that error as the reason the check did not run."""
    (shop / "pyproject.toml").write_text(
        '[project]\nname = "shop"\nversion = "0"\n\n[tool.mypy]\nplugins = ["crashing.py"]\n',
        encoding="utf-8",
    )
    (shop / "crashing.py").write_text(CRASHING_PLUGIN, encoding="utf-8")
    (shop / "shop" / "a.py").write_text('x: int = "a"\n', encoding="utf-8")
    (shop / "shop" / "b.py").write_text(
        "from shop.a import x\n\n\ndef boom() -> int:\n    return x\n\n\nboom()\n", "utf-8"
    )
    done = run_forge_in(shop, "validate", "--files", "shop/a.py", "shop/b.py", "--json")
    result = type_result(json.loads(done.stdout))
    assert result.get("unjudged") is True, result
    assert "shop/b.py:8: INTERNAL ERROR" in result["message"], result["message"]
    assert "RuntimeError: the plugin gave up" in result["message"], result["message"]
    assert "Incompatible types" not in result["message"], result["message"]
    # The honest twin: nothing for the plugin to crash on, the run reports the assignment.
    (shop / "shop" / "b.py").write_text("from shop.a import x\n", "utf-8")
    done = run_forge_in(shop, "validate", "--files", "shop/a.py", "shop/b.py", "--json")
    result = type_result(json.loads(done.stdout))
    assert "unjudged" not in result, result["message"]
    assert [loc["rule"] for loc in result["locations"]] == ["assignment"], result
