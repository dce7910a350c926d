"""The built-in language plugins, and the language pack's offline languages."""

from __future__ import annotations

import json
from importlib.metadata import distribution
from pathlib import Path

import pytest
from forge_testing import RunForge

import forge.languages
from forge.checks.syntax_check import check_syntax
from forge.languages import LanguageRegistry, ParseCache, ParseSession, language_pack
from forge.plugin_host.host import build_plugin_host

BUILTIN = {"python", "javascript", "typescript", "tsx"}


def test_every_language_module_is_an_entry_point() -> None:
    package = Path(forge.languages.__file__).parent
    # Helpers (the oxc authority, project files) register nothing and are not plugins.
    modules = {
        f"forge.languages.{p.stem}"
        for p in package.glob("*.py")
        if "def forge_languages(" in p.read_text(encoding="utf-8")
    }
    assert len(modules) == 5
    declared = {
        ep.name: ep.value
        for ep in distribution("forge-validate").entry_points
        if ep.group == "forge" and ep.value.startswith("forge.languages.")
    }
    assert set(declared.values()) == modules
    assert all(name == value.rsplit(".", 1)[1] for name, value in declared.items())


def registry(disabled: frozenset[str] = frozenset()) -> LanguageRegistry:
    return LanguageRegistry.from_plugins(build_plugin_host(disabled))


def test_builtins_win_over_the_language_pack() -> None:
    languages = registry()
    assert languages.problems == []
    for name in BUILTIN:
        assert languages.plugin_of(name) == name
    extra = languages.by_plugin()["language_pack"]
    assert {"go", "rust", "json", "yaml"} <= set(extra)
    assert not BUILTIN & set(extra)


def test_the_pack_takes_over_a_disabled_builtin() -> None:
    languages = registry(frozenset({"python"}))
    assert languages.plugin_of("python") == "language_pack"


GO_OK = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := range 3 {\n\t\tfmt.Println(i)\n\t}\n}\n'
RUST_OK = 'fn main() {\n    let v: Vec<u32> = (0..3).map(|x| x * 2).collect();\n    println!("{v:?}");\n}\n'


@pytest.mark.parametrize(
    ("name", "good", "bad", "line"),
    [
        ("main.go", GO_OK, GO_OK.replace("fmt.Println(i)", "fmt.Println(i"), 7),
        ("main.rs", RUST_OK, RUST_OK.replace(".collect();", ".collect());"), 2),
        ("config.json", '{"a": [1, 2]}\n', '{"a": [1, 2}\n', 1),
    ],
)
def test_pack_languages_are_checked_offline(
    tmp_path: Path, name: str, good: str, bad: str, line: int
) -> None:
    languages = registry()
    (tmp_path / "good").mkdir()
    (tmp_path / "bad").mkdir()
    (tmp_path / "good" / name).write_text(good, encoding="utf-8")
    (tmp_path / "bad" / name).write_text(bad, encoding="utf-8")
    parsing = ParseSession(languages, ParseCache(), max_file_bytes=1_000_000)
    good_tree = parsing.parse(tmp_path / "good" / name)
    bad_tree = parsing.parse(tmp_path / "bad" / name)
    assert good_tree is not None and bad_tree is not None
    assert check_syntax(name, good_tree).passed
    result = check_syntax(name, bad_tree)
    assert not result.passed
    assert result.locations[0].line == line


def test_bundled_languages_are_found_without_importing_the_pack() -> None:
    version = language_pack.pack_version()
    assert version is not None and version.startswith("0.")
    assert {"go", "rust", "yaml", "csharp"} <= language_pack.offline_languages(version)


def test_pack_1x_uses_only_cached_grammars(
    project: Path, run_forge: RunForge, tmp_path: Path
) -> None:
    # A stand-in for a 1.x release whose cache holds only Go: any other
    # grammar would be a download, which forge must never ask for.
    site = tmp_path / "site"
    package = site / "tree_sitter_language_pack"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "import tree_sitter, tree_sitter_python\n"
        "def downloaded_languages():\n"
        "    return ['go', 'not-in-forge-table']\n"
        "def get_language(name):\n"
        "    if name != 'go':\n"
        "        raise AssertionError('download attempted for ' + name)\n"
        "    return tree_sitter.Language(tree_sitter_python.language())\n"
        "def download(names):\n"
        "    raise AssertionError('download attempted')\n",
        encoding="utf-8",
    )
    dist = site / "tree_sitter_language_pack-1.99.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tree-sitter-language-pack\nVersion: 1.99.0\n",
        encoding="utf-8",
    )
    env = {"PYTHONPATH": str(site)}
    (project / "main.go").write_text("x = 1\n", encoding="utf-8")
    (project / "lib.rs").write_text("fn main() {}\n", encoding="utf-8")

    done = run_forge("validate", "--files", "main.go", "lib.rs", "--json", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads(done.stdout)["results"]
    assert [(r["target"], r["language"]) for r in results if r["type"] == "syntax_check"] == [
        ("main.go", "go")
    ]
    done = run_forge("plugins", env=env)
    assert "; 1 extra from language_pack" in done.stdout
