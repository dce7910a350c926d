"""type_check on a small real package in a real git repository, through the installed CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from forge_testing import forge_executable, git, npm_installed
from types_testing import TYPESCRIPT, run_forge_in, typescript_repository


def type_result(
    completed: subprocess.CompletedProcess[str], language: str = "python"
) -> dict[str, Any]:
    """The ``type_check`` result for ``language`` of a ``forge validate --json`` run."""
    report = json.loads(completed.stdout)
    (found,) = [
        r for r in report["results"] if r["type"] == "type_check" and r["target"] == language
    ]
    return found


def edit(root: Path, name: str, old: str, new: str) -> None:
    """Replace ``old`` (which must be there) with ``new`` in ``root/name``."""
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_without_a_base_only_what_cannot_run_counts(shop: Path) -> None:
    edit(shop, "shop/checkout.py", "cart.total()", "cart.totl()")
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json")
    assert done.returncode == 1, done.stderr
    result = type_result(done)
    assert result["checker"].startswith("pyrefly ")
    assert (result["newCount"], result["informationalCount"]) == (1, 1)
    counted, shown = result["locations"]
    assert counted == {
        "path": "shop/checkout.py",
        "line": 6,
        "column": 22,
        "message": "Object of class `Cart` has no attribute `totl` Did you mean `total`?",
        "rule": "missing-attribute",
    }
    assert shown["rule"] == "bad-assignment" and shown["informational"] is True
    # The old error alone: shown, not counted, and the module passes.
    edit(shop, "shop/checkout.py", "cart.totl()", "cart.total()")
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py")
    assert done.returncode == 0, done.stdout
    assert (
        "shop/checkout.py:5:16: `Literal['debt']` is not assignable to `int` [bad-assignment] (not counted)"
        in done.stdout
    )


def test_with_a_base_a_changed_signature_fails_its_importer_not_old_errors(shop: Path) -> None:
    git(shop, "checkout", "-q", "-b", "feature")
    # A required parameter added to the exporter; lines above the old error move it down.
    edit(shop, "shop/prices.py", "amount: int, currency", "amount: int, rounding: int, currency")
    edit(shop, "shop/checkout.py", "def pay", "# paying\n\n\ndef pay")
    done = run_forge_in(shop, "validate", "--files", "shop/prices.py", "--base", "main", "--json")
    assert done.returncode == 1, done.stderr
    result = type_result(done)
    assert (result["newCount"], result["oldCount"], result["importers"]) == (1, 1, 1)
    new, old = result["locations"]
    assert (new["path"], new["line"], new["rule"]) == ("shop/checkout.py", 9, "missing-argument")
    assert (old["path"], old["line"], old.get("preExisting")) == ("shop/checkout.py", 8, True)
    # Only the old error left: shown as pre-existing, the module passes.
    edit(shop, "shop/prices.py", "amount: int, rounding: int, currency", "amount: int, currency")
    done = run_forge_in(shop, "validate", "--files", "shop/prices.py", "--base", "main")
    assert done.returncode == 0, done.stdout
    assert "OLD  type_check" in done.stdout and "(pre-existing)" in done.stdout


def test_the_base_is_cached_and_the_working_tree_never_touched(shop: Path) -> None:
    git(shop, "checkout", "-q", "-b", "feature")
    edit(shop, "shop/checkout.py", "cart.total()", "cart.total(1, 2)")
    (shop / "notes.txt").write_text("untracked\n", encoding="utf-8")
    git(shop, "add", "shop/checkout.py")  # staged, so the index is part of what must not change
    before = _state(shop)
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--base", "main", "--json")
    first = type_result(done)
    assert first["newCount"] == 1
    assert _state(shop) == before
    (cache,) = (shop / ".forge" / "cache" / "types").glob("*.json")
    stored = json.loads(cache.read_text(encoding="utf-8"))
    assert [d["rule"] for d in stored["files"]["shop/checkout.py"]] == ["bad-assignment"]
    # The cache is what the next run reads: an entry planted there is taken as the base's.
    planted = dict(stored["files"]["shop/checkout.py"][0])
    new = first["locations"][0]
    planted.update(rule=new["rule"], message=new["message"], symbol="pay")
    stored["files"]["shop/checkout.py"].append(planted)
    cache.write_text(json.dumps(stored), encoding="utf-8")
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--base", "main", "--json")
    result = type_result(done)
    assert (result["newCount"], result["oldCount"]) == (0, 2), result["locations"]


def _state(root: Path) -> tuple[str, ...]:
    """Everything forge must leave alone: HEAD, index, status, stash, files outside .forge/."""
    files = sorted(
        str(p.relative_to(root)) + ":" + str(p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if ".git" not in p.parts and ".forge" not in p.parts and p.is_file()
    )
    return (
        git(root, "rev-parse", "HEAD"),
        git(root, "status", "--porcelain", "--untracked-files=all", "--", ".", ":!.forge"),
        git(root, "stash", "list"),
        git(root, "ls-files", "--stage"),
        *files,
    )


def test_a_typescript_project_without_a_compiler_is_skipped_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true}}\n', encoding="utf-8"
    )
    (tmp_path / "a.ts").write_text("export const a: number = 1;\n", encoding="utf-8")
    done = run_forge_in(tmp_path, "validate", "--files", "a.ts", "--json")
    assert done.returncode == 0, done.stdout
    result = type_result(done, "typescript")
    assert result["skipped"] is True and result["passed"] is True
    assert result["message"] == (
        "no TypeScript compiler in node_modules/.bin (npm install --save-dev typescript); not checked"
    )
    others = [r["type"] for r in json.loads(done.stdout)["results"] if r["type"] != "type_check"]
    assert others == ["file_check", "syntax_check"]
    text = run_forge_in(tmp_path, "validate", "--files", "a.ts").stdout
    assert "SKIP type_check    typescript: no TypeScript compiler" in text
    assert "PASSED: 2/2 checks passed" in text


def test_a_chosen_checker_that_is_not_installed_is_skipped(shop: Path) -> None:
    (shop / "pyproject.toml").write_text(
        '[tool.forge.types]\npython-checker = "basedpyright"\n', encoding="utf-8"
    )
    env = {"PATH": str(Path(shutil.which("git") or "/usr/bin/git").parent)}
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json", env=env)
    result = type_result(done)
    assert result["skipped"] is True
    assert result["message"] == "basedpyright is not installed (pip install basedpyright)"


def test_the_project_s_configured_mypy_is_used_with_its_cache_under_forge(shop: Path) -> None:
    (shop / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n", encoding="utf-8")
    edit(shop, "shop/checkout.py", "cart.total()", "cart.total(tax=1, rounding=2)")
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json")
    result = type_result(done)
    assert result["checker"].startswith("mypy ")
    assert result["checkerSource"] == "configured in pyproject.toml [tool.mypy]"
    rules = [(loc["rule"], loc.get("informational", False)) for loc in result["locations"]]
    assert rules == [("call-arg", False), ("assignment", True)]
    assert not (shop / ".mypy_cache").exists()
    assert (shop / ".forge" / "cache" / "types" / "mypy").is_dir()


def test_bad_options_fail_with_the_key_named(shop: Path) -> None:
    (shop / "pyproject.toml").write_text(
        "[tool.forge.types]\nmax-importerz = 3\n", encoding="utf-8"
    )
    done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json")
    assert done.returncode == 1
    result = type_result(done, "options")
    assert "max-importerz" in result["message"] and result["passed"] is False


def test_the_importer_cap_is_said(shop: Path) -> None:
    (shop / "shop" / "receipt.py").write_text(
        "from shop.prices import price\n\nLINE = price(3)\n", encoding="utf-8"
    )
    (shop / "pyproject.toml").write_text(
        "[tool.forge.types]\nmax-importers = 1\n", encoding="utf-8"
    )
    done = run_forge_in(shop, "validate", "--files", "shop/prices.py", "--json")
    result = type_result(done)
    assert (result["importers"], result["importersCappedFrom"]) == (1, 2)
    assert "(capped: 2 import them, max-importers)" in result["message"]


def test_sarif_and_junit_carry_the_rule(shop: Path) -> None:
    edit(shop, "shop/checkout.py", "cart.total()", "cart.totl()")
    sarif = json.loads(
        run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--format", "sarif").stdout
    )
    results = sarif["runs"][0]["results"]
    by_rule = {r["ruleId"]: r["level"] for r in results}
    assert by_rule == {"type_check/missing-attribute": "error", "type_check/bad-assignment": "note"}
    junit = run_forge_in(
        shop, "validate", "--files", "shop/checkout.py", "--format", "junit"
    ).stdout
    assert (
        "shop/checkout.py:6:22: Object of class `Cart` has no attribute `totl` Did you mean `total`? [missing-attribute]"
        in junit
    )
    assert "[bad-assignment] (not counted)" in junit


def test_forge_plugins_names_the_checker_per_language(shop: Path) -> None:
    done = run_forge_in(shop, "plugins")
    assert done.returncode == 0, done.stderr
    assert "  python: pyrefly 1.4.1 (types: pinned by forge-types)" in done.stdout
    assert (
        "  typescript: not found (types: no TypeScript compiler in node_modules/.bin" in done.stdout
    )
    (shop / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n", encoding="utf-8")
    listed = json.loads(run_forge_in(shop, "plugins", "--json").stdout)
    (types,) = [info for info in listed if info["name"] == "types"]
    python = types["tools"][0]
    assert (python["name"], python["found"], python["note"]) == (
        "mypy",
        True,
        "configured in pyproject.toml [tool.mypy]",
    )


def test_a_fifo_or_a_link_to_forge_s_own_input_is_never_read(shop: Path) -> None:
    """A FIFO named like a module would block its reader; /proc/self/fd/0 is forge's stdin."""
    os.mkfifo(shop / "shop" / "pipe.py")
    (shop / "shop" / "stdin.py").symlink_to("/proc/self/fd/0")
    (shop / "shop" / "zero.py").symlink_to("/dev/zero")
    done = run_forge_in(
        shop, "validate", "--files", "shop/prices.py", "shop/pipe.py", "shop/stdin.py", "--json"
    )
    assert done.returncode == 1, done.stderr  # the FIFO and the link are not files
    result = type_result(done)
    assert (result["importers"], result["newCount"]) == (1, 0)


def test_a_listed_link_or_a_file_in_a_linked_folder_is_checked_as_the_file_it_is(
    shop: Path,
) -> None:
    """Listed through a link to the file, or through a link to its folder: one file, checked
    once, its finding at its real path; a link to a FIFO stays unread."""
    checkout = shop / "shop" / "checkout.py"
    checkout.write_text(
        checkout.read_text(encoding="utf-8").replace("cart.total()", "cart.totl()"), "utf-8"
    )
    (shop / "alias").symlink_to(shop / "shop", target_is_directory=True)
    (shop / "pay.py").symlink_to(checkout)
    os.mkfifo(shop / "shop" / "pipe.py")
    (shop / "piped.py").symlink_to(shop / "shop" / "pipe.py")
    listed = ("alias/checkout.py", "pay.py", "shop/checkout.py", "piped.py")
    done = run_forge_in(shop, "validate", "--files", *listed, "--json")
    result = type_result(done)
    assert result["filesChecked"] == 1 and result["newCount"] == 1, result["message"]
    assert [(loc["path"], loc["rule"]) for loc in result["locations"][:1]] == [
        ("shop/checkout.py", "missing-attribute")
    ]


def _fake_tsc(root: Path, script: str) -> None:
    """A TypeScript project whose ``node_modules/.bin/tsc`` is the shell ``script``."""
    (root / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}}\n', "utf-8")
    (root / "a.ts").write_text("export const a: number = 1;\n", encoding="utf-8")
    tsc = root / "node_modules" / ".bin" / "tsc"
    tsc.parent.mkdir(parents=True)
    tsc.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    tsc.chmod(0o755)


def _in_3_gib() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def test_a_checker_that_prints_without_end_is_stopped_not_read_into_memory(
    tmp_path: Path,
) -> None:
    """Its output was read whole before being cut to 64 MiB: `yes` took all memory."""
    _fake_tsc(tmp_path, "exec yes 'src/a.ts(1,1): garbage'")
    done = subprocess.run(
        [forge_executable(), "validate", "--files", "a.ts", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=_in_3_gib,
    )
    assert done.returncode == 1, done.stderr  # a check that did not run is no pass
    result = type_result(done, "typescript")
    assert result["unjudged"] is True and result["passed"] is False
    assert result["message"] == "tsc unknown did not run: tsc printed more than 64 MiB; stopped"


def test_a_listed_file_outside_the_working_dir_is_judged_not_dropped(shop: Path) -> None:
    """pyrefly names it ``../outside.py``: its diagnostics were dropped and the module passed."""
    outside = shop.parent / "outside.py"
    outside.write_text("def f(a: int) -> int:\n    return a\n\n\nf(1, 2)\n", encoding="utf-8")
    for base in ([], ["--base", "main"]):
        done = run_forge_in(shop, "validate", "--files", str(outside), *base, "--json")
        assert done.returncode == 1, done.stdout
        result = type_result(done)
        assert result["newCount"] == 1, result
        (location,) = result["locations"]
        assert (location["path"], location["line"], location["rule"]) == (
            str(outside),
            5,
            "bad-argument-count",
        )


def test_a_python_option_that_names_no_interpreter_is_said_not_ignored(shop: Path) -> None:
    """pyrefly goes on without a missing interpreter, blind to the project's packages."""
    for named in ("venv-not-made/bin/python", "shop/prices.py"):
        (shop / "pyproject.toml").write_text(
            f'[tool.forge.types]\npython = "{named}"\n', encoding="utf-8"
        )
        done = run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json")
        result = type_result(done)
        assert result["skipped"] is True, result
        assert result["message"] == (
            f"the python option names no interpreter ({shop / named} is not an executable "
            "file); not checked"
        )
    (shop / "pyproject.toml").write_text(
        f'[tool.forge.types]\npython = "{sys.executable}"\n', encoding="utf-8"
    )
    result = type_result(run_forge_in(shop, "validate", "--files", "shop/checkout.py", "--json"))
    assert result.get("skipped") is not True and result["informationalCount"] == 1, result


@pytest.mark.slow
def test_an_incremental_typescript_project_gets_no_build_info_file_from_forge(
    tmp_path: Path,
) -> None:
    """tsc writes an incremental project's .tsbuildinfo into the tree: forge's goes to .forge/.

    ``incremental`` comes from a config the tsconfig extends, as it often does.
    """
    base = {"compilerOptions": {"incremental": True, "strict": True, "outDir": "build"}}
    root = typescript_repository(
        tmp_path / "ledger",
        npm_installed(TYPESCRIPT),
        {
            "tsconfig.base.json": json.dumps(base),
            "tsconfig.json": json.dumps({"extends": "./tsconfig.base.json", "include": ["src"]}),
            "src/sum.ts": "export function sum(a: number, b: number): number {\n  return a + b;\n}\n",
            "src/main.ts": "import { sum } from './sum';\nexport const total = sum(1, 2);\n",
        },
    )
    edit(root, "src/main.ts", "sum(1, 2)", "sum(1)")
    before = _state(root)
    for base_args in ((), ("--base", "main")):
        done = run_forge_in(root, "validate", "--files", "src/sum.ts", *base_args, "--json")
        result = type_result(done, "typescript")
        assert [loc["rule"] for loc in result["locations"]] == ["TS2554"], result
        assert _state(root) == before, base_args
    assert not [p for p in root.rglob("*.tsbuildinfo") if ".forge" not in p.parts]
    assert list((root / ".forge" / "cache" / "types" / "tsc").glob("*.tsbuildinfo"))


def test_a_tsc_that_never_answers_its_version_is_skipped_in_one_line_not_waited_for(
    tmp_path: Path,
) -> None:
    """It cost a fixed 30 s before anything else, then the checker's own run waited too."""
    _fake_tsc(tmp_path, "exec sleep 600")
    done = subprocess.run(
        [forge_executable(), "validate", "--files", "a.ts", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,  # a hang guard: the old wait alone was 30 s, then the run's 300 s
        check=False,
    )
    assert done.returncode == 1, done.stderr  # a checker that hangs did not run: no pass
    result = type_result(done, "typescript")
    assert result["unjudged"] is True and result["passed"] is False
    assert result["message"] == (
        "node_modules/.bin/tsc did not answer --version within 5 s; not checked"
    )


def test_tsc_s_version_is_read_from_its_package_beside_the_binary(tmp_path: Path) -> None:
    """A shim (pnpm, a copy) is no link into node_modules/typescript: the package is still
    there, and its version is read, not asked of a tsc that would not answer."""
    _fake_tsc(tmp_path, "exec sleep 600")
    package = tmp_path / "node_modules" / "typescript" / "package.json"
    package.parent.mkdir()
    package.write_text('{"name": "typescript", "version": "5.4.5"}\n', encoding="utf-8")
    done = run_forge_in(tmp_path, "plugins")
    assert done.returncode == 0, done.stderr
    assert "  typescript: tsc 5.4.5 (types: node_modules/.bin/tsc)" in done.stdout
