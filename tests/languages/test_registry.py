"""The language registry and the parse cache, with real grammars and real files."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tree_sitter_python

from forge import hookimpl
from forge.languages import LanguageRegistry, NotParsed, ParseCache, ParsedFile, ParseSession
from forge.models import Language
from forge.plugin_host.host import build_plugin_host

MAX = 5 * 1024 * 1024


class LanguagePlugin:
    """A language plugin object registering the given languages."""

    def __init__(self, *languages: Language) -> None:
        self.languages = list(languages)

    @hookimpl
    def forge_languages(self) -> list[Language]:
        return self.languages


class RaisingPlugin:
    @hookimpl
    def forge_languages(self) -> list[Language]:
        raise RuntimeError("grammar wheel missing")


class GarbagePlugin:
    @hookimpl
    def forge_languages(self) -> object:
        return {"name": "python"}


def python_like(name: str, *extensions: str, fallback: bool = False) -> Language:
    return Language(
        name=name,
        extensions=extensions,
        load_grammar=tree_sitter_python.language,
        fallback=fallback,
    )


def registry_of(*plugins: tuple[str, object]) -> LanguageRegistry:
    return LanguageRegistry.from_plugins(build_plugin_host(entry_points_=[], extra_plugins=plugins))


@pytest.fixture(scope="module")
def builtins() -> LanguageRegistry:
    """The registry of the installed forge's own plugins."""
    return LanguageRegistry.from_plugins(build_plugin_host())


def session(registry: LanguageRegistry, cache: ParseCache | None = None, **kw: int) -> ParseSession:
    cache = cache if cache is not None else ParseCache()
    return ParseSession(registry, cache, max_file_bytes=kw.get("max_bytes", MAX))


@pytest.mark.parametrize(
    ("file", "language"),
    [
        ("a.py", "python"),
        ("a.pyi", "python"),
        ("A.PY", "python"),
        ("a.js", "javascript"),
        ("a.mjs", "javascript"),
        ("a.cjs", "javascript"),
        ("a.jsx", "javascript"),
        ("a.ts", "typescript"),
        ("a.mts", "typescript"),
        ("a.cts", "typescript"),
        ("types.d.ts", "typescript"),
        ("a.tsx", "tsx"),
        ("dir.v2/a.tsx", "tsx"),
    ],
)
def test_builtin_languages_own_their_extensions(
    builtins: LanguageRegistry, file: str, language: str
) -> None:
    found = builtins.for_path(file)
    assert found is not None
    assert found.name == language
    assert builtins.plugin_of(language) == language


@pytest.mark.parametrize("file", ["README", "notes.txt", ".bashrc", "archive.tar.gz", "a.py.orig"])
def test_unknown_extensions_have_no_language(builtins: LanguageRegistry, file: str) -> None:
    assert builtins.for_path(file) is None


def test_longest_extension_wins() -> None:
    registry = registry_of(
        ("plain", LanguagePlugin(python_like("plain", ".ts"))),
        ("decl", LanguagePlugin(python_like("decl", ".d.ts"))),
    )
    assert registry.problems == []
    assert registry.for_path("x/types.d.ts").name == "decl"  # type: ignore[union-attr]
    assert registry.for_path("x/main.ts").name == "plain"  # type: ignore[union-attr]


def test_extension_conflict_names_both_plugins_and_keeps_the_first() -> None:
    registry = registry_of(
        ("first_plugin", LanguagePlugin(python_like("first", ".foo"))),
        ("second_plugin", LanguagePlugin(python_like("second", ".bar", ".foo"))),
    )
    assert len(registry.problems) == 1
    problem = registry.problems[0]
    assert "first_plugin" in problem.message
    assert "second_plugin" in problem.message
    assert "'.foo'" in problem.message
    # The later-called plugin is the one reported and not used, whole.
    kept = registry.for_path("a.foo")
    assert kept is not None
    assert problem.plugin != registry.plugin_of(kept.name)
    assert len(registry) == 1


def test_name_conflict_is_reported() -> None:
    registry = registry_of(
        ("one", LanguagePlugin(python_like("same", ".one"))),
        ("two", LanguagePlugin(python_like("same", ".two"))),
    )
    assert [p.plugin for p in registry.problems] in (["one"], ["two"])
    assert "language 'same'" in registry.problems[0].message


def test_a_raising_or_broken_plugin_does_not_stop_the_others() -> None:
    registry = registry_of(
        ("boom", RaisingPlugin()),
        ("garbage", GarbagePlugin()),
        ("good", LanguagePlugin(python_like("good", ".good"))),
    )
    problems = {p.plugin: p.message for p in registry.problems}
    assert "RuntimeError: grammar wheel missing" in problems["boom"]
    assert "list of Language" in problems["garbage"]
    assert registry.for_path("x.good") is not None


def test_fallback_languages_give_way_without_a_conflict() -> None:
    registry = registry_of(
        ("pack", LanguagePlugin(python_like("py", ".py", fallback=True))),
        ("pack2", LanguagePlugin(python_like("other", ".py", ".other", fallback=True))),
        ("real", LanguagePlugin(python_like("py", ".py"))),
    )
    assert registry.problems == []
    assert registry.plugin_of("py") == "real"
    assert registry.extensions("other") == [".other"]


def test_grammar_is_loaded_lazily_and_once(tmp_path: Path) -> None:
    calls: list[int] = []

    def load() -> object:
        calls.append(1)
        return tree_sitter_python.language()

    registry = registry_of(
        (
            "counted",
            LanguagePlugin(Language(name="counted", extensions=(".cnt",), load_grammar=load)),
        )
    )
    assert calls == []
    cache = ParseCache()
    for index in range(3):
        (tmp_path / f"{index}.cnt").write_text(f"x = {index}\n", encoding="utf-8")
        parsed = session(registry, cache).parse(tmp_path / f"{index}.cnt")
        assert parsed is not None
        assert not parsed.has_errors
    assert calls == [1]


def test_a_grammar_that_cannot_load_names_its_plugin(tmp_path: Path) -> None:
    def load() -> object:
        raise ImportError("No module named 'tree_sitter_nothing'")

    registry = registry_of(
        (
            "nothing_plugin",
            LanguagePlugin(Language(name="nothing", extensions=(".nth",), load_grammar=load)),
        )
    )
    (tmp_path / "a.nth").write_text("x\n", encoding="utf-8")
    with pytest.raises(NotParsed) as caught:
        session(registry).parse(tmp_path / "a.nth")
    assert caught.value.reason == "no_grammar"
    assert caught.value.plugin == "nothing_plugin"
    assert "tree_sitter_nothing" in str(caught.value)


def test_a_session_parses_each_file_once_and_shares_the_result(
    builtins: LanguageRegistry, tmp_path: Path
) -> None:
    source = tmp_path / "a.py"
    source.write_text("def f():\n    return 1\n", encoding="utf-8")
    cache = ParseCache()
    one = session(builtins, cache)
    first = one.parse(source)
    assert isinstance(first, ParsedFile)
    assert one.parse(str(tmp_path / "." / "a.py")) is first
    assert cache.parses == 1
    assert first.source == source.read_bytes()
    assert first.language.name == "python"
    assert first.tree.root_node.type == "module"


def test_unchanged_files_are_not_parsed_again_across_sessions(
    builtins: LanguageRegistry, tmp_path: Path
) -> None:
    source = tmp_path / "a.ts"
    source.write_text("export const a: number = 1;\n", encoding="utf-8")
    cache = ParseCache()
    first = session(builtins, cache).parse(source)
    second = session(builtins, cache).parse(source)
    assert second is first
    assert (cache.parses, cache.hits) == (1, 1)

    source.write_text("export const a: number = 12;\n", encoding="utf-8")  # new size
    third = session(builtins, cache).parse(source)
    assert third is not first
    assert third is not None
    assert b"12" in third.source

    stat = source.stat()
    source.write_text("export const a: number = 13;\n", encoding="utf-8")  # same size
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    fourth = session(builtins, cache).parse(source)
    assert fourth is not None
    assert b"13" in fourth.source
    assert cache.parses == 3


def test_the_cache_is_bounded_in_bytes(builtins: LanguageRegistry, tmp_path: Path) -> None:
    cache = ParseCache(max_bytes=100)
    for index in range(5):
        path = tmp_path / f"m{index}.py"
        path.write_text(f"value_{index} = {'1' * 30}\n", encoding="utf-8")
        session(builtins, cache).parse(path)
    assert 1 <= len(cache) <= 2


def test_files_over_the_limit_are_not_parsed(builtins: LanguageRegistry, tmp_path: Path) -> None:
    big = tmp_path / "bundle.js"
    big.write_text("var a = 1;\n" * 200, encoding="utf-8")
    with pytest.raises(NotParsed) as caught:
        session(builtins, max_bytes=1000).parse(big)
    assert caught.value.reason == "too_large"
    assert "2,200 bytes is over the 1,000-byte parse limit" in str(caught.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"ok = 1\nname = '\xff\xfe'\n", "byte 0xff at line 2, column 9"),
        (b"a = 1\x00\n", "NUL byte at line 1, column 6"),
    ],
)
def test_bytes_that_are_not_text_are_reported(
    builtins: LanguageRegistry, tmp_path: Path, content: bytes, expected: str
) -> None:
    path = tmp_path / "bad.py"
    path.write_bytes(content)
    with pytest.raises(NotParsed) as caught:
        session(builtins).parse(path)
    assert caught.value.reason == "not_text"
    assert expected in str(caught.value)


def test_python_files_may_declare_their_encoding(
    builtins: LanguageRegistry, tmp_path: Path
) -> None:
    path = tmp_path / "latin.py"
    path.write_bytes("# -*- coding: latin-1 -*-\nname = 'café'\n".encode("latin-1"))
    parsed = session(builtins).parse(path)
    assert parsed is not None
    assert parsed.encoding == "iso-8859-1"
    assert "café".encode() in parsed.source
    assert not parsed.has_errors
    # JavaScript has no such declaration: the same bytes are not text.
    js = tmp_path / "latin.js"
    js.write_bytes("// coding: latin-1\nconst name = 'café';\n".encode("latin-1"))
    with pytest.raises(NotParsed):
        session(builtins).parse(js)


def test_a_utf8_byte_order_mark_is_not_an_error(builtins: LanguageRegistry, tmp_path: Path) -> None:
    path = tmp_path / "bom.js"
    path.write_bytes(b"\xef\xbb\xbfconst a = 1;\n")
    parsed = session(builtins).parse(path)
    assert parsed is not None
    assert not parsed.has_errors
    assert parsed.source == b"const a = 1;\n"


def test_missing_files_directories_and_unknown_languages(
    builtins: LanguageRegistry, tmp_path: Path
) -> None:
    (tmp_path / "pkg.py").mkdir()
    parsing = session(builtins)
    with pytest.raises(NotParsed) as missing:
        parsing.parse(tmp_path / "gone.py")
    assert missing.value.reason == "missing"
    with pytest.raises(NotParsed) as directory:
        parsing.parse(tmp_path / "pkg.py")
    assert directory.value.reason == "not_a_file" and not directory.value.unjudged
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    assert parsing.parse(tmp_path / "notes.txt") is None
    # The same outcome on every ask, without touching the disk again.
    with pytest.raises(NotParsed):
        parsing.parse(tmp_path / "gone.py")


def test_concurrent_sessions_share_one_cache_safely(
    builtins: LanguageRegistry, tmp_path: Path
) -> None:
    files = []
    for index in range(20):
        path = tmp_path / f"m{index}.py"
        path.write_text(f"def f{index}(x):\n    return [x] * {index}\n", encoding="utf-8")
        files.append(path)
    cache = ParseCache()
    barrier = threading.Barrier(8)

    def validate_call(_: int) -> list[tuple[str, bytes]]:
        barrier.wait()
        parsing = session(builtins, cache)
        seen = []
        for path in files:
            parsed = parsing.parse(path)
            assert parsed is not None
            assert not parsed.has_errors
            function = parsed.tree.root_node.children[0]
            seen.append((path.name, function.child_by_field_name("name").text))  # type: ignore[union-attr]
        return seen

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(validate_call, range(8)))
    expected = [(f"m{i}.py", f"f{i}".encode()) for i in range(20)]
    assert all(outcome == expected for outcome in outcomes)
    assert 20 <= cache.parses <= 160
    assert len(cache) == 20


def test_listing_languages_imports_no_grammar() -> None:
    code = (
        "import sys\n"
        "from forge.languages import LanguageRegistry\n"
        "from forge.plugin_host.host import build_plugin_host\n"
        "registry = LanguageRegistry.from_plugins(build_plugin_host())\n"
        "assert registry.for_path('a.py') is not None\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('tree_sitter_'))\n"
        "print(loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"
