"""Syntax authorities: oxc for JS/TS/TSX, CPython's compiler for Python (issue 13).

Each valid construct passes, and a mutant of it that really is broken is still
reported; tree-sitter alone is asked too, to show which side the authority
changes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from forge_testing import RunForge, published_sources_of

from forge.checks.syntax_check import check_syntax
from forge.languages import LanguageRegistry, ParseCache, ParseSession
from forge.languages.python import interpreter_meets, lowest_version
from forge.languages.python_versions import highest_version
from forge.models import SyntaxLocation, SyntaxResult, ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.validate.run import Engine


@pytest.fixture(scope="module")
def registry() -> LanguageRegistry:
    return LanguageRegistry.from_plugins(build_plugin_host())


def verdicts(registry: LanguageRegistry, path: Path) -> tuple[SyntaxResult, SyntaxResult]:
    """(forge's result, tree-sitter's alone) for ``path``."""
    parsed = ParseSession(registry, ParseCache(), max_file_bytes=5_000_000).parse(path)
    assert parsed is not None
    authority = registry.authority(parsed.language.name)
    assert authority is not None
    return check_syntax(path.name, parsed, authority), check_syntax(path.name, parsed)


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


# Valid TypeScript that tree-sitter-typescript 0.23.2 rejects (tsc 5.9 accepts each),
# and beside each a mutant that really is broken (the TypeScript 5.9 parser rejects each).
TYPESCRIPT = [
    (
        "type_star.ts",
        "export type * from './types.js';\n",
        "export type * from ;\n",
    ),
    (
        "variance.ts",
        "export interface Box<out T> { get(): T }\n",
        "export interface Box<out T { get(): T }\n",
    ),
    (
        "variance_default.ts",
        "interface Sink<in T = never> {}\nclass K<in out T> {}\n",
        "interface Sink<in T = > {}\nclass K<in out T> {}\n",
    ),
    (
        "signatures.ts",
        "type F = {\n  (): string\n  <U>(x: U): U\n}\n",
        "type F = {\n  (): string\n  <U>(x: U: U\n}\n",
    ),
    (
        "typeof_import.ts",
        "f<typeof import('./b')>('a',)\n",
        "f<typeof import('./b')>('a',,)\n",
    ),
    (
        "typeof_import.tsx",
        "f<typeof import('./b')>('a',)\n",
        "f<typeof import('./b')>('a',,)\n",
    ),
]


@pytest.mark.parametrize(("name", "valid", "broken"), TYPESCRIPT, ids=lambda v: str(v)[:20])
def test_valid_typescript_the_grammar_rejects_passes_and_its_mutant_fails(
    registry: LanguageRegistry, tmp_path: Path, name: str, valid: str, broken: str
) -> None:
    ours, grammar = verdicts(registry, write(tmp_path, name, valid))
    assert not grammar.passed  # tree-sitter's false alarm...
    assert ours.passed, ours.message  # ...cleared by oxc
    assert "oxc" in ours.decided_by

    ours, _ = verdicts(registry, write(tmp_path / "broken", name, broken))
    assert not ours.passed
    assert ours.locations and ours.locations[0].line >= 1


# Python's compile stage: what no grammar catches. (name, broken, line, message, valid twin)
PYTHON = [
    ("return", "x = 1\nreturn x\n", 2, "'return' outside function", "def f(x):\n    return x\n"),
    ("yield", "x = 1\nyield x\n", 2, "'yield' outside function", "def f(x):\n    yield x\n"),
    (
        "await",
        "def f(x):\n    await x\n",
        2,
        "'await' outside async function",
        "async def f(x):\n    await x\n",
    ),
    ("break", "x = 1\nbreak\n", 2, "'break' outside loop", "for x in y:\n    break\n"),
    (
        "continue",
        "if x:\n    continue\n",
        2,
        "'continue' not properly in loop",
        "while x:\n    continue\n",
    ),
    (
        "nonlocal",
        "print(1)\nnonlocal x\n",
        2,
        "nonlocal declaration not allowed at module level",
        "def f():\n    x = 1\n    def g():\n        nonlocal x\n",
    ),
    (
        "duplicate_argument",
        "def f(a, b, a):\n    pass\n",
        1,
        "duplicate argument 'a' in function definition",
        "def f(a, b, c):\n    pass\n",
    ),
    (
        "import_star",
        "def f():\n    from os import *\n",
        2,
        "import * only allowed at module level",
        "from os import *\n",
    ),
    ("debug", "__debug__ = 1\n", 1, "cannot assign to __debug__", "debug = 1\n"),
]


@pytest.mark.parametrize(("name", "broken", "line", "message", "valid"), PYTHON, ids=lambda v: v)
def test_compile_stage_python_errors_are_reported(
    registry: LanguageRegistry,
    tmp_path: Path,
    name: str,
    broken: str,
    line: int,
    message: str,
    valid: str,
) -> None:
    ours, grammar = verdicts(registry, write(tmp_path, f"{name}.py", broken))
    assert grammar.passed  # no grammar sees these
    assert not ours.passed
    first = ours.locations[0]
    assert (first.line, first.message) == (line, message)
    assert first.column >= 1
    assert f"line {line}, column {first.column}: {message}" in ours.message
    assert "CPython" in ours.decided_by and "CPython" not in ours.message

    ours, _ = verdicts(registry, write(tmp_path / "valid", f"{name}.py", valid))
    assert ours.passed, ours.message


def test_python_errors_count_only_where_the_interpreter_meets_requires_python(
    registry: LanguageRegistry, tmp_path: Path
) -> None:
    source = "x = 1\nreturn x\n"
    newer = f"{sys.version_info.major}.{sys.version_info.minor + 1}"
    # The project needs a newer Python than this one: CPython's rejection may be
    # a construct it does not know yet, so it does not count.
    write(tmp_path / "new", "pyproject.toml", f'[project]\nrequires-python = ">={newer}"\n')
    ours, _ = verdicts(registry, write(tmp_path / "new" / "src", "a.py", source))
    assert ours.passed, ours.message
    # A project that runs on this Python: reported.
    write(tmp_path / "old", "pyproject.toml", '[project]\nrequires-python = ">=3.8, <4"\n')
    ours, _ = verdicts(registry, write(tmp_path / "old" / "src", "a.py", source))
    assert not ours.passed
    # Tree-sitter still decides where CPython may not: a grammar error fails anyway.
    ours, _ = verdicts(registry, write(tmp_path / "new" / "src", "b.py", "x = (1\n"))
    assert not ours.passed


def test_pep_695_code_passes_under_a_project_that_requires_3_12(
    registry: LanguageRegistry, tmp_path: Path
) -> None:
    source = "type Pair[T] = tuple[T, T]\n\ndef first[T](p: Pair[T]) -> T:\n    return p[0]\n"
    write(tmp_path / "p", "pyproject.toml", '[project]\nrequires-python = ">=3.12"\n')
    ours, _ = verdicts(registry, write(tmp_path / "p", "new.py", source))
    assert ours.passed, ours.message
    write(tmp_path / "q", "pyproject.toml", '[project]\nrequires-python = ">=3.10"\n')
    ours, _ = verdicts(registry, write(tmp_path / "q", "new.py", source))
    # A 3.10 project must run on 3.10, which refuses this syntax (issue 40; issue 27
    # passed it, whichever interpreter forge runs on): the oldest allowed Python judges.
    assert not ours.passed
    assert (
        ours.locations[0].message == "a `type` alias needs Python 3.12; requires-python allows 3.10"
    )


@pytest.mark.parametrize(
    ("specifier", "lowest"),
    [
        (">=3.10", (3, 10)),
        (">=3.8, <4", (3, 8)),
        ("~=3.9", (3, 9)),
        ("==3.11.*", (3, 11)),
        (">=3.9,!=3.10.0,>=3.9.2", (3, 9, 2)),
        ("<4", None),
        ("garbage", None),
    ],
)
def test_lowest_version(specifier: str, lowest: tuple[int, ...] | None) -> None:
    assert lowest_version(specifier) == lowest


@pytest.mark.parametrize(
    ("specifier", "highest"),
    [
        (">=3.10", None),
        (">=3.8, <4", (3, 99)),
        ("<3.12", (3, 11)),
        ("<3.12.1", (3, 12)),
        ("<=3.11", (3, 11)),
        ("==3.11.*", (3, 11)),
        ("~=3.10", (3, 99)),
        ("~=3.11.2", (3, 11)),
        (">=3.10,!=3.11.*", None),
        ("garbage", None),
    ],
)
def test_highest_version(specifier: str, highest: tuple[int, int] | None) -> None:
    assert highest_version(specifier) == highest


def test_interpreter_meets() -> None:
    assert interpreter_meets(None)
    assert interpreter_meets((3, 8))
    assert not interpreter_meets((sys.version_info.major, sys.version_info.minor + 1))


# --- parse goals follow the file --------------------------------------------

HTML_COMMENT = "<!-- a script-only comment\nvar x = 1;\n"
TOP_LEVEL_AWAIT = "const a = Promise.resolve(1);\nawait a;\n"
JSX = "const a = <div className='x'>hi</div>;\nexport default a;\n"


@pytest.mark.parametrize(
    ("package_type", "name", "source", "passes"),
    [
        (None, "a.cjs", HTML_COMMENT, True),
        (None, "a.mjs", HTML_COMMENT, False),
        (None, "a.cjs", TOP_LEVEL_AWAIT, False),
        # CommonJS runs as a function body: a top-level return is fine there
        (None, "a.cjs", "#!/usr/bin/env node\nif (!module.parent) return;\n", True),
        (None, "a.mjs", "if (!import.meta.main) return;\n", False),
        (None, "a.mjs", TOP_LEVEL_AWAIT, True),
        # .js without "type": a script, or ESM when node would run it so
        (None, "a.js", HTML_COMMENT, True),
        (None, "a.js", TOP_LEVEL_AWAIT, True),
        (None, "a.js", "import x from './x.js';\nexport const y = x;\n", True),
        ("commonjs", "a.js", HTML_COMMENT, True),
        ("module", "a.js", HTML_COMMENT, False),
        ("module", "a.js", TOP_LEVEL_AWAIT, True),
        # JSX only where the extension allows it
        (None, "a.jsx", JSX, True),
        (None, "a.js", JSX, True),
        (None, "a.mjs", JSX, False),
        (None, "a.cjs", JSX, False),
        (None, "a.ts", JSX, False),
        (None, "a.tsx", JSX, True),
    ],
)
def test_parse_goals_follow_the_file(
    registry: LanguageRegistry,
    tmp_path: Path,
    package_type: str | None,
    name: str,
    source: str,
    passes: bool,
) -> None:
    if package_type is not None:
        write(tmp_path, "package.json", json.dumps({"name": "p", "type": package_type}))
    ours, _ = verdicts(registry, write(tmp_path / "src", name, source))
    assert ours.passed is passes, ours.message


def test_an_error_only_the_authority_sees_is_placed_and_named(
    registry: LanguageRegistry, tmp_path: Path
) -> None:
    ours, grammar = verdicts(registry, write(tmp_path, "a.mjs", "let a = 1;\n" + HTML_COMMENT))
    assert grammar.passed
    assert not ours.passed
    first = ours.locations[0]
    # node's words and place (V8 decides where node is; oxc said "unexpected token `<`")
    assert (first.line, first.column, first.message) == (
        2,
        4,
        "HTML comments are not allowed in modules",
    )
    assert isinstance(first, SyntaxLocation)
    assert first.source_line == "<!-- a script-only comment"


def test_deep_nesting_does_not_crash(registry: LanguageRegistry, tmp_path: Path) -> None:
    # oxc recurses once per level: its own thread's large stack holds this...
    ours, _ = verdicts(registry, write(tmp_path, "a.ts", "x = " + "(" * 50_000 + ")" * 50_000))
    assert not ours.passed
    # ...and a file nested deeper than any stack gets tree-sitter's verdict alone.
    deep = "x = " + "[" * 400_000 + "]" * 400_000 + ";\n"
    ours, grammar = verdicts(registry, write(tmp_path, "b.ts", deep))
    assert ours.passed == grammar.passed


# --- the CLI ----------------------------------------------------------------


def test_forge_plugins_says_which_parser_decides(run_forge: RunForge, tmp_path: Path) -> None:
    done = run_forge("plugins")
    decided = done.stdout.split("syntax decided by:", 1)[1]
    assert "javascript: V8 (node, compiling only) and oxc (oxc-python 0.1.1)" in decided
    assert "typescript: oxc (oxc-python 0.1.1)" in decided
    assert "tsx: oxc (oxc-python 0.1.1)" in decided
    assert "python: CPython" in decided and "compile()" in decided


def test_without_oxc_tree_sitter_decides_alone_and_forge_plugins_says_so(
    project: Path, run_forge: RunForge, tmp_path: Path
) -> None:
    # A platform without oxc-python's wheel: the import fails.
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "oxc_python.py").write_text(
        "raise ImportError('no wheel for this platform')\n", encoding="utf-8"
    )
    env = {"PYTHONPATH": str(shadow)}
    done = run_forge("plugins", env=env)
    assert "typescript: tree-sitter only (ImportError: oxc-python is not importable" in done.stdout
    assert "python: CPython" in done.stdout

    (project / "a.ts").write_text("export type * from './types.js';\n", encoding="utf-8")
    done = run_forge("validate", "--files", "a.ts", env=env)
    # tree-sitter alone: its false alarm on valid TypeScript 5.0 stands.
    assert done.returncode == 1, done.stdout + done.stderr
    assert "a.ts:1:" in done.stdout
    assert run_forge("validate", "--files", "a.ts").returncode == 0


# --- real published code ------------------------------------------------------

#: Packages whose every file is valid (no deliberately broken test data), one per
#: kind of source: modern .d.ts, TypeScript, TSX, ESM and CommonJS JavaScript, Python.
REAL = ("type-fest@5.10.0", "zod@3.25.76", "@tanstack/react-router@1.170.46", "express@5.3.0")
REAL_PYPI = ("requests==2.34.2",)
BUILT_IN = {"javascript", "python", "typescript", "tsx"}


@pytest.mark.slow
def test_no_valid_file_of_real_packages_is_reported_broken(registry: LanguageRegistry) -> None:
    folders = published_sources_of(
        [("npm", spec) for spec in REAL] + [("pypi", spec) for spec in REAL_PYPI]
    )
    parsing = ParseSession(registry, ParseCache(max_bytes=0), max_file_bytes=5_000_000)
    checked: dict[str, int] = {}
    broken = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            parsed = parsing.parse(path) if path.is_file() else None
            if parsed is None or parsed.language.name not in BUILT_IN:
                continue
            name = parsed.language.name
            checked[name] = checked.get(name, 0) + 1
            result = check_syntax(str(path), parsed, registry.authority(name))
            if not result.passed:
                broken.append(f"{path}: {result.message}")
    assert broken == []
    assert set(checked) == BUILT_IN, checked
    assert sum(checked.values()) > 1000, checked


def test_cli_prints_the_authority_findings_as_path_line_col(
    project: Path, run_forge: RunForge
) -> None:
    (project / "src").mkdir()
    (project / "src" / "job.py").write_text("def f():\n    pass\nreturn 1\n", encoding="utf-8")
    (project / "src" / "old.mjs").write_text("let a = 1;\n" + HTML_COMMENT, encoding="utf-8")
    (project / "src" / "types.ts").write_text(
        "export type * from './types.js';\n", encoding="utf-8"
    )
    done = run_forge("validate", "--files", "src/job.py", "src/old.mjs", "src/types.ts")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "src/job.py:3:1: 'return' outside function" in lines
    assert "src/old.mjs:2:4: HTML comments are not allowed in modules" in lines
    assert not any(line.startswith("src/types.ts:") for line in lines)


# --- verdicts kept between calls, and what they depend on besides the file ------


def syntax_passed(engine: Engine, file: str) -> bool:
    report = engine.validate(ValidateRequest(module_id="m", files=[file]))
    (result,) = [r for r in report.results if r.type == "syntax_check"]
    return result.passed


def test_a_kept_js_verdict_follows_the_package_json_type(project: Path) -> None:
    write(project / "src", "a.js", HTML_COMMENT)  # fine in a script, an error in a module
    engine = Engine.for_project(project)
    assert syntax_passed(engine, "src/a.js")
    assert syntax_passed(engine, "src/a.js")  # kept with the file's tree
    write(project, "package.json", json.dumps({"name": "p", "type": "module"}))
    assert not syntax_passed(engine, "src/a.js")
    write(project, "package.json", json.dumps({"name": "p", "type": "commonjs"}))
    assert syntax_passed(engine, "src/a.js")


def test_a_kept_python_verdict_follows_requires_python(project: Path) -> None:
    write(project, "job.py", "def f():\n    pass\nreturn 1\n")  # only compile() sees it
    engine = Engine.for_project(project)
    assert not syntax_passed(engine, "job.py")
    assert not syntax_passed(engine, "job.py")
    # A project for a Python newer than this one: compile()'s rejections do not count.
    write(project, "pyproject.toml", '[project]\nname = "p"\nrequires-python = ">=3.99"\n')
    assert syntax_passed(engine, "job.py")
    write(project, "pyproject.toml", '[project]\nname = "p"\nrequires-python = ">=3.8"\n')
    assert not syntax_passed(engine, "job.py")


# --- sloppy scripts and early errors (issue 30) -------------------------------

# Valid scripts node accepts (Annex B HTML-like comments, `let` as an identifier), and beside
# each a look-alike node rejects.
SLOPPY = [
    ("html_close_first_line.js", "--> a comment on the first line\nvar x = 1;\n", True),
    ("html_close_after_comment.cjs", "/* a */ --> still a comment\nvar x = 1;\n", True),
    ("html_close_mid_line.cjs", "var x = 1; --> not at a line start\n", False),
    ("let_alone.js", "let\n", True),
    ("let_increment.js", "let++;\nlet--;\n", True),
    ("let_in_block.cjs", "if (a) { let }\n", True),
    ("let_sequence.cjs", "let, x;\nlet ? 1 : 2;\nlet`t`;\nlet: for (;;) break let;\n", True),
    ("let_bang.cjs", "let!\n", False),
    ("let_in_module.mjs", "let\n", False),
]


@pytest.mark.parametrize(("name", "source", "passes"), SLOPPY, ids=lambda v: str(v)[:24])
def test_sloppy_scripts_html_comments_and_let_as_an_identifier(
    registry: LanguageRegistry, tmp_path: Path, name: str, source: str, passes: bool
) -> None:
    ours, _ = verdicts(registry, write(tmp_path, name, source))
    assert ours.passed is passes, ours.message


# Early errors node (or tsc) reports and a parser without a semantic pass misses:
# (file, broken source, line, column, message part, valid twin).
EARLY = [
    ("letlet.js", "var a;\nlet let = 1;\n", 2, 5, "let", "var a;\nlet lets = 1;\n"),
    ("constlet.mjs", "const let = 1;\n", 1, 7, "reserved word", "const lets = 1;\n"),
    ("forlet.cjs", "for (let let of x);\n", 1, 10, "let", "for (let lets of x);\n"),
    (
        "type_only.ts",
        "import type A, { B } from './b';\n",
        1,
        1,
        "default import or named bindings",
        "import type A from './b';\nimport type { B } from './b';\n",
    ),
    (
        "type_only_star.ts",
        "import type A, * as B from './b';\n",
        1,
        1,
        "default import or named bindings",
        "import A, * as B from './b';\n",
    ),
    (
        "import.cjs",
        "'use strict';\nimport x from './x';\nmodule.exports = x;\n",
        2,
        1,
        "import",
        "'use strict';\nconst x = require('./x');\nmodule.exports = x;\n",
    ),
    ("export.cjs", "export const x = 1;\n", 1, 1, "export", "exports.x = 1;\n"),
]


@pytest.mark.parametrize(
    ("name", "broken", "line", "column", "message", "valid"), EARLY, ids=lambda v: str(v)[:16]
)
def test_early_errors_are_reported_where_they_are(
    registry: LanguageRegistry,
    tmp_path: Path,
    name: str,
    broken: str,
    line: int,
    column: int,
    message: str,
    valid: str,
) -> None:
    ours, grammar = verdicts(registry, write(tmp_path, name, broken))
    assert grammar.passed  # no grammar sees these
    assert not ours.passed
    first = ours.locations[0]
    assert (first.line, first.column) == (line, column), first
    assert message in first.message

    ours, _ = verdicts(registry, write(tmp_path / "valid", name, valid))
    assert ours.passed, ours.message


def test_a_js_file_with_import_is_still_a_module_where_node_would_run_it_so(
    registry: LanguageRegistry, tmp_path: Path
) -> None:
    # The CommonJS goal refuses `import`, then the module goal takes it, as node does.
    ours, _ = verdicts(registry, write(tmp_path, "a.js", "import x from './x';\nlet y = x;\n"))
    assert ours.passed, ours.message


@pytest.mark.parametrize("name", ["a.js", "a.mjs", "a.ts", "a.tsx"])
def test_a_nul_character_in_a_js_string_is_text(
    registry: LanguageRegistry, tmp_path: Path, name: str
) -> None:
    # ECMAScript source may hold U+0000 in strings and comments (test262's pass/ does).
    path = tmp_path / name
    path.write_bytes(b'"use strict";\nconst a = "\x00x";\n')
    ours, _ = verdicts(registry, path)
    assert ours.passed, ours.message
    # Outside a string it is no token: still a syntax error, placed.
    path.write_bytes(b"const a = 1;\n\x00\n")
    ours, _ = verdicts(registry, path)
    assert not ours.passed
    assert ours.locations[0].line == 2


# --- syntax a newer Python accepts (issue 27) -------------------------------------

#: Syntax CPython accepts from a version on: (version, name, source).
NEWER_SYNTAX = [
    ((3, 11), "except_star", "try:\n    pass\nexcept* ValueError:\n    pass\n"),
    ((3, 12), "pep695_def", "def first[T](p: list[T]) -> T:\n    return p[0]\n"),
    ((3, 12), "pep695_class", "class Box[T]:\n    item: T\n"),
    ((3, 12), "pep695_type", "type Pair[T] = tuple[T, T]\ntype Id = int\n"),
    (
        (3, 13),
        "pep696",
        "def f[T = int](x: T) -> T:\n    return x\n\n\nclass C[T = str]:\n    pass\n",
    ),
    ((3, 12), "pep701_quotes", 'names = {"a": 1}\nx = f"{names["a"]}"\n'),
    ((3, 12), "pep701_backslash", "x = f\"{'\\n'.join(['a', 'b'])}\"\n"),
    ((3, 12), "pep701_nested", 'x = f"{f"{f"{1}"}"}"\n'),
    ((3, 12), "pep701_comment", 'x = f"{1  # one\n}"\n'),
    ((3, 14), "pep758", "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n"),
    ((3, 14), "pep750", 'name = "x"\ngreeting = t"hello {name}"\n'),
]
NEWER_NAMES = [f"{name}.py" for _, name, _ in NEWER_SYNTAX]


def _write_newer(folder: Path) -> None:
    for _, name, source in NEWER_SYNTAX:
        write(folder, f"{name}.py", source)


def _syntax_results(done: Any) -> dict[str, dict[str, Any]]:
    report = json.loads(done.stdout)
    return {r["target"]: r for r in report["results"] if r["type"] == "syntax_check"}


def test_syntax_a_newer_python_accepts_is_no_syntax_error_without_requires_python(
    run_forge: RunForge, project: Path
) -> None:
    """No requires-python: CPython's rejection of syntax a newer Python accepts is not
    a syntax error."""
    _write_newer(project)
    done = run_forge("validate", "--files", *NEWER_NAMES, "--json")
    failed = {t: r["message"] for t, r in _syntax_results(done).items() if not r["passed"]}
    assert failed == {}
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr


@pytest.mark.parametrize(("requires", "lowest"), [(">=3.10", (3, 10)), (">=3.8,<4", (3, 8))])
def test_syntax_newer_than_the_oldest_allowed_python_names_the_python_it_needs(
    run_forge: RunForge, project: Path, requires: str, lowest: tuple[int, int]
) -> None:
    """requires-python's lower bound judges (issue 40): each construct newer than it
    fails, naming the Python it needs, whichever interpreter forge runs on."""
    write(project, "pyproject.toml", f'[project]\nname = "p"\nrequires-python = "{requires}"\n')
    _write_newer(project)
    done = run_forge("validate", "--files", *NEWER_NAMES, "--json")
    results = _syntax_results(done)
    allows = f"requires-python allows {lowest[0]}.{lowest[1]}"
    for version, name, _ in NEWER_SYNTAX:
        result = results[f"{name}.py"]
        assert not result["passed"], name
        if name == "pep696":
            continue  # tree-sitter 0.25 flags `T = int` itself: its words are shown
        message = result["locations"][0]["message"]
        assert message.endswith(f"needs Python {version[0]}.{version[1]}; {allows}"), name


def test_a_project_capped_at_this_python_gets_cpythons_rejections_in_plain_words(
    run_forge: RunForge, project: Path
) -> None:
    running = sys.version_info[:2]
    newer = [f"{name}.py" for version, name, _ in NEWER_SYNTAX if version > running]
    if not newer:
        pytest.skip("this Python accepts every construct in NEWER_SYNTAX")
    capped = f"=={running[0]}.{running[1]}.*"
    write(project, "pyproject.toml", f'[project]\nname = "p"\nrequires-python = "{capped}"\n')
    _write_newer(project)
    done = run_forge("validate", "--files", *NEWER_NAMES, "--json")
    results = _syntax_results(done)
    assert sorted(t for t, r in results.items() if not r["passed"]) == sorted(newer)
    for target in newer:
        assert "CPython" in results[target]["decidedBy"], results[target]
    text = run_forge("validate", "--files", *newer)
    lines = [line for line in text.stdout.splitlines() if line.startswith("FAIL syntax_check")]
    assert lines, text.stdout
    for line in lines:
        assert "compile()" not in line and "requires-python" not in line, line
        assert re.search(r": \d+ syntax errors? \(python\); first at line \d+", line), line


def test_a_real_error_beside_newer_syntax_is_still_found(
    run_forge: RunForge, project: Path
) -> None:
    write(
        project,
        "job.py",
        'def first[T](p: list[T]) -> T:\n    return f"{p["a"]}"\n\n\nreturn 1\n',
    )
    write(project, "fstr.py", 'type Id = int\nx = f"{a b}"\n')
    done = run_forge("validate", "--files", "job.py", "fstr.py", "--json")
    results = _syntax_results(done)
    job = results["job.py"]
    assert not job["passed"], job
    assert (job["locations"][0]["line"], job["locations"][0]["message"]) == (
        5,
        "'return' outside function",
    )
    assert not results["fstr.py"]["passed"], results["fstr.py"]
    assert results["fstr.py"]["locations"][0]["line"] == 2
