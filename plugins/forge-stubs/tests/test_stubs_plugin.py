"""The plugin inside forge: entry point, results in validate reports, options, isolation."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import forge_stubs

from forge.models import ValidateRequest
from forge.validate.run import Engine

if TYPE_CHECKING:
    from conftest import MakeFile, RunForge

STUBBED_PY = '''\
"""Greeter."""


def greet(name):
    pass


class Greeter:
    def hello(self):
        """Say hello."""
        raise NotImplementedError
'''

CLEAN_PY = "def greet(name):\n    return f'hello {name}'\n"

STUBBED_TS = """\
export function load(): string {
  throw new Error("not implemented");
}
"""


def stub_results(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["target"]: r for r in report["results"] if r["type"] == "stub_check"}


def validate(project: Path, files: list[str], **options: Any) -> dict[str, Any]:
    request = ValidateRequest(
        module_id="m", files=files, plugin_options={"stubs": options} if options else {}
    )
    return Engine.for_project(project).validate(request).to_wire()


def test_forge_plugins_lists_the_plugin(run_forge: RunForge) -> None:
    completed = run_forge("plugins", "--json")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    [info] = [p for p in json.loads(completed.stdout) if p["name"] == "stubs"]
    assert info["distribution"] == "forge-stubs"
    assert info["version"] == forge_stubs.__version__
    assert (info["module"], info["status"]) == ("forge_stubs.plugin", "loaded")
    assert info["hooks"] == ["forge_checks", "forge_run_checks"]


def test_loading_the_plugin_imports_no_tree_sitter() -> None:
    code = (
        "import sys\n"
        "from forge.plugin_host.host import build_plugin_host\n"
        "host = build_plugin_host()\n"
        "assert host.pm.has_plugin('stubs')\n"
        "print(sorted(m for m in sys.modules if m.startswith('tree_sitter')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


def test_validate_fails_at_the_placeholders_and_passes_clean_files(
    run_forge: RunForge, make_file: MakeFile
) -> None:
    make_file("stubbed.py", STUBBED_PY)
    make_file("clean.py", CLEAN_PY)
    make_file("src/load.ts", STUBBED_TS)
    completed = run_forge("validate", "--files", "stubbed.py", "clean.py", "src/load.ts", "--json")
    assert completed.returncode == 1, completed.stderr
    results = stub_results(json.loads(completed.stdout))
    assert list(results) == ["stubbed.py", "clean.py", "src/load.ts"]
    stubbed = results["stubbed.py"]
    assert (stubbed["passed"], stubbed["plugin"], stubbed["language"]) == (False, "stubs", "python")
    assert stubbed["findingCount"] == 2
    assert [(f["line"], f["function"], f["kind"]) for f in stubbed["findings"]] == [
        (5, "greet", "pass"),
        (11, "Greeter.hello", "not_implemented"),
    ]
    assert stubbed["findings"][1] == {
        "line": 11,
        "column": 9,
        "function": "Greeter.hello",
        "kind": "not_implemented",
        "text": "raise NotImplementedError",
    }
    assert results["clean.py"]["passed"] is True
    assert results["clean.py"]["message"] == "no placeholders"
    assert results["src/load.ts"]["findings"][0]["line"] == 2
    text = run_forge("validate", "--files", "stubbed.py")
    assert (
        "FAIL stub_check    stubbed.py: 2 placeholders: line 5 greet (pass), "
        "line 11 Greeter.hello (not_implemented)"
    ) in text.stdout


def test_many_findings_are_capped_and_counted(project: Path, make_file: MakeFile) -> None:
    make_file("many.py", "".join(f"def f{i}():\n    pass\n" for i in range(60)))
    [result] = stub_results(validate(project, ["many.py"])).values()
    assert (result["findingCount"], len(result["findings"])) == (60, 50)
    assert result["message"].startswith("60 placeholders: line 2 f0 (pass), line 4 f1 (pass),")
    assert result["message"].endswith(", and 55 more")


def test_files_the_check_does_not_apply_to_get_no_result(
    project: Path, make_file: MakeFile
) -> None:
    make_file("types.pyi", "def f() -> int: ...\n")
    make_file("types.d.ts", "export function f(): void;\n")
    make_file("notes.txt", "TODO: implement\n")
    (project / "binary.py").write_bytes(b"\x00\x01def f(): pass\n")
    report = validate(project, ["types.pyi", "types.d.ts", "notes.txt", "binary.py", "gone.py"])
    assert stub_results(report) == {}
    assert {r["type"] for r in report["results"]} >= {"file_check", "syntax_check"}


def test_each_file_is_parsed_once_for_all_checks(project: Path, make_file: MakeFile) -> None:
    make_file("a.py", STUBBED_PY)
    make_file("b.ts", STUBBED_TS)
    engine = Engine.for_project(project)
    report = engine.validate(ValidateRequest(module_id="m", files=["a.py", "b.ts", "a.py"]))
    assert {(r.type, r.target) for r in report.results} >= {
        ("syntax_check", "a.py"),
        ("stub_check", "a.py"),
        ("stub_check", "b.ts"),
    }
    assert engine.parse_cache.parses == 2


def test_project_config_sets_options(project: Path, make_file: MakeFile) -> None:
    make_file("a.py", "x = 1  # TODO: rename later\n\ndef f():\n    pass\n")
    make_file("generated/b.py", "def g():\n    pass\n")
    assert [f["kind"] for f in stub_results(validate(project, ["a.py"]))["a.py"]["findings"]] == [
        "pass"
    ]
    make_file(
        "pyproject.toml",
        """
        [tool.forge.stubs]
        marker-scope = "all"
        ignore = ["generated/*"]
        ignore_kinds = ["pass"]
        """,
    )
    results = stub_results(validate(project, ["a.py", "generated/b.py"]))
    assert list(results) == ["a.py"]
    assert [(f["line"], f["kind"]) for f in results["a.py"]["findings"]] == [(1, "todo_comment")]


def test_per_call_options_overlay_the_project_config(project: Path, make_file: MakeFile) -> None:
    make_file("pyproject.toml", '[tool.forge.stubs]\nmarkers = ["HACK"]\n')
    make_file("a.js", "// TODO: implement\n// HACK: implement\nexport const x = 1;\n")
    by_config = stub_results(validate(project, ["a.js"]))["a.js"]
    assert [f["line"] for f in by_config["findings"]] == [2]
    per_call = stub_results(validate(project, ["a.js"], markers=["TODO"], ignoreKinds=[]))["a.js"]
    assert [f["line"] for f in per_call["findings"]] == [1]


def test_bad_options_give_one_clear_failing_result(project: Path, make_file: MakeFile) -> None:
    make_file("a.py", CLEAN_PY)
    report = validate(project, ["a.py"], markerScope="everything")
    [result] = stub_results(report).values()
    assert (result["target"], result["passed"]) == ("pluginOptions.stubs", False)
    assert "markerScope: Input should be 'implementation' or 'all'" in result["message"]
    assert any(r["type"] == "file_check" and r["passed"] for r in report["results"])
    make_file("pyproject.toml", '[tool.forge.stubs]\nmarker = ["TODO"]\n')
    [result] = stub_results(validate(project, ["a.py"], markerScope="all")).values()
    assert result["target"] == "[tool.forge.stubs]"
    assert "marker: Extra inputs are not permitted" in result["message"]


def test_bad_options_give_a_short_one_line_message(project: Path, make_file: MakeFile) -> None:
    make_file("a.py", CLEAN_PY)
    options = {"line\nbreak": 1, "k" * 1_000_000: 2, **{f"typo{i}": i for i in range(10)}}
    [result] = stub_results(validate(project, ["a.py"], **options)).values()
    assert result["passed"] is False
    assert len(result["message"].splitlines()) == 1 and len(result["message"]) < 1_000
    assert "'line\\nbreak': Extra inputs are not permitted" in result["message"]
    assert result["message"].endswith("; and 7 more")


def test_disabled_by_name(run_forge: RunForge, make_file: MakeFile) -> None:
    make_file("stubbed.py", STUBBED_PY)
    completed = run_forge(
        "validate", "--files", "stubbed.py", "--json", env={"FORGE_DISABLE_PLUGINS": "stubs,types"}
    )
    assert completed.returncode == 0, completed.stdout
    assert stub_results(json.loads(completed.stdout)) == {}


# A language plugin that registers "python" with the JavaScript grammar: a file
# forge parses, but not with the grammar the plugin's Python rules were written for.
ODD_LANGUAGE = """
from forge import hookimpl
from forge.models import Language


def load_grammar():
    import tree_sitter_javascript

    return tree_sitter_javascript.language()


@hookimpl
def forge_languages():
    return [Language(name="python", extensions=(".py",), load_grammar=load_grammar)]
"""


def test_a_file_the_plugin_cannot_handle_fails_alone(
    run_forge: RunForge, make_file: MakeFile, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    dist_info = site / "odd_language-1.0.dist-info"
    dist_info.mkdir(parents=True)
    (site / "odd_language.py").write_text(textwrap.dedent(ODD_LANGUAGE), encoding="utf-8")
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: odd-language\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist_info / "entry_points.txt").write_text("[forge]\nodd = odd_language\n", encoding="utf-8")
    make_file("strange.py", "const x = 1;\n")
    make_file("stub.ts", STUBBED_TS)
    completed = run_forge(
        "validate",
        "--files",
        "strange.py",
        "stub.ts",
        "--json",
        env={"PYTHONPATH": str(site), "FORGE_DISABLE_PLUGINS": "python,types"},
    )
    assert completed.returncode == 1, completed.stderr
    report = json.loads(completed.stdout)
    results = stub_results(report)
    strange = results["strange.py"]
    assert (strange["passed"], strange["plugin"]) == (False, "stubs")
    assert strange["message"].startswith(f"forge-stubs {forge_stubs.__version__} could not check")
    assert "QueryError" in strange["message"]
    assert results["stub.ts"]["findings"][0]["kind"] == "not_implemented"
    built_in = {(r["type"], r["target"]) for r in report["results"]}
    assert {("file_check", "strange.py"), ("syntax_check", "strange.py")} <= built_in


def test_a_result_kept_between_calls_follows_edits_and_options(
    project: Path, make_file: MakeFile
) -> None:
    make_file("a.py", "def greet(name):\n    pass\n")
    engine = Engine.for_project(project)

    def findings(**options: Any) -> list[str]:
        request = ValidateRequest(
            module_id="m", files=["a.py"], plugin_options={"stubs": options} if options else {}
        )
        report = engine.validate(request).to_wire()
        return [f["kind"] for f in stub_results(report)["a.py"]["findings"]]

    assert findings() == ["pass"]
    assert findings() == ["pass"]
    assert findings(ignore_kinds=["pass"]) == []  # options are part of what is kept
    assert findings() == ["pass"]
    make_file("a.py", "def greet(name):\n    ...\n ")  # same size, same second
    assert findings() == ["ellipsis"]
    assert engine.parse_cache.parses == 2


def test_a_base_extended_in_another_listed_file_keeps_its_abstract_methods(
    project: Path, make_file: MakeFile
) -> None:
    # Flask: sansio's App raises NotImplementedError where flask.app.Flask overrides.
    make_file(
        "src/flask/sansio/app.py",
        "class App:\n    def create_jinja_environment(self):\n        raise NotImplementedError()\n",
    )
    make_file(
        "src/flask/app.py",
        "from .sansio.app import App\n\n\nclass Flask(App):\n"
        "    def create_jinja_environment(self):\n        return 1\n",
    )
    make_file(
        "src/flask/plain.py",
        "class Other:\n    def run(self):\n        raise NotImplementedError\n",
    )
    both = stub_results(validate(project, ["src/flask/sansio/app.py", "src/flask/app.py"]))
    assert both["src/flask/sansio/app.py"]["passed"], both
    # Alone, nothing says App is a base: its raise is a placeholder, as is Other's.
    alone = stub_results(validate(project, ["src/flask/sansio/app.py", "src/flask/plain.py"]))
    assert not alone["src/flask/sansio/app.py"]["passed"]
    assert not alone["src/flask/plain.py"]["passed"]


def test_build_output_is_not_checked(project: Path, make_file: MakeFile) -> None:
    make_file("assets/app.min.js", "function a(){}function b(c){}\n")
    make_file("dist/cjs/types.js", "")
    make_file("dist/app.js", "function F() {}\nexport { F };\n")
    make_file("src/app.js", "export function a() {}\n")
    files = ["assets/app.min.js", "dist/cjs/types.js", "dist/app.js", "src/app.js"]
    assert set(stub_results(validate(project, files))) == {"src/app.js"}


def test_compiled_types_only_module_beside_its_declarations_is_not_empty(
    project: Path, make_file: MakeFile
) -> None:
    # date-fns 4: types.cjs holds only "use strict"; types.d.cts says it is a module of types.
    make_file("types.cjs", '"use strict";\n')
    make_file("types.js", '"use strict";\n')  # a look-alike without declarations: a placeholder
    engine = Engine.for_project(project)

    def kinds() -> dict[str, list[str]]:
        request = ValidateRequest(module_id="m", files=["types.cjs", "types.js"])
        results = stub_results(engine.validate(request).to_wire())
        return {target: [f["kind"] for f in r["findings"]] for target, r in results.items()}

    assert kinds() == {"types.cjs": ["empty_module"], "types.js": ["empty_module"]}
    make_file("types.d.cts", "export type Day = 0 | 1 | 2 | 3 | 4 | 5 | 6;\n")
    # The kept result follows the declaration file's arrival, and its removal.
    assert kinds() == {"types.cjs": [], "types.js": ["empty_module"]}
    (project / "types.d.cts").unlink()
    assert kinds() == {"types.cjs": ["empty_module"], "types.js": ["empty_module"]}


def test_an_added_function_that_only_raises_its_own_name_is_a_placeholder(
    run_forge: RunForge, project: Path, make_file: MakeFile
) -> None:
    """Judged against a base, as workers are: the change adds three methods whose
    NotImplementedError says nothing but a name, and one real refusal."""
    from forge_testing import commit, git

    git(project, "init", "-q")
    make_file("src/ops.py", "class Ops:\n    def add(self, a, b):\n        return a + b\n")
    commit(project, {}, "base")
    make_file(
        "src/ops.py",
        """
        class Ops:
            def add(self, a, b):
                return a + b

            def sub(self, a, b):
                raise NotImplementedError("sub")

            def mul(self, a, b):
                raise NotImplementedError("Ops.mul")

            def div(self, a, b):
                raise NotImplementedError(f"{type(self).__name__}.div")

            def pow(self, a, b):
                raise NotImplementedError("operator %s is not supported" % "pow")
        """,
    )
    completed = run_forge("validate", "--base", "HEAD", "--files", "src/ops.py", "--json")
    assert completed.returncode == 1, completed.stdout + completed.stderr
    result = stub_results(json.loads(completed.stdout))["src/ops.py"]
    assert [(f["function"], f["kind"]) for f in result["findings"]] == [
        ("Ops.sub", "not_implemented"),
        ("Ops.mul", "not_implemented"),
        ("Ops.div", "not_implemented"),
    ]
