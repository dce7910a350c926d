"""``contract_check`` through the engine: pairs, automatic pairs, one parse per file, plugins."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import tree_sitter

from forge import hookimpl
from forge.config import ForgeConfig
from forge.contracts.analysis import ContractAnalyzer
from forge.contracts.extractor import (
    ExportSet,
    ImportRef,
    ParsedSource,
    imported,
    load_query,
    query_source,
)
from forge.models import ContractResult, Language, ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.validate.run import Engine
from forge.workspace import Workspace

REPO = Path(__file__).resolve().parents[2]


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def engine(root: Path, **plugins: object) -> Engine:
    return Engine(root, ForgeConfig(), build_plugin_host(extra_plugins=list(plugins.items())))


def contract_results(engine: Engine, **request: object) -> list[ContractResult]:
    report = engine.validate(ValidateRequest(module_id="m", **request))  # type: ignore[arg-type]
    return [r for r in report.results if isinstance(r, ContractResult)]


APP = {
    "src/api.ts": "export function getUserById(id: string) { return id; }\n",
    "src/app.ts": (
        "import React from 'react';\n"
        "import { cfg } from '@/config';\n"
        "import data from './data.json';\n"
        "import { getUser } from './api.js';\n"
        "import './styles.css';\n"
    ),
    "src/data.json": "{}\n",
    "src/styles.css": "body {}\n",
}


def test_local_imports_of_listed_files_are_checked_automatically(project: Path) -> None:
    write(project, APP)
    (result,) = contract_results(engine(project), files=["src/app.ts"])
    assert result.automatic is True
    assert result.target == "src/api.ts -> src/app.ts"
    assert result.passed is False
    assert result.missing == ["getUser"]
    (detail,) = result.missing_details
    assert (detail.line, detail.column, detail.suggestion) == (4, 10, "getUserById")
    assert result.to_wire()["missingDetails"] == [
        {"name": "getUser", "line": 4, "column": 10, "suggestion": "getUserById"}
    ]


def test_automatic_contracts_can_be_turned_off(project: Path) -> None:
    write(project, APP)
    assert contract_results(engine(project), files=["src/app.ts"], auto_contracts=False) == []


def test_a_requested_pair_is_not_repeated_as_automatic(project: Path) -> None:
    write(project, APP)
    results = contract_results(
        engine(project),
        files=["src/app.ts"],
        contract_checks=[{"exporter": "src/api.ts", "importer": "./src/app.ts"}],
    )
    assert [(r.target, r.automatic) for r in results] == [("src/api.ts -> ./src/app.ts", False)]


def test_imports_outside_the_working_dir_are_not_automatic(tmp_path: Path) -> None:
    write(tmp_path, {"shared/util.py": "x = 1\n", "work/app.py": "from ..shared.util import y\n"})
    assert contract_results(engine(tmp_path / "work"), files=["app.py"]) == []


def test_missing_files_fail_with_their_role(project: Path) -> None:
    write(project, {"app.py": "import lib\n"})
    results = contract_results(
        engine(project),
        contract_checks=[
            {"exporter": "lib.py", "importer": "app.py"},
            {"exporter": "app.py", "importer": "gone.py"},
        ],
    )
    assert [r.message for r in results] == [
        "exporter lib.py does not exist",
        "importer gone.py does not exist",
    ]
    assert not any(r.passed for r in results)


def test_a_side_that_is_no_regular_file_fails_its_pair_alone(project: Path) -> None:
    write(project, {"app.py": "import lib\n", "lib.py": "x = 1\n"})
    os.mkfifo(project / "fifo.py")
    (project / "folder.py").mkdir()
    (project / "loop.py").symlink_to("loop.py")
    results = contract_results(
        engine(project),
        contract_checks=[
            {"exporter": "fifo.py", "importer": "app.py"},
            {"exporter": "folder.py", "importer": "app.py"},
            {"exporter": "loop.py", "importer": "app.py"},
            {"exporter": "lib.py", "importer": "n" * 300 + ".py"},
            {"exporter": "lib.py", "importer": "app.py"},
        ],
    )
    assert [(r.passed, r.message) for r in results] == [
        (False, "exporter fifo.py is not a regular file"),
        (False, "exporter folder.py is a directory"),
        (False, "exporter loop.py cannot be read: Too many levels of symbolic links"),
        (False, f"importer {'n' * 300}.py cannot be read: File name too long"),
        (True, "imports lib.py for its side effects or as a whole (no names)"),
    ]


def test_a_file_without_an_extractor_cannot_be_checked(project: Path) -> None:
    write(project, {"notes.txt": "hello\n", "app.py": "import notes\n"})
    (result,) = contract_results(
        engine(project), contract_checks=[{"exporter": "notes.txt", "importer": "app.py"}]
    )
    assert not result.passed
    assert result.message.startswith("cannot check: notes.txt: no contract extractor")


def test_an_importer_that_does_not_import_names_what_it_imports(project: Path) -> None:
    write(
        project,
        {
            "src/user.ts": "export const a = 1;\n",
            "src/users.ts": "export const a = 1;\n",
            "src/app.ts": "import { a } from './users';\n",
        },
    )
    (result,) = contract_results(
        engine(project), contract_checks=[{"exporter": "src/user.ts", "importer": "src/app.ts"}]
    )
    assert not result.passed
    assert result.message == (
        "src/app.ts does not import from src/user.ts (its local imports: src/users.ts)"
    )


def test_each_file_is_parsed_once_whichever_checks_read_it(project: Path) -> None:
    write(
        project,
        {
            "pkg/__init__.py": "from .core import *\n",
            "pkg/core.py": "a = 1\n",
            "app.py": "from pkg import a\nimport pkg.core as core\ncore.a\n",
        },
    )
    forge = engine(project)
    results = contract_results(
        forge,
        files=["app.py", "pkg/__init__.py", "pkg/core.py"],
        contract_checks=[{"exporter": "pkg/__init__.py", "importer": "app.py"}],
    )
    assert [(r.target, r.passed) for r in results] == [
        ("pkg/__init__.py -> app.py", True),
        ("pkg/core.py -> app.py", True),
        ("pkg/core.py -> pkg/__init__.py", True),
    ]
    assert forge.parse_cache.parses == 3  # syntax_check and contract_check shared the trees
    contract_results(forge, files=["app.py"])
    assert forge.parse_cache.parses == 3  # unchanged files are not parsed again


def test_the_exporters_syntax_problem_is_reported(project: Path) -> None:
    (project / "lib.py").write_bytes(b"x = 1\x00\n")
    write(project, {"app.py": "from lib import x\n"})
    (result,) = contract_results(
        engine(project), contract_checks=[{"exporter": "lib.py", "importer": "app.py"}]
    )
    assert not result.passed
    assert "NUL byte" in result.message


# --- a third-party language adds its own extractor --------------------------------


class KeyValueExtractor:
    """A toy language: ``name = value`` lines export names, ``#use file name`` imports them.

    It borrows Python's grammar, so both kinds of line parse without errors.
    """

    family = "keyvalue"

    def exports(self, parsed: ParsedSource) -> ExportSet:
        names = {
            line.split("=")[0].strip()
            for line in parsed.source.decode().splitlines()
            if "=" in line
        }
        return ExportSet(names=frozenset(names))

    def imports(self, parsed: ParsedSource) -> list[ImportRef]:
        refs = []
        for number, line in enumerate(parsed.source.decode().splitlines(), start=1):
            if line.startswith("#use "):
                _, target, name = line.split()
                refs.append(
                    ImportRef(target, number, 1, (imported(parsed.tree.root_node, b"", name),))
                )
        return refs

    def resolve(self, specifier: str, importer: Path, root: Path) -> Path | None:
        candidate = importer.parent / specifier
        return candidate if candidate.is_file() else None

    def star_visible(self, name: str) -> bool:
        return True


class KeyValuePlugin:
    @hookimpl
    def forge_languages(self) -> list[Language]:
        import tree_sitter_python

        return [
            Language(
                name="keyvalue",
                extensions=(".kv",),
                load_grammar=tree_sitter_python.language,
                extractor=KeyValueExtractor(),
            )
        ]


def test_a_plugin_language_brings_its_own_extractor(project: Path) -> None:
    write(
        project,
        {"settings.kv": "port = 1\n", "app.kv": "#use settings.kv port\n#use settings.kv host\n"},
    )
    (result,) = contract_results(engine(project, keyvalue=KeyValuePlugin()), files=["app.kv"])
    assert result.automatic
    assert result.target == "settings.kv -> app.kv"
    assert result.missing == ["host"]
    assert result.exported_names == ["port"]


# --- the query files ship in the wheel ---------------------------------------------


ES, PY = "forge.contracts.ecmascript", "forge.contracts.python"


def test_query_files_compile_for_their_grammars() -> None:
    import tree_sitter_javascript
    import tree_sitter_python
    import tree_sitter_typescript

    javascript = tree_sitter.Language(tree_sitter_javascript.language())
    tsx = tree_sitter.Language(tree_sitter_typescript.language_tsx())
    assert load_query(javascript, "javascript_exports.scm", package=ES).pattern_count >= 7
    assert (
        load_query(
            tsx, "javascript_imports.scm", "typescript_imports.scm", package=ES
        ).pattern_count
        == 6
    )
    assert load_query(javascript, "javascript_exports.scm", package=ES).pattern_count == 8
    declarations = ("javascript_declarations.scm",)
    assert (
        load_query(javascript, *declarations, "javascript_parameters.scm", package=ES).pattern_count
        == 10
    )
    assert (
        load_query(tsx, *declarations, "typescript_parameters.scm", package=ES).pattern_count == 10
    )
    python = tree_sitter.Language(tree_sitter_python.language())
    assert load_query(python, "python_imports.scm", package=PY).pattern_count == 3
    assert "require" in query_source("javascript_imports.scm", ES)


@pytest.mark.slow
def test_query_files_load_from_the_built_wheel(tmp_path: Path) -> None:
    hatchling = pytest.importorskip("hatchling.builders.wheel")
    builder = hatchling.WheelBuilder(str(REPO))
    (built,) = builder.build(directory=str(tmp_path / "dist"), versions=["standard"])
    wheel = Path(built)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert {
            "forge/contracts/ecmascript/javascript_exports.scm",
            "forge/contracts/ecmascript/javascript_imports.scm",
            "forge/contracts/ecmascript/typescript_imports.scm",
            "forge/contracts/python/python_imports.scm",
            "forge/contracts/ecmascript/javascript_declarations.scm",
            "forge/contracts/ecmascript/javascript_parameters.scm",
            "forge/contracts/ecmascript/typescript_parameters.scm",
        } <= names
        archive.extractall(tmp_path / "site")
    code = (
        "import forge.contracts.extractor as c, sys; "
        "assert c.__file__.startswith(sys.argv[1]), c.__file__; "
        "print(len(c.query_source('python_imports.scm', 'forge.contracts.python')))"
    )
    completed = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            f"import sys; sys.path.insert(0, sys.argv[1]); {code}",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert int(completed.stdout) > 100


class BrokenExtractor(KeyValueExtractor):
    def exports(self, parsed: ParsedSource) -> ExportSet:
        raise RuntimeError("bug in the extractor")


class BrokenPlugin:
    @hookimpl
    def forge_languages(self) -> list[Language]:
        import tree_sitter_python

        return [
            Language(
                name="broken",
                extensions=(".kv",),
                load_grammar=tree_sitter_python.language,
                extractor=BrokenExtractor(),
            )
        ]


def test_an_extractor_that_raises_fails_only_its_pairs(project: Path) -> None:
    write(
        project,
        {
            "settings.kv": "port = 1\n",
            "app.kv": "#use settings.kv port\n",
            "lib.py": "a = 1\n",
            "app.py": "from lib import a\n",
        },
    )
    results = contract_results(engine(project, broken=BrokenPlugin()), files=["app.kv", "app.py"])
    assert [(r.target, r.passed) for r in results] == [
        ("settings.kv -> app.kv", False),
        ("lib.py -> app.py", True),
    ]
    assert results[0].message == (
        "cannot check: the contract extractor raised RuntimeError: bug in the extractor"
    )


BROKEN_SOURCES = {
    "a.py": "from . import (\nclass :\n  def\n__all__ = [x for x in y]\n__all__ += other\n",
    "b.ts": "export { a as } from\nexport default\nimport * as from './x'\nmodule.exports = \n",
    "c.js": "const { a: } = require(;\nrequire('./x').\nexports[] = 1\nObject.defineProperty(exports)\n",
    "d.tsx": "export = ;\nexport declare\nimport x = require(\n<div>{</div>\n",
}


def test_extractors_survive_broken_and_real_code(project: Path) -> None:
    write(project, BROKEN_SOURCES)
    valid = Path(__file__).resolve().parents[1] / "data" / "syntax" / "valid"
    shipped = sorted(p for p in valid.rglob("*") if p.is_file() and p.name != "pyproject.toml")
    paths = [project / name for name in BROKEN_SOURCES] + shipped
    forge = engine(project)
    workspace = Workspace(project, config=forge.config, languages=forge.languages)
    analyzer = ContractAnalyzer(parse=workspace.parse, root=project)
    for path in paths:
        imports = analyzer.imports(path)
        exports = analyzer.exports(path)
        assert isinstance(imports, list) and isinstance(exports.names, frozenset), path
    assert {"Route", "Method", "routes", "Service", "value"} <= analyzer.exports(
        valid / "service.ts"
    ).names


# --- issue 14: false breaks ----------------------------------------------------------


def test_an_exporter_that_does_not_parse_is_said_once(project: Path) -> None:
    write(
        project,
        {
            "lib.py": "def alpha():\n    pass\n\ndef broken(:\n    pass\n\ndef beta():\n    pass\n",
            "app.py": "from lib import alpha, beta, gamma\n",
        },
    )
    (result,) = contract_results(
        engine(project), contract_checks=[{"exporter": "lib.py", "importer": "app.py"}]
    )
    assert result.missing == [] and result.missing_details == []
    assert result.exports_known is False
    assert result.message.startswith("lib.py does not parse (line 4, column ")
    (place,) = result.locations
    assert (place.path, place.line) == ("lib.py", 4)
    assert place.message.startswith("does not parse: ")
    assert result.message.endswith(
        "so what app.py takes from lib.py cannot be checked; nothing reported missing"
    )
    # said once, by syntax_check, which fails the file; the pair does not fail twice
    assert result.passed


# immer 11's src/internal.ts re-exports types/types-external.ts, whose IProduce
# interface has call signatures one after another: tree-sitter-typescript reads
# `): T\n  <R extends F>(` as type arguments and its recovery swallows the rest
# of the file (oxc accepts it), so IProduce and Producer seemed not exported.
PRODUCE = (
    "export interface Produce {\n"
    "  <T>(recipe: T): T\n"
    "  <R extends F>(recipe: R): R\n"
    "  <S, A extends any[]>(r: (s: S, ...a: A) => S): (s: S) => S\n"
    "}\n\n"
    "export type Producer = () => void\n"
)


def test_a_re_exported_file_the_grammar_misreads_is_said_once(project: Path) -> None:
    write(
        project,
        {
            "src/types.ts": PRODUCE,
            "src/internal.ts": "export * from './types'\nexport const nothing = 1\n",
            "src/immer.ts": "import { Produce, Producer, nothing } from './internal'\n",
        },
    )
    results = contract_results(engine(project), files=["src/immer.ts"])
    (result,) = [r for r in results if r.target == "src/internal.ts -> src/immer.ts"]
    assert result.passed and result.missing == [] and result.exports_known is False
    assert result.message.startswith(
        "src/types.ts, which src/internal.ts re-exports, does not parse (line "
    )
    assert [place.path for place in result.locations] == ["src/types.ts"]


def test_a_name_missing_from_a_re_export_chain_that_parses_is_still_reported(
    project: Path,
) -> None:
    write(
        project,
        {
            "src/types.ts": "export interface Produce {\n  <T>(recipe: T): T\n}\n",
            "src/internal.ts": "export * from './types'\nexport const nothing = 1\n",
            "src/immer.ts": "import { Produce, Producer, nothing } from './internal'\n",
        },
    )
    results = contract_results(engine(project), files=["src/immer.ts"])
    (result,) = [r for r in results if r.target == "src/internal.ts -> src/immer.ts"]
    assert not result.passed and result.missing == ["Producer"]


def test_a_member_near_default_is_not_told_to_import_the_default(project: Path) -> None:
    write(
        project,
        {
            "cjs.js": "module.exports = { alpha: 1, gamma: 2 };\n",
            "app.js": "const m = require('./cjs');\nm.delta;\n",
        },
    )
    (result,) = contract_results(engine(project), files=["app.js"])
    assert result.missing == ["delta"]
    assert result.missing_details[0].suggestion is None


class DiagnosingExtractor(KeyValueExtractor):
    """Says why an import of a missing file fails, and raises on one name."""

    def diagnose(self, specifier: str, importer: Path, context: object) -> str | None:
        if specifier == "boom.kv":
            raise ValueError("diagnose bug")
        return f"'{specifier}' is no file next to {importer.name}"


class DiagnosingPlugin:
    @hookimpl
    def forge_languages(self) -> list[Language]:
        import tree_sitter_python

        return [
            Language(
                name="diagnosing",
                extensions=(".kv",),
                load_grammar=tree_sitter_python.language,
                extractor=DiagnosingExtractor(),
            )
        ]


def test_a_plugin_extractor_diagnoses_its_imports_and_its_bug_costs_its_file(
    project: Path,
) -> None:
    write(
        project,
        {
            "a.kv": "#use gone.kv port\n",
            "b.kv": "#use boom.kv port\n",
            "lib.py": "a = 1\n",
            "app.py": "from lib import a\n",
        },
    )
    results = contract_results(
        engine(project, diagnosing=DiagnosingPlugin()), files=["a.kv", "b.kv", "app.py"]
    )
    assert [(r.target, r.passed, r.message) for r in results] == [
        ("lib.py -> app.py", True, "all 1 imported name exported"),
        ("gone.kv -> a.kv", False, "'gone.kv' is no file next to a.kv"),
        (
            "imports of b.kv",
            False,
            "cannot check the imports of b.kv: ValueError: diagnose bug",
        ),
    ]
    assert [(p.path, p.line, p.column) for p in results[1].locations] == [("a.kv", 1, 1)]


def test_a_stub_importer_is_judged_against_the_stubs_beside_the_source(project: Path) -> None:
    # attrs ships attr/ and attrs/ with a .pyi beside each .py: the stubs import
    # type aliases from each other that only the stubs define. A type checker
    # reads the .pyi, so forge must too when the importer is itself a stub.
    write(
        project,
        {
            "src/attr/__init__.py": "from ._make import attrib\n",
            "src/attr/_make.py": "def attrib(): return 1\n",
            "src/attr/__init__.pyi": (
                "__author__: str\n_EqOrderType = bool\ndef attrib() -> int: ...\n"
                "from attrs import _ValidatorType\n"
            ),
            "src/attrs/__init__.py": "from attr import attrib\n",
            "src/attrs/__init__.pyi": (
                "from attr import __author__ as __author__\nfrom attr import _EqOrderType\n"
                "_ValidatorType = int\n"
            ),
        },
    )
    results = contract_results(
        engine(project),
        files=["src/attr/__init__.pyi", "src/attrs/__init__.pyi", "src/attrs/__init__.py"],
    )
    assert results, "no contract was checked"
    assert [r.message for r in results if not r.passed] == []
    # A source importer still meets the source: the runtime import is what fails ...
    write(
        project,
        {
            "src/attr/__init__.py": "from ._make import attrib\n",
            "src/attrs/__init__.py": "from attr import _EqOrderType\n",
        },
    )
    results = contract_results(engine(project), files=["src/attrs/__init__.py"])
    assert [r.passed for r in results] == [False]
    # ... unless the source binds a module __getattr__, which may answer any name.
    write(project, {"src/attr/__init__.py": "__getattr__ = _make_getattr(__name__)\n"})
    results = contract_results(engine(project), files=["src/attrs/__init__.py"])
    assert [r.passed for r in results] == [True]


def test_module_attributes_set_or_expected_missing_are_not_taken(project: Path) -> None:
    # packaging's tests reset tags._glibc_version; pluggy's expect pluggy.nope to raise.
    write(
        project,
        {
            "src/pkg/__init__.py": "",
            "src/pkg/tags.py": "def sys_tags(): return []\n",
            "tests/test_tags.py": (
                "import pytest\nfrom pkg import tags\n\n\ndef test_reset():\n"
                "    tags._glibc_version = []\n    tags.cache, other = {}, 1\n    del tags.gone\n\n\n"
                "def test_missing():\n    with pytest.raises(AttributeError):\n        tags.nope\n"
                "    tags.sys_tags()\n"
            ),
        },
    )
    results = contract_results(engine(project), files=["tests/test_tags.py"])
    assert results and [r.message for r in results if not r.passed] == []
    # A read outside those places is still judged.
    write(project, {"tests/test_tags.py": "from pkg import tags\n\nprint(tags._glibc_version)\n"})
    results = contract_results(engine(project), files=["tests/test_tags.py"])
    assert [r.message for r in results if not r.passed] == [
        "1 name imported from src/pkg/tags.py is not exported: _glibc_version"
    ]


def test_the_promise_of_a_dynamic_import_is_not_the_module(project: Path) -> None:
    # vitest's bundle: `await import('./cli-api.js').then(function (n) { return n.q; })`.
    write(
        project,
        {
            "dist/cli-api.js": "export function q() {}\n",
            "dist/cac.js": (
                "const { startVitest } = await import('./cli-api.js').then((n) => n.q);\n"
                "import('./cli-api.js').catch(() => {}).finally(() => {});\n"
                "const { q } = await import('./cli-api.js');\n"
            ),
        },
    )
    results = contract_results(engine(project), files=["dist/cac.js"])
    assert results and [r.message for r in results if not r.passed] == []
    write(project, {"dist/cac.js": "const m = await import('./cli-api.js');\nm.then(1);\n"})
    results = contract_results(engine(project), files=["dist/cac.js"])
    assert [r.passed for r in results] == [False]
