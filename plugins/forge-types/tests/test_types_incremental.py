"""TypeScript's warm checker is incremental (forge_types.tsbuilder): after an edit it checks
again only what the edit affects, and answers exactly what a full ``tsc -p`` reports."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from forge_testing import git, live_processes_mentioning, npm_installed
from forge_types import plugin
from forge_types.checkers import Invocation, socket_path
from forge_types.diagnostics import Raw
from forge_types.selection import Missing, typescript_checker
from forge_types.tsbuilder import SCRIPT, TsBuilder, typescript_library
from types_testing import TYPESCRIPT, run_forge_in, type_result, typescript_repository

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform != "linux", reason="Unix sockets, /proc"),
]

COMPILER = {
    "strict": True,
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
}
#: An exporter, two importers that call it, and a file that imports neither.
LEDGER = {
    "package.json": json.dumps({"name": "ledger", "private": True, "type": "module"}),
    "tsconfig.json": json.dumps({"compilerOptions": COMPILER, "include": ["src/**/*.ts"]}),
    "src/prices.ts": (
        "export function price(amount: number, currency = 'EUR'): string {\n"
        "  return `${amount} ${currency}`;\n"
        "}\n"
    ),
    "src/checkout.ts": (
        "import { price } from './prices.js';\n\n"
        "export function pay(total: number): string {\n"
        "  return price(total);\n"
        "}\n"
    ),
    "src/refund.ts": (
        "import { price } from './prices.js';\n\n"
        "export function refund(total: number): string {\n"
        "  return price(-total, 'EUR');\n"
        "}\n"
    ),
    "src/clock.ts": "export const now = (): number => Date.now();\n",
}


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    """:data:`LEDGER` committed on ``main``, TypeScript in its ``node_modules``."""
    return typescript_repository(tmp_path / "ledger", npm_installed(TYPESCRIPT), LEDGER).resolve()


def _edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / "src" / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _full_check(root: Path) -> list[Raw]:
    """What a full ``tsc -p`` of the project reports (the command line forge runs cold)."""
    tsc = typescript_checker(root, root)
    assert not isinstance(tsc, Missing)
    invocation = Invocation(root=root, project_file=root / "tsconfig.json")
    return sorted(tsc.run([], invocation, 120, []))


def test_an_edit_is_checked_again_where_it_reaches_and_answered_as_tsc_does(
    ledger: Path,
) -> None:
    """A body edit is checked alone; a changed signature takes its importers along; each
    answer is the full ``tsc -p``'s, for the wrong-arity call and its mending alike."""
    tsc = typescript_checker(ledger, ledger)
    assert not isinstance(tsc, Missing)
    library = typescript_library(tsc.executable)
    assert library is not None
    src = ledger / "src"
    asked = [src / name for name in ("prices.ts", "checkout.ts", "refund.ts", "clock.ts")]
    builder = TsBuilder(ledger, library, ledger / "tsconfig.json")
    try:
        builder.load()
        # The whole program, once (TypeScript's own lib files too).
        assert sorted(p for p in builder.checked if p.parent == src) == sorted(asked)
        assert builder.diagnostics(asked) == [] and builder.checked == []
        # A body edit that keeps the declarations: only the edited file is checked again.
        _edit(ledger, "prices.ts", "${amount} ${currency}", "${currency} ${amount}")
        assert builder.diagnostics(asked) == _full_check(ledger) == []
        assert builder.checked == [src / "prices.ts"]
        # An importer's own edit: only it.
        _edit(ledger, "checkout.ts", "price(total)", "price(total * 1)")
        assert builder.diagnostics(asked) == []
        assert builder.checked == [src / "checkout.ts"]
        # A changed signature: its importers are checked again (not clock.ts), and the
        # wrong-arity call fails where tsc says, with tsc's code and message.
        _edit(ledger, "prices.ts", "currency = 'EUR'", "currency: string, rounded: boolean")
        found = builder.diagnostics(asked)
        assert sorted(builder.checked) == sorted(asked[:3])
        assert sorted(found) == _full_check(ledger), found
        assert sorted((path.name, line, code) for path, line, _, code, _ in found) == [
            ("checkout.ts", 4, "TS2554"),
            ("refund.ts", 4, "TS2554"),
        ]
        # One importer mended, the other left broken: asked about alone, still broken.
        _edit(ledger, "refund.ts", "price(-total, 'EUR')", "price(-total, 'EUR', true)")
        assert [(p.name, c) for p, _, _, c, _ in builder.diagnostics([src / "checkout.ts"])] == [
            ("checkout.ts", "TS2554")
        ]
        assert builder.checked == []  # checkout.ts was checked after the signature changed
        found = builder.diagnostics(asked)
        assert builder.checked == [src / "refund.ts"]
        assert sorted(found) == _full_check(ledger)
        assert [path.name for path, *_ in found] == ["checkout.ts"]
    finally:
        builder.close()
    assert not builder.alive
    git(ledger, "checkout", "-q", "--", ".")


def test_a_warm_validate_of_an_edit_passes_a_harmless_one_and_fails_a_wrong_arity_call(
    ledger: Path,
) -> None:
    """Through ``forge validate --base main`` with the warm checker answering: a harmless
    edit passes, a wrong-arity call fails as the cold command line fails it."""
    listed = ("validate", "--files", "src/prices.ts", "--base", "main", "--json")
    _edit(ledger, "prices.ts", "currency = 'EUR'", "currency: string")
    cold = run_forge_in(ledger, *listed)
    cold_result = type_result(json.loads(cold.stdout))
    assert cold.returncode == 1 and cold_result["warm"] is False, cold.stdout[-2000:]
    git(ledger, "checkout", "-q", "--", ".")
    tsc = typescript_checker(ledger, ledger)
    assert not isinstance(tsc, Missing)
    key = tsc.warm_key(Invocation(root=ledger, project_file=ledger / "tsconfig.json"))
    assert key is not None
    plugin.forge_engine_started(project_root=ledger)
    try:
        deadline = time.monotonic() + 120
        while not socket_path(key).exists():
            assert time.monotonic() < deadline, "the warm checker never listened"
            time.sleep(0.1)
        _edit(ledger, "prices.ts", "${amount} ${currency}", "${currency}${amount}")
        harmless = run_forge_in(ledger, *listed)
        result = type_result(json.loads(harmless.stdout))
        assert harmless.returncode == 0 and result["warm"] is True, harmless.stdout[-2000:]
        _edit(ledger, "prices.ts", "currency = 'EUR'", "currency: string")
        broken = run_forge_in(ledger, *listed)
        result = type_result(json.loads(broken.stdout))
        assert broken.returncode == 1 and result["warm"] is True, broken.stdout[-2000:]
        assert result["message"] == cold_result["message"]
        assert result["locations"] == cold_result["locations"]
    finally:
        git(ledger, "checkout", "-q", "--", ".")
        plugin.forge_engine_stopped(project_root=ledger)
    assert not [line for line in live_processes_mentioning(str(SCRIPT)) if str(ledger) in line]


def test_the_command_line_runs_incremental_from_its_last_run_and_reports_as_a_full_run(
    ledger: Path,
) -> None:
    """Cold, tsc runs ``--incremental`` with its build info under ``.forge/cache/types/tsc``
    (never in the project): after an edit it reports what a run without build info reports,
    a wrong-arity call and its importers' breakage included; a harmless edit passes."""
    listed = ("validate", "--files", "src/prices.ts", "--base", "main", "--json")
    cache = ledger / ".forge" / "cache" / "types" / "tsc"
    first = run_forge_in(ledger, *listed)
    assert first.returncode == 0, first.stdout[-2000:]
    (info,) = cache.glob("*.tsbuildinfo")
    assert [p.name for p in ledger.rglob("*.tsbuildinfo") if ".forge" not in p.parts] == []
    _edit(ledger, "prices.ts", "${amount} ${currency}", "${currency}${amount}")
    harmless = run_forge_in(ledger, *listed)
    assert harmless.returncode == 0, harmless.stdout[-2000:]
    _edit(ledger, "prices.ts", "currency = 'EUR'", "currency: string")
    written = info.stat().st_mtime_ns
    broken = run_forge_in(ledger, *listed)
    result = type_result(json.loads(broken.stdout))
    assert broken.returncode == 1 and result["warm"] is False, broken.stdout[-2000:]
    assert info.stat().st_mtime_ns != written  # this run read and wrote the build info
    assert [(loc["path"], loc["rule"]) for loc in result["locations"]] == [
        ("src/checkout.ts", "TS2554")
    ]
    info.unlink()  # the same, checked from nothing
    full = run_forge_in(ledger, *listed)
    assert type_result(json.loads(full.stdout))["locations"] == result["locations"]
    git(ledger, "checkout", "-q", "--", ".")
