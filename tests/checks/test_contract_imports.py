"""Imports that point at nothing: missing files, modules and packages (issue 14).

Each fixture is built like a real project (a Python package with submodules
and a virtual environment, a TypeScript project with barrels and path
aliases, a CommonJS app), broken the way agents break them, and validated
with the real ``forge validate`` CLI.
"""

from __future__ import annotations

import json
import shutil
import sys
import venv
from pathlib import Path

import pytest
from forge_testing import RunForge

from forge.contracts.python.packages import python_environment


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def install(environment: Path, distribution: str, version: str, top_level: list[str]) -> None:
    """A distribution's metadata as pip leaves it in ``site-packages`` (no code needed)."""
    (site,) = environment.glob("lib/python*/site-packages")
    info = site / f"{distribution}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n", encoding="utf-8"
    )
    (info / "top_level.txt").write_text("\n".join(top_level) + "\n", encoding="utf-8")
    for name in top_level:
        (site / name).mkdir()
        (site / name / "__init__.py").write_text("", encoding="utf-8")


def contract_failures(run_forge: RunForge, root: Path) -> list[tuple[str, str]]:
    """(target, message) of every failing contract_check of ``forge validate`` over ``root``'s sources."""
    files = sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.suffix in {".py", ".ts", ".js", ".cjs", ".mjs", ".tsx"}
        and ".venv" not in path.parts
        and "node_modules" not in path.parts
    )
    completed = run_forge("validate", "--json", "--cwd", str(root), "--files", *files)
    assert completed.returncode in (0, 1), completed.stderr
    report = json.loads(completed.stdout)
    return [
        (result["target"], _where(result))
        for result in report["results"]
        if result["type"] == "contract_check" and not result["passed"]
    ]


def _where(result: dict[str, object]) -> str:
    """``path:line:column: message`` of an import finding's one location, as editors show it."""
    (place,) = result["locations"]  # type: ignore[misc]
    assert place["message"] == result["message"]  # type: ignore[index]
    return f"{place['path']}:{place['line']}:{place['column']}: {place['message']}"  # type: ignore[index]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The project's own environment decides, not the one running the tests."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)


PYTHON_PACKAGE = {
    "pyproject.toml": (
        '[project]\nname = "client"\nversion = "1"\ndependencies = ["requests>=2"]\n'
        '[project.optional-dependencies]\nyaml = ["PyYAML"]\n'
        '[dependency-groups]\ndev = ["pytest"]\n'
    ),
    "src/client/__init__.py": "from ._models import Response\n",
    "src/client/_decoders.py": "class Decoder:\n    pass\n",
    "src/client/_config.py": "DEFAULT = 1\n",
    "src/client/_models.py": (
        "import json\nfrom ._decoder import Decoder\n\n\nclass Response:\n    decoder = Decoder\n"
    ),
    "src/client/sub/__init__.py": "",
    "src/client/sub/api.py": (
        "from ._config import DEFAULT\nfrom .. import _config\nfrom . import helpers\n"
    ),
    "src/client/sub/helpers.py": "",
    "src/client/_transport.py": (
        "import client._deleted\nfrom client import _models\nfrom client.sub import api\n"
    ),
    "src/client/_optional.py": (
        "try:\n    import simplejson\nexcept ImportError:\n    simplejson = None\n"
        "import requests\nimport requets\nimport yaml\nimport pytest\n"
    ),
}


def test_python_imports_of_nothing_are_found_with_a_suggestion(
    run_forge: RunForge, project: Path, clean_env: None
) -> None:
    write(project, PYTHON_PACKAGE)
    venv.create(project / ".venv", with_pip=False)
    install(project / ".venv", "requests", "2.32.0", ["requests"])
    install(project / ".venv", "PyYAML", "6.0", ["yaml", "_yaml"])
    assert sorted(contract_failures(run_forge, project)) == [
        (
            "._config -> src/client/sub/api.py",
            "src/client/sub/api.py:1:6: '._config' resolves to no module"
            " (did you mean '.._config'?)",
        ),
        (
            "._decoder -> src/client/_models.py",
            "src/client/_models.py:2:6: '._decoder' resolves to no module"
            " (did you mean '._decoders'?)",
        ),
        (
            "client._deleted -> src/client/_transport.py",
            "src/client/_transport.py:1:8: 'client._deleted' resolves to no module",
        ),
        (
            "requets -> src/client/_optional.py",
            "src/client/_optional.py:6:8: package 'requets' is not installed or declared"
            " (did you mean 'requests'?)",
        ),
    ]


def test_python_packages_are_not_judged_without_an_environment(
    run_forge: RunForge, project: Path, clean_env: None
) -> None:
    write(project, PYTHON_PACKAGE)
    failures = contract_failures(run_forge, project)
    assert [target for target, _ in failures if "requets" in target] == []
    assert len(failures) == 3  # the missing modules are still missing


def test_the_environment_maps_import_names_with_its_own_metadata(
    project: Path, clean_env: None
) -> None:
    venv.create(project / "venv", with_pip=False)
    install(project / "venv", "PyYAML", "6.0", ["yaml"])
    environment = python_environment(project, None)
    assert environment is not None
    assert {"yaml", "pyyaml"} <= environment.modules
    assert "requests" not in environment.modules
    assert "json" in environment.stdlib
    venv.create(project / "custom", with_pip=False)
    install(project / "custom", "attrs", "23.1", ["attr", "attrs"])
    configured = python_environment(project, "custom")
    assert configured is not None and "attr" in configured.modules


def test_the_environment_can_be_set_in_tool_forge(
    run_forge: RunForge, project: Path, clean_env: None
) -> None:
    write(
        project,
        {
            "pyproject.toml": "[tool.forge.contract_check]\npython-environment = 'envs/dev'\n",
            "app.py": "import attr\nimport atrs\n",
        },
    )
    venv.create(project / "envs" / "dev", with_pip=False)
    install(project / "envs" / "dev", "attrs", "23.1", ["attr", "attrs"])
    assert contract_failures(run_forge, project) == [
        (
            "atrs -> app.py",
            "app.py:2:8: package 'atrs' is not installed or declared (did you mean 'attrs'?)",
        )
    ]


TYPESCRIPT_PROJECT = {
    "package.json": json.dumps(
        {
            "name": "web",
            "dependencies": {"zod": "^3.0.0"},
            "devDependencies": {"typescript": "^5.0.0"},
            "peerDependencies": {"react": "*"},
        }
    ),
    "package-lock.json": '{"lockfileVersion": 3}\n',
    "tsconfig.json": (
        "{\n  // path aliases, as in most TypeScript apps\n"
        '  "compilerOptions": {\n    "baseUrl": ".",\n'
        '    "paths": { "@/*": ["src/*"], "@lib": ["src/lib/index.ts"] },\n  },\n}\n'
    ),
    "src/utils/options.ts": "export const defaults = { retries: 3 };\n",
    "src/utils/index.ts": "export * from './options.js';\n",
    "src/lib/index.ts": "export const version = '1';\n",
    "src/features/app.ts": (
        "import { defaults } from '../utils/option.js';\n"
        "import { version } from '@lib';\n"
        "import { z } from 'zod';\n"
        "import type { FC } from 'react';\n"
        "import { readFile } from 'node:fs/promises';\n"
        "import path from 'path';\n"
        "export const run = () => [defaults, version, z, path, readFile];\n"
    ),
    "src/features/alias.ts": (
        "import { defaults } from '@/utils';\n"
        "import { retries } from '@/utils/option';\n"
        "import { zz } from 'zdo';\n"
        "import { readFileSync } from 'node:fss';\n"
        "export const all = [defaults, retries, zz, readFileSync];\n"
    ),
}


@pytest.mark.skipif(shutil.which("node") is None, reason="node's builtin modules come from node")
def test_typescript_imports_of_nothing_are_found_through_barrels_and_aliases(
    run_forge: RunForge, project: Path
) -> None:
    write(project, TYPESCRIPT_PROJECT)
    assert sorted(contract_failures(run_forge, project)) == [
        (
            "../utils/option.js -> src/features/app.ts",
            "src/features/app.ts:1:26: '../utils/option.js' resolves to no file"
            " (did you mean '../utils/options.js'?)",
        ),
        (
            "@/utils/option -> src/features/alias.ts",
            "src/features/alias.ts:2:25: '@/utils/option' resolves to no file through the"
            " path alias '@/*' (did you mean '@/utils/options'?)",
        ),
        (
            "node:fss -> src/features/alias.ts",
            "src/features/alias.ts:4:30: 'node:fss' is not a Node.js builtin module"
            " (did you mean 'node:fs'?)",
        ),
        (
            "zdo -> src/features/alias.ts",
            "src/features/alias.ts:3:20: package 'zdo' is not installed or declared"
            " (did you mean 'zod'?)",
        ),
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="node's builtin modules come from node")
def test_builtins_only_reachable_with_the_node_prefix_are_builtins(
    run_forge: RunForge, project: Path
) -> None:
    # pino 10's tests import node:test, which Node 20's builtinModules leaves out.
    write(
        project,
        {
            "package.json": json.dumps({"name": "pino"}),
            "package-lock.json": '{"lockfileVersion": 3}\n',
            "test/basic.test.js": (
                "const { describe, test } = require('node:test')\n"
                "const { spec } = require('node:test/reporters')\n"
                "const assert = require('node:assert')\n"
                "const { mock } = require('node:tset')\n"
            ),
        },
    )
    ((target, where),) = contract_failures(run_forge, project)
    assert target == "node:tset -> test/basic.test.js"
    assert where.startswith("test/basic.test.js:4:26: 'node:tset' is not a Node.js builtin module")


COMMONJS_APP = {
    "package.json": json.dumps(
        {"name": "server", "dependencies": {"express": "^4"}, "workspaces": ["packages/*"]}
    ),
    "packages/auth/package.json": json.dumps({"name": "@server/auth"}),
    "packages/auth/index.js": "exports.check = () => true;\n",
    "node_modules/debug/package.json": json.dumps({"name": "debug"}),
    "lib/router/index.js": "module.exports = function Router() {};\n",
    "lib/middleware/init.js": "exports.init = function init() {};\n",
    "lib/app.js": (
        "const express = require('express');\n"
        "const debug = require('debug')('app');\n"
        "const { check } = require('@server/auth');\n"
        "const Router = require('./router');\n"
        "const { init } = require('./middlewares/init');\n"
        "const http = require('http');\n"
        "const expresss = require('expresss');\n"
        "module.exports = { express, debug, check, Router, init, http, expresss };\n"
    ),
}


@pytest.mark.skipif(shutil.which("node") is None, reason="node's builtin modules come from node")
def test_commonjs_requires_of_nothing_are_found(run_forge: RunForge, project: Path) -> None:
    write(project, COMMONJS_APP)
    assert sorted(contract_failures(run_forge, project)) == [
        (
            "./middlewares/init -> lib/app.js",
            "lib/app.js:5:26: './middlewares/init' resolves to no file"
            " (did you mean './middleware/init'?)",
        ),
        (
            "expresss -> lib/app.js",
            "lib/app.js:7:26: package 'expresss' is not installed or declared"
            " (did you mean 'express'?)",
        ),
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="node's builtin modules come from node")
def test_a_manifest_without_an_install_is_not_enough_to_know(
    run_forge: RunForge, project: Path
) -> None:
    # a published package (development dependencies stripped) or a monorepo member
    write(project, {"package.json": json.dumps({"name": "lib"}), "test.js": "require('vitest');\n"})
    assert contract_failures(run_forge, project) == []
    (project / "yarn.lock").write_text("", encoding="utf-8")
    assert contract_failures(run_forge, project) == [
        ("vitest -> test.js", "test.js:1:9: package 'vitest' is not installed or declared")
    ]


def test_without_manifest_or_environment_forge_says_nothing_about_packages(
    run_forge: RunForge, project: Path, clean_env: None
) -> None:
    write(
        project,
        {
            "app.py": "import requets\n",
            "app.js": "const x = require('expresss');\nrequire('./gone');\n",
        },
    )
    assert contract_failures(run_forge, project) == [
        ("./gone -> app.js", "app.js:2:9: './gone' resolves to no file")
    ]


def test_guarded_and_conditional_imports_are_not_findings(
    run_forge: RunForge, project: Path, clean_env: None
) -> None:
    write(
        project,
        {
            "pyproject.toml": '[project]\nname = "x"\ndependencies = ["tomli; python_version < \'3.11\'"]\n',
            "app.py": (
                "import sys\n"
                "if sys.version_info >= (3, 11):\n    import tomllib\nelse:\n    import tomli\n"
                "try:\n    from ._speedups import fast\nexcept ImportError:\n    fast = None\n"
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from _typeshed import StrPath\n"
                "import __main__\n"
            ),
        },
    )
    venv.create(project / ".venv", with_pip=False)
    assert contract_failures(run_forge, project) == []


@pytest.mark.parametrize(
    "importer",
    ["from . import sub\nfrom .sub import x\n", "import pkg.native\nfrom pkg import native\n"],
)
def test_namespace_packages_and_extension_modules_exist(
    run_forge: RunForge, project: Path, importer: str, clean_env: None
) -> None:
    write(
        project,
        {
            "pkg/__init__.py": "",
            "pkg/native.cpython-311-x86_64-linux-gnu.so": "",
            "pkg/sub/x.py": "",
            "pkg/main.py": importer,
        },
    )
    assert contract_failures(run_forge, project) == []


def test_cython_sources_are_modules_in_any_source_root(
    run_forge: RunForge, project: Path, clean_env: None
) -> None:
    """pyyaml: ``lib/yaml/cyaml.py`` imports ``yaml._yaml``, built from ``yaml/_yaml.pyx``.

    setup.py compiles the Cython source into the package that ``package_dir``
    takes from ``lib/``: the module exists once built. A respelled name beside
    a Cython source is still a finding.
    """
    write(
        project,
        {
            "yaml/_yaml.pyx": "cdef class CParser:\n    pass\n",
            "lib/yaml/__init__.py": "from .cyaml import *\n",
            "lib/yaml/cyaml.py": (
                "from yaml._yaml import CParser\nfrom ._speedups import fast\n"
                "import yaml._yamll\nfrom ._speedup import slow\n"
            ),
            "lib/yaml/_speedups.pyx": "def fast():\n    pass\n",
        },
    )
    assert sorted(contract_failures(run_forge, project)) == [
        (
            "._speedup -> lib/yaml/cyaml.py",
            "lib/yaml/cyaml.py:4:6: '._speedup' resolves to no module (did you mean '._speedups'?)",
        ),
        (
            "yaml._yamll -> lib/yaml/cyaml.py",
            "lib/yaml/cyaml.py:3:8: 'yaml._yamll' resolves to no module"
            " (did you mean 'yaml._yaml' or 'yaml.cyaml'?)",
        ),
    ]


def test_names_another_listed_file_sets_on_a_module_are_its_exports(
    run_forge: RunForge, project: Path, clean_env: None
) -> None:
    """sqlalchemy's testing: the plugin sets ``config.bootstrapped_as_sqlalchemy``,
    engines reads it. A name no listed file sets (``config._skip_test_exception``,
    read in sqlalchemy's profiling.py and set nowhere) is still missing."""
    write(
        project,
        {
            "pkg/__init__.py": "",
            "pkg/config.py": "db = None\n",
            "pkg/plugin.py": (
                "def post_begin():\n    from pkg import config\n\n"
                "    config.bootstrapped_as_sqlalchemy = True\n"
            ),
            "pkg/engines.py": (
                "from pkg import config\n\n\ndef ready():\n"
                "    return config.bootstrapped_as_sqlalchemy and config.db\n\n\n"
                "def skip():\n    raise config._skip_test_exception('no cProfile')\n"
            ),
        },
    )
    files = ["pkg/__init__.py", "pkg/config.py", "pkg/plugin.py", "pkg/engines.py"]
    completed = run_forge("validate", "--json", "--cwd", str(project), "--files", *files)
    report = json.loads(completed.stdout)
    failing = [
        (result["target"], result["missing"])
        for result in report["results"]
        if result["type"] == "contract_check" and not result["passed"]
    ]
    assert failing == [("pkg/config.py -> pkg/engines.py", ["_skip_test_exception"])]


def test_submodules_an_import_hook_of_the_package_serves_are_unknowable(
    run_forge: RunForge, project: Path, clean_env: None
) -> None:
    """toolz's ``tlz/_build_tlz.py`` appends a finder to ``sys.meta_path`` that
    serves ``tlz.curried``; a package without one still has its missing modules found."""
    write(
        project,
        {
            "tlz/__init__.py": "from . import _build_tlz\n",
            "tlz/_build_tlz.py": (
                "import sys\n\n\nclass TlzLoader:\n    pass\n\n\n"
                "sys.meta_path.append(TlzLoader())\n"
            ),
            "plain/__init__.py": "",
            "app.py": "import tlz.curried\nimport tlz.functoolz\nimport plain.curried\n",
        },
    )
    assert contract_failures(run_forge, project) == [
        ("plain.curried -> app.py", "app.py:3:8: 'plain.curried' resolves to no module")
    ]


@pytest.mark.parametrize("pythonpath", ['["tests"]', '"tests other"'])
def test_a_folder_pytest_puts_on_the_path_provides_modules(
    run_forge: RunForge, project: Path, clean_env: None, pythonpath: str
) -> None:
    """``pythonpath`` in ``[tool.pytest.ini_options]``: the tests of a plugin folder import
    the project's shared test helpers from ``tests/`` (forge's own suite does)."""
    files = {
        "pyproject.toml": f'[project]\nname = "p"\nversion = "1"\n'
        f"[tool.pytest.ini_options]\npythonpath = {pythonpath}\n",
        "tests/helpers.py": "def make():\n    return 1\n",
        "plugins/x/tests/test_x.py": "import helpers\nimport helperz\n",
    }
    write(project, files)
    venv.create(project / ".venv", with_pip=False)
    assert contract_failures(run_forge, project) == [
        (
            "helperz -> plugins/x/tests/test_x.py",
            "plugins/x/tests/test_x.py:2:8: package 'helperz' is not installed or declared",
        )
    ]


def test_forge_validating_its_own_tree_reports_no_contract_failure(run_forge: RunForge) -> None:
    repo = Path(__file__).resolve().parents[2]
    if not (repo / ".venv").is_dir() and sys.prefix == sys.base_prefix:
        pytest.skip("forge's own environment is not a virtual environment")
    sources = sorted(
        path.relative_to(repo).as_posix()
        for folder in ("forge", "plugins", "tests", "benchmarks")
        for path in (repo / folder).rglob("*")
        if path.suffix in {".py", ".pyi", ".js", ".ts"}
        and "data" not in path.relative_to(repo).parts[:3]
    )
    assert len(sources) > 100
    completed = run_forge("validate", "--json", "--cwd", str(repo), "--files", *sources, cwd=repo)
    report = json.loads(completed.stdout)
    failures = [
        (result["target"], result["message"])
        for result in report["results"]
        if result["type"] == "contract_check" and not result["passed"]
    ]
    assert failures == []
    assert sum(result["type"] == "contract_check" for result in report["results"]) > 100


def test_a_declaration_file_is_no_module_for_javascript(run_forge: RunForge, project: Path) -> None:
    # got's dist/: index.js and index.d.ts import './options.js'; the .js was renamed
    write(
        project,
        {
            "dist/options.d.ts": "export declare const defaults: object;\n",
            "dist/option.js": "export const defaults = {};\n",
            "dist/index.js": "import { defaults } from './options.js';\nexport { defaults };\n",
            "dist/index.d.ts": "export { defaults } from './options.js';\n",
        },
    )
    assert contract_failures(run_forge, project) == [
        (
            "./options.js -> dist/index.js",
            "dist/index.js:1:26: './options.js' resolves to no file (did you mean './option.js'?)",
        )
    ]
