"""``syntax_check``: broken files fail at the right place, valid ones (real code) pass."""

from __future__ import annotations

import json
import shutil
import sys
import sysconfig
import time
from pathlib import Path

import pytest
import tree_sitter_python
from forge_testing import RunForge

from forge import hookimpl
from forge.checks.syntax_check import check_syntax
from forge.config import ForgeConfig
from forge.languages import LanguageRegistry, NotParsed, ParseCache, ParseSession
from forge.models import (
    CheckDescriptor,
    CheckResult,
    Language,
    SyntaxLocation,
    SyntaxResult,
    ValidateRequest,
)
from forge.plugin_host.host import build_plugin_host
from forge.validate.run import Engine
from forge.workspace import Workspace

VALID = Path(__file__).parents[1] / "data" / "syntax" / "valid"
#: The shipped valid sources (py312/ holds PEP 695 code under a project requiring 3.12).
VALID_FILES = sorted(p for p in VALID.rglob("*") if p.is_file() and p.name != "pyproject.toml")


@pytest.fixture(scope="module")
def registry() -> LanguageRegistry:
    return LanguageRegistry.from_plugins(build_plugin_host())


def syntax_result(registry: LanguageRegistry, path: Path) -> SyntaxResult:
    parsed = ParseSession(registry, ParseCache(), max_file_bytes=5_000_000).parse(path)
    assert parsed is not None
    return check_syntax(path.name, parsed, registry.authority(parsed.language.name))


BROKEN = [
    ("stray_paren.py", "x = (1 + 2))\n", 1, 12, "unexpected `)`"),
    ("unclosed.py", "def f(x:\n    return x\n", 1, 6, "`(` was never closed"),
    ("string.py", "s = 'abc\nprint(s)\n", 1, 5, "unterminated string"),
    ("wide.py", 'name = "héllo" + )\n', 1, 18, "unexpected `)`"),
    ("cut.py", "def f(x):\n    return 1\n\ndef g(y):\n", 4, 10, "expected an indented block"),
    ("brace.js", "function f() {\n  return 1;\n", 2, 12, "missing `}`"),
    ("paren.mjs", "const x = foo(1));\n", 1, 17, "unexpected `)`"),
    ("template.js", "const s = `abc\n", 1, 11, "unterminated string"),
    ("bracket.cjs", "let v = [1, 2;\n", 1, 14, "missing `]`"),
    ("generic.ts", 'let x: number = 1;\nconst y = g<string>("a"));\n', 2, 25, "unexpected `)`"),
    ("params.mts", "function f(a: number {\n  return a;\n}\n", 1, 21, "missing `)`"),
    ("jsx.tsx", "const a = <div>{x</div>;\n", 1, 16, "`{` was never closed"),
]


@pytest.mark.parametrize(("name", "source", "line", "column", "message"), BROKEN)
def test_broken_files_fail_at_the_right_place(
    registry: LanguageRegistry,
    tmp_path: Path,
    name: str,
    source: str,
    line: int,
    column: int,
    message: str,
) -> None:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    result = syntax_result(registry, path)
    assert not result.passed
    first = result.locations[0]
    assert (first.line, first.column, first.message) == (line, column, message)
    assert isinstance(first, SyntaxLocation)
    assert first.source_line == source.splitlines()[line - 1]
    assert result.error_count >= 1
    assert f"line {line}, column {column}" in result.message


def test_python_columns_agree_with_cpython(registry: LanguageRegistry, tmp_path: Path) -> None:
    for name, source, *_ in BROKEN:
        if not name.endswith(".py") or "'" in source:
            continue
        with pytest.raises(SyntaxError) as caught:
            compile(source, name, "exec")
        path = tmp_path / name
        path.write_text(source, encoding="utf-8")
        first = syntax_result(registry, path).locations[0]
        assert (first.line, first.column) == (caught.value.lineno, caught.value.offset), name


@pytest.mark.parametrize("path", VALID_FILES, ids=lambda p: p.name)
def test_modern_real_world_files_pass(registry: LanguageRegistry, path: Path) -> None:
    result = syntax_result(registry, path)
    assert result.passed, [loc.model_dump() for loc in result.locations]
    assert result.locations == []


def test_ts_and_tsx_are_different_languages(registry: LanguageRegistry, tmp_path: Path) -> None:
    # `<number>x` is a type assertion in .ts and an unclosed JSX element in .tsx;
    # JSX is an error in .ts.
    as_tsx = tmp_path / "service.tsx"
    shutil.copy(VALID / "service.ts", as_tsx)
    assert not syntax_result(registry, as_tsx).passed
    as_ts = tmp_path / "page.ts"
    shutil.copy(VALID / "page.tsx", as_ts)
    assert not syntax_result(registry, as_ts).passed


def test_at_most_ten_locations_are_listed(registry: LanguageRegistry, tmp_path: Path) -> None:
    path = tmp_path / "many.py"
    path.write_text("".join(f"x{i} = ({i}))\n" for i in range(25)), encoding="utf-8")
    result = syntax_result(registry, path)
    assert result.error_count == 25
    assert [loc.line for loc in result.locations] == list(range(1, 11))
    assert result.to_wire()["errorCount"] == 25
    assert result.to_wire()["locations"][0]["sourceLine"] == "x0 = (0))"


def test_cpython_overrules_a_grammar_false_positive(
    registry: LanguageRegistry, tmp_path: Path
) -> None:
    # tree-sitter-python flags an attribute split over lines inside brackets
    # (seen in CPython's own Lib/test/test_compile.py); the code is valid.
    path = tmp_path / "split.py"
    path.write_text("def f():\n    (bar.\nbaz)\n", encoding="utf-8")
    parsed = ParseSession(registry, ParseCache(), max_file_bytes=1_000).parse(path)
    assert parsed is not None
    assert parsed.has_errors
    assert not check_syntax("split.py", parsed).passed  # the grammar alone
    result = check_syntax("split.py", parsed, registry.authority("python"))
    assert result.passed
    assert result.message == "parses as python"
    assert "CPython" in result.decided_by and "compile()" in result.decided_by


#: Deliberately broken test data in the standard library: Python 2 code and
#: undecodable or mis-declared encodings for lib2to3 and the tokenizer tests.
STDLIB_BROKEN_DIRS = ("lib2to3/tests/data", "test/tokenizedata")
#: Files CPython itself rejects, on purpose (`from __future__ import *`, a late
#: `from __future__`): forge must report every one of them.
STDLIB_BROKEN_GLOB = "test/test_future_stmt/badsyntax_future*.py"


def test_no_false_positives_on_the_standard_library(registry: LanguageRegistry) -> None:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = [
        path
        for path in root.rglob("*.py")
        if "site-packages" not in path.parts
        and not any(path.relative_to(root).as_posix().startswith(d) for d in STDLIB_BROKEN_DIRS)
        and not path.relative_to(root).match(STDLIB_BROKEN_GLOB)
    ]
    assert len(files) > 500
    parsing = ParseSession(registry, ParseCache(max_bytes=0), max_file_bytes=5_000_000)
    flagged = []
    started = time.perf_counter()
    for path in files:
        try:
            parsed = parsing.parse(path)
        except NotParsed as problem:
            flagged.append(f"{path}: {problem}")
            continue
        assert parsed is not None
        result = check_syntax(str(path), parsed, registry.authority("python"))
        if not result.passed:
            flagged.append(f"{path}: {result.message}")
    elapsed = time.perf_counter() - started
    assert flagged == []
    print(f"{len(files)} stdlib files in {elapsed:.1f}s ({len(files) / elapsed:.0f} files/s)")


# --- through the engine -----------------------------------------------------


class Probe:
    """A third-party check that asks the workspace for the same files' trees."""

    def __init__(self) -> None:
        self.seen: list[object] = []

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="probe_check", summary="Parses what the others parse.")]

    @hookimpl(trylast=True)
    def forge_run_checks(self, request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
        for file in request.files:
            self.seen.append(workspace.parse(file))
            self.seen.append(workspace.parse(file))
        return []


def test_checks_share_one_parse_per_call_and_the_engine_keeps_trees(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n", encoding="utf-8")
    (tmp_path / "b.ts").write_text("export const b = 2;\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("text\n", encoding="utf-8")
    probe = Probe()
    engine = Engine(tmp_path, ForgeConfig(), build_plugin_host(extra_plugins=[("probe", probe)]))
    request = ValidateRequest(module_id="m", files=["a.py", "b.ts", "c.txt"])

    report = engine.validate(request)
    syntax = [r for r in report.results if r.type == "syntax_check"]
    assert [(r.target, r.passed) for r in syntax] == [("a.py", True), ("b.ts", True)]
    assert engine.parse_cache.parses == 2
    a_tree, a_again, b_tree, b_again, none, none_again = probe.seen
    assert a_tree is a_again and b_tree is b_again
    assert none is None and none_again is None

    engine.validate(request)
    assert engine.parse_cache.parses == 2
    assert probe.seen[6] is a_tree

    (tmp_path / "a.py").write_text("a = (1\n", encoding="utf-8")
    report = engine.validate(request)
    assert engine.parse_cache.parses == 3
    failing = [r for r in report.results if not r.passed]
    assert [(r.type, r.target) for r in failing] == [("syntax_check", "a.py")]


class BrokenGrammar:
    @hookimpl
    def forge_languages(self) -> list[Language]:
        def load() -> object:
            raise OSError("libtree-sitter-broken.so: cannot open shared object file")

        return [Language(name="broken", extensions=(".brk",), load_grammar=load)]


class Clash:
    @hookimpl
    def forge_languages(self) -> list[Language]:
        return [
            Language(name="snake", extensions=(".py",), load_grammar=tree_sitter_python.language)
        ]


def test_plugin_problems_become_plugin_errors(tmp_path: Path) -> None:
    for name in ("one.brk", "two.brk", "ok.py"):
        (tmp_path / name).write_text("x = 1\n", encoding="utf-8")
    host = build_plugin_host(extra_plugins=[("broken_lang", BrokenGrammar()), ("clash", Clash())])
    report = Engine(tmp_path, ForgeConfig(), host).validate(
        ValidateRequest(module_id="m", files=["one.brk", "two.brk", "ok.py"])
    )
    errors = {r.target: r.message for r in report.results if r.type == "plugin_error"}
    assert set(errors) == {"broken_lang", "clash"}
    assert "cannot open shared object file" in errors["broken_lang"]
    assert "'python'" in errors["clash"] and "'clash'" in errors["clash"]
    syntax = [r.target for r in report.results if r.type == "syntax_check"]
    assert syntax == ["ok.py"]


# --- the CLI ----------------------------------------------------------------


def test_cli_prints_path_line_col_message(project: Path, run_forge: RunForge) -> None:
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("def f():\n    return (1 + 2))\n", encoding="utf-8")
    (project / "src" / "ui.tsx").write_text(
        "export const A = () => <div>{x</div>;\n", encoding="utf-8"
    )
    (project / "src" / "ok.js").write_text("export const ok = 1;\n", encoding="utf-8")
    (project / "notes.md").write_text("# notes\n", encoding="utf-8")
    done = run_forge("validate", "--files", "src/app.py", "src/ui.tsx", "src/ok.js", "notes.md")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "src/app.py:2:19: unexpected `)`" in lines
    assert "src/ui.tsx:1:29: `{` was never closed" in lines
    assert not any(line.startswith("notes.md:") for line in lines)
    assert not any("syntax_check  notes.md" in line for line in lines)

    done = run_forge("validate", "--files", "src/app.py", "src/ok.js", "--json")
    report = json.loads(done.stdout)
    syntax = {r["target"]: r for r in report["results"] if r["type"] == "syntax_check"}
    assert syntax["src/ok.js"]["passed"] is True
    failing = syntax["src/app.py"]
    assert failing["errorCount"] == 1
    assert failing["locations"] == [
        {"line": 2, "column": 19, "message": "unexpected `)`", "sourceLine": "    return (1 + 2))"}
    ]


def test_cli_size_cap_and_undecodable_files(project: Path, run_forge: RunForge) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.forge]\nmax-parse-bytes = 1000\n", encoding="utf-8"
    )
    (project / "bundle.js").write_text("var a = (;\n" * 200, encoding="utf-8")
    (project / "latin.ts").write_bytes("const s = 'caf\xe9';\n".encode("latin-1"))
    done = run_forge("validate", "--files", "bundle.js", "latin.ts", "--json")
    results = {
        r["target"]: r for r in json.loads(done.stdout)["results"] if r["type"] == "syntax_check"
    }
    # Not judged is no pass (tests/validate/test_unjudged.py has the rest).
    assert results["bundle.js"]["passed"] is False and results["bundle.js"]["unjudged"]
    assert "over the 1,000-byte parse limit" in results["bundle.js"]["message"]
    assert results["latin.ts"]["passed"] is False
    assert "not UTF-8 text: byte 0xe9 at line 1, column 15" in results["latin.ts"]["message"]


def test_forge_plugins_reports_a_language_conflict(
    project: Path, run_forge: RunForge, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    (site / "forge_golang").mkdir(parents=True)
    (site / "forge_golang" / "__init__.py").write_text(
        "from forge import hookimpl\n"
        "from forge.models import Language\n"
        "@hookimpl\n"
        "def forge_languages():\n"
        "    return [Language(name='golang', extensions=('.go', '.jsx'), load_grammar=lambda: None)]\n",
        encoding="utf-8",
    )
    dist = site / "forge_golang-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: forge-golang\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text("[forge]\ngolang = forge_golang\n", encoding="utf-8")
    env = {"PYTHONPATH": str(site)}

    done = run_forge("plugins", env=env)
    assert done.returncode == 1
    row = next(line for line in done.stdout.splitlines() if line.startswith("golang"))
    assert "'.jsx'" in row and "'javascript'" in row
    assert "languages:" in done.stdout

    (project / "a.jsx").write_text("const a = <b/>;\n", encoding="utf-8")
    done = run_forge("validate", "--files", "a.jsx", "--json", env=env)
    results = json.loads(done.stdout)["results"]
    assert [r["target"] for r in results if r["type"] == "plugin_error"] == ["golang"]
    assert [r["passed"] for r in results if r["type"] == "syntax_check"] == [True]


def test_the_stdlib_test_skips_only_deliberately_broken_data() -> None:
    root = Path(sysconfig.get_paths()["stdlib"])
    registry = LanguageRegistry.from_plugins(build_plugin_host())
    broken = sorted(root.glob(STDLIB_BROKEN_GLOB))
    for path in broken:
        with pytest.raises(SyntaxError):
            compile(path.read_bytes(), str(path), "exec")
        assert not syntax_result(registry, path).passed, path
    assert sys.version_info >= (3, 10)
