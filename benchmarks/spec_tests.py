"""Precision and recall of the ``spec_tests`` check per tampering move, on real test suites.

Run: ``python benchmarks/spec_tests.py`` (network needed once: the suites are
downloaded with pip into a temp dir, never committed). ``--tests N`` caps the
tests mutated per suite (default 12), ``--runs N`` the timed validates.

Corpus: the real test files of more-itertools (unittest's ``self.assertEqual``)
and attrs (pytest's bare ``assert x == y``). For each real test whose body has an
equality with a literal at its own level, every tampering move is applied on its
own (skip, delete, expected literal changed, weakened to truthiness, swallowed in
``try/except``, the module's function patched) and every honest edit (rename,
reformat, an added assertion, a new test beside it, the test moved to another
file). Each variant is judged by :func:`forge.test_runs.spec_diff.judge_spec`
against the real file. A move counts as caught when the finding names the
mutated test; an honest edit as a false alarm when any finding does.

Printed per move: recall (caught / applied) and precision (caught / (caught +
false alarms of the honest edits, spread over the moves)); per honest edit: the
false-alarm rate. Then the cost: ``forge validate`` of a plan module over
more-itertools (verify ``python -m pytest -q tests/test_more.py::FirstTests``,
a changed test file) with the check and with it disabled
(``FORGE_DISABLE_PLUGINS``), alternating, the medians and their ratio.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from corpus import download  # a sibling script: the same downloads as the syntax benchmarks

from forge.test_runs.spec_diff import Sources, judge_spec

SUITES = {
    "more-itertools==11.2.1": (["tests/test_more.py", "tests/test_recipes.py"], "mi"),
    "attrs==26.1.0": (
        ["tests/test_funcs.py", "tests/test_make.py", "tests/test_validators.py"],
        "",
    ),
}
OWN = {
    "more-itertools==11.2.1": ["more_itertools/more.py", "more_itertools/recipes.py"],
    "attrs==26.1.0": ["src/attr/_funcs.py", "src/attr/_make.py", "src/attr/validators.py"],
}
Edit = Callable[[list[str], ast.FunctionDef, ast.stmt, str], "list[str] | None"]


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _equality(statement: ast.stmt) -> tuple[ast.expr, ast.expr] | None:
    """(subject, literal) of ``assert x == LIT`` or ``self.assertEqual(x, LIT)``."""
    if isinstance(statement, ast.Assert) and isinstance(statement.test, ast.Compare):
        test = statement.test
        if len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
            right = test.comparators[0]
            if isinstance(right, ast.Constant) and isinstance(right.value, int | str):
                return test.left, right
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        if getattr(call.func, "attr", "") == "assertEqual" and len(call.args) == 2:
            right = call.args[1]
            if isinstance(right, ast.Constant) and isinstance(right.value, int | str):
                return call.args[0], right
    return None


def _replace(lines: list[str], statement: ast.stmt, text: str) -> list[str]:
    start, end = statement.lineno - 1, statement.end_lineno or statement.lineno
    return [*lines[:start], *text.splitlines(), *lines[end:]]


def _subject(statement: ast.stmt) -> str:
    found = _equality(statement)
    return ast.unparse(found[0]) if found else ""


def skip(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    pad = _indent(lines[statement.lineno - 1])
    first = test.body[0].lineno - 1
    call = (
        'self.skipTest("later")'
        if test.args.args and test.args.args[0].arg == "self"
        else ('pytest.skip("later")')
    )
    # Imported last: a first line may be ``from __future__ import ...``.
    extra = [] if "import pytest" in "\n".join(lines) or "self" in call else ["import pytest"]
    return [*lines[:first], pad + call, *lines[first:], *extra]


def delete(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    start = (test.decorator_list[0].lineno if test.decorator_list else test.lineno) - 1
    return [*lines[:start], *lines[test.end_lineno or test.lineno :]]


def expected(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    _, literal = _equality(statement) or (None, None)
    assert isinstance(literal, ast.Constant)
    value = literal.value + 1 if isinstance(literal.value, int) else f"{literal.value!s}x"
    pad = _indent(lines[statement.lineno - 1])
    if isinstance(statement, ast.Assert):
        return _replace(lines, statement, f"{pad}assert {_subject(statement)} == {value!r}")
    return _replace(lines, statement, f"{pad}self.assertEqual({_subject(statement)}, {value!r})")


def weaken(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    pad = _indent(lines[statement.lineno - 1])
    if isinstance(statement, ast.Assert):
        return _replace(lines, statement, f"{pad}assert {_subject(statement)} is not None")
    return _replace(lines, statement, f"{pad}self.assertTrue({_subject(statement)})")


def swallow(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    pad = _indent(lines[statement.lineno - 1])
    body = ast.unparse(statement)
    text = f"{pad}try:\n{pad}    {body}\n{pad}except AssertionError:\n{pad}    pass"
    return _replace(lines, statement, text)


def mock(
    lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str
) -> list[str] | None:
    calls = [
        node.func.attr
        for node in ast.walk(statement)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == alias
    ]
    if not alias or not calls:
        return None
    pad = _indent(lines[statement.lineno - 1])
    text = f"{pad}with mock.patch.object({alias}, {calls[0]!r}):\n{pad}    {ast.unparse(statement)}"
    return [*_replace(lines, statement, text), "from unittest import mock"]


def rename(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    index = test.lineno - 1
    renamed = lines[index].replace(f"def {test.name}(", f"def {test.name}_renamed(", 1)
    return [*lines[:index], renamed, *lines[index + 1 :]]


def reformat(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    pad = _indent(lines[statement.lineno - 1])
    return _replace(
        lines, statement, f"{pad}# the spec, reformatted\n{pad}{ast.unparse(statement)}"
    )


def stricter(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    pad = _indent(lines[statement.lineno - 1])
    again = ast.unparse(statement)
    return _replace(lines, statement, f"{pad}{again}\n{pad}{again}")


def new_test(lines: list[str], test: ast.FunctionDef, statement: ast.stmt, alias: str) -> list[str]:
    end = test.end_lineno or test.lineno
    pad = _indent(lines[test.lineno - 1])
    owner = "self" if test.args.args and test.args.args[0].arg == "self" else ""
    added = [f"{pad}def test_added_by_worker({owner}):", f"{pad}    assert 1 + 1 == 2"]
    return [*lines[:end], "", *added, *lines[end:]]


MOVES: dict[str, Edit] = {
    "skip": skip, "delete": delete, "expected changed": expected, "weakened": weaken,
    "swallowed": swallow, "mocked": mock,
}  # fmt: skip
HONEST: dict[str, Edit] = {
    "rename": rename, "reformat": reformat, "stricter": stricter, "new test": new_test,
    "moved": delete,  # with the test put in another file: see run_corpus
}  # fmt: skip


def candidates(tree: ast.Module, limit: int) -> list[tuple[str, ast.FunctionDef, ast.stmt]]:
    """Up to ``limit`` tests with an equality to a literal at their own level, evenly spread."""
    found = []
    for node in tree.body:
        owners = (
            [(node.name, item) for item in node.body]
            if isinstance(node, ast.ClassDef)
            else [("", node)]
        )
        for owner, item in owners:
            if isinstance(item, ast.FunctionDef) and item.name.startswith("test"):
                statement = next((s for s in item.body if _equality(s)), None)
                if statement is not None:
                    found.append((owner, item, statement))
    step = max(len(found) // limit, 1)
    return found[::step][:limit]


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def run_corpus(root: Path, spec: str, limit: int) -> dict[str, list[int]]:
    """{move or honest edit: [applied, flagged]} over one suite."""
    files, alias = SUITES[spec]
    base_files = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    texts = {f: (root / f).read_text(encoding="utf-8") for f in files}
    tally: dict[str, list[int]] = {name: [0, 0] for name in [*MOVES, *HONEST]}
    for file in files:
        lines = texts[file].splitlines()
        for owner, test, statement in candidates(ast.parse(texts[file]), limit // len(files)):
            name = f"{owner}::{test.name}" if owner else test.name
            for kind, edit in [*MOVES.items(), *HONEST.items()]:
                changed = edit(lines, test, statement, alias)
                if changed is None:
                    continue
                now = {file: "\n".join(changed) + "\n"}
                if kind == "moved":
                    start = test.decorator_list[0].lineno if test.decorator_list else test.lineno
                    body = lines[start - 1 : test.end_lineno]
                    header = ["from unittest import TestCase", f"class {owner}Moved(TestCase):"]
                    header = header if owner else []
                    now["tests/test_moved_by_worker.py"] = "\n".join([*header, *body]) + "\n"
                sources = Sources(
                    base_files=base_files,
                    changed=set(now),
                    read_base_many=lambda paths: {p: texts.get(p) for p in paths},
                    read_now=lambda path, now=now: now.get(path) or _read(root / path),
                )
                report = judge_spec(["python -m pytest -q tests"], "", OWN[spec], sources)
                about = [f for f in report.findings if f.test == name or name in f.message]
                flagged = about if kind in MOVES else report.findings
                tally[kind][0] += 1
                tally[kind][1] += bool(flagged)
    return tally


def timed_validates(root: Path, runs: int) -> tuple[float, float]:
    """Median seconds of ``forge validate`` with and without the check, alternating."""
    git = ["git", "-c", "user.email=b@e", "-c", "user.name=bench"]
    plan = {
        "modules": [
            {
                "id": "first", "title": "first", "objective": "first()",
                "files": ["more_itertools/more.py"], "mayChange": ["tests/**"],
                "verify": ["python -m pytest -q -p no:cacheprovider tests/test_more.py::FirstTests"],
                "doneWhen": "tests pass",
            }
        ]
    }  # fmt: skip
    (root / ".forge" / "plans").mkdir(parents=True, exist_ok=True)
    (root / ".forge" / "plans" / "p.json").write_text(json.dumps(plan), encoding="utf-8")
    (root / ".gitignore").write_text(".forge/\n", encoding="utf-8")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run([*git, *args], cwd=root, check=True, capture_output=True)
    subprocess.run([*git, "checkout", "-qb", "work"], cwd=root, check=True)
    test_more = root / "tests" / "test_more.py"
    test_more.write_text(test_more.read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8")
    forge = str(Path(sys.executable).parent / "forge")
    env = {
        **os.environ,
        "FORGE_CWD": str(root),
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    command = [
        forge,
        "validate",
        "--plan",
        ".forge/plans/p.json",
        "--module",
        "first",
        "--base",
        "main",
    ]
    times: dict[str, list[float]] = {"with": [], "without": []}
    for _ in range(runs):
        for label, disabled in (("with", "stubs,types"), ("without", "stubs,types,spec_tests")):
            started = time.perf_counter()
            subprocess.run(command, cwd=root, env={**env, "FORGE_DISABLE_PLUGINS": disabled},
                           capture_output=True, check=False)  # fmt: skip
            times[label].append(time.perf_counter() - started)
    return statistics.median(times["with"]), statistics.median(times["without"])


def main() -> None:
    """Download the suites, print the per-move table and the cost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=12, help="tests mutated per suite")
    parser.add_argument("--runs", type=int, default=5, help="timed validates of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="forge-spec-bench-") as folder:
        unpacked = download(Path(folder), npm=(), pypi=tuple(SUITES))
        if unpacked is None:
            sys.exit("cannot download the suites (no network?)")
        # An sdist unpacks to one folder, NAME-VERSION.
        roots = [next(p for p in top.iterdir() if p.is_dir()) for top in unpacked]
        total: dict[str, list[int]] = {}
        for spec, root in zip(SUITES, roots, strict=True):
            for kind, (applied, flagged) in run_corpus(root, spec, args.tests).items():
                total.setdefault(kind, [0, 0])
                total[kind][0] += applied
                total[kind][1] += flagged
        false_alarms = sum(total[kind][1] for kind in HONEST)
        print(f"{'move':<18}{'applied':>8}{'caught':>8}{'recall':>8}{'precision':>10}")
        for kind in MOVES:
            applied, caught = total[kind]
            share = false_alarms / len(MOVES)
            precision = caught / (caught + share) if caught + share else 1.0
            recall = caught / applied if applied else 0.0
            print(f"{kind:<18}{applied:>8}{caught:>8}{recall:>8.2f}{precision:>10.2f}")
        print(f"\n{'honest edit':<18}{'applied':>8}{'flagged':>8}{'false-alarm rate':>18}")
        for kind in HONEST:
            applied, flagged = total[kind]
            print(f"{kind:<18}{applied:>8}{flagged:>8}{flagged / max(applied, 1):>18.2f}")
        if args.runs < 1:
            return
        with_check, without = timed_validates(roots[0], args.runs)
        print(
            f"\nforge validate, more-itertools, one changed test file: {with_check:.2f} s with "
            f"spec_tests, {without:.2f} s without (median of {args.runs}): ratio "
            f"{with_check / without:.2f}"
        )


if __name__ == "__main__":
    main()
