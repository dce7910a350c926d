"""The parse cache across calls: what invalidates a kept tree, and what is kept with it."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from mcp_client import call, connect

from forge.languages import RACY_NS, LanguageRegistry, ParseCache, ParsedFile, ParseSession
from forge.plugin_host.host import build_plugin_host

MAX = 5 * 1024 * 1024


@pytest.fixture(scope="module")
def languages() -> LanguageRegistry:
    return LanguageRegistry.from_plugins(build_plugin_host())


def parse(languages: LanguageRegistry, cache: ParseCache, path: Path) -> ParsedFile:
    """``path`` through a new session (a new validate call) over ``cache``."""
    parsed = ParseSession(languages, cache, max_file_bytes=MAX).parse(path)
    assert parsed is not None
    return parsed


def age(path: Path, seconds: float) -> None:
    """Set the file's mtime ``seconds`` in the past (its ctime becomes now)."""
    then = time.time_ns() - int(seconds * 1e9)
    os.utime(path, ns=(then, then))


def test_a_file_changed_lately_is_compared_by_content_until_it_settles(
    languages: LanguageRegistry, tmp_path: Path
) -> None:
    path = tmp_path / "a.py"
    path.write_text("a = 1\n", encoding="utf-8")
    cache = ParseCache()
    first = parse(languages, cache, path)
    # Written just now: a same-size rewrite could keep its stat, so the bytes are compared.
    assert parse(languages, cache, path) is first
    assert (cache.parses, cache.hits, cache.verified) == (1, 1, 1)

    age(path, RACY_NS / 1e9 + 5)  # changes ctime: read again, now settled
    settled = parse(languages, cache, path)
    assert cache.parses == 2
    assert parse(languages, cache, path) is settled
    assert (cache.hits, cache.verified) == (2, 1)  # trusted on its stat alone


def test_a_same_size_rewrite_is_seen_at_once(languages: LanguageRegistry, tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    cache = ParseCache()
    for index in range(20):  # each rewrite well within the same second as the last read
        path.write_text(f"value = {index:02d}\n", encoding="utf-8")
        assert parse(languages, cache, path).source == f"value = {index:02d}\n".encode()


def test_a_rewrite_that_puts_the_old_mtime_back_is_seen(
    languages: LanguageRegistry, tmp_path: Path
) -> None:
    path = tmp_path / "a.py"
    path.write_text("value = 1\n", encoding="utf-8")
    age(path, 3600)
    before = path.stat()
    assert parse(languages, cache := ParseCache(), path).source == b"value = 1\n"
    path.write_text("value = 2\n", encoding="utf-8")  # same size, same inode
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # as rsync -t or tar do
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert parse(languages, cache, path).source == b"value = 2\n"


def test_what_is_derived_from_a_tree_lives_as_long_as_the_tree(
    languages: LanguageRegistry, tmp_path: Path
) -> None:
    path = tmp_path / "a.py"
    path.write_text("a = 1\n", encoding="utf-8")
    cache = ParseCache()
    computed: list[str] = []

    def names(parsed: ParsedFile) -> tuple[str, ...]:
        computed.append(parsed.source.decode())
        return tuple(parsed.source.decode().split())

    first = parse(languages, cache, path)
    assert first.derived(("test", "names"), lambda: names(first)) == ("a", "=", "1")
    again = parse(languages, cache, path)
    assert again.derived(("test", "names"), lambda: names(again)) == ("a", "=", "1")
    assert computed == ["a = 1\n"]

    path.write_text("b = 22\n", encoding="utf-8")
    edited = parse(languages, cache, path)
    assert edited.derived(("test", "names"), lambda: names(edited)) == ("b", "=", "22")
    assert computed == ["a = 1\n", "b = 22\n"]


@pytest.mark.anyio
async def test_an_edit_between_two_mcp_calls_changes_the_verdict(project: Path) -> None:
    source = project / "a.py"
    source.write_text("def f():\n    return 1\n", encoding="utf-8")
    arguments = {"moduleId": "m", "files": ["a.py"]}
    async with connect(project) as client:
        first = await call(client, "validate", arguments)
        assert first["passed"]
        for broken, fixed in (
            ("def f():\n    return(1\n", "def f():\n    return 2\n"),  # same size, same second
            ("def f():\n    return 1)\n", "def f():\n    return 3\n"),
        ):
            source.write_text(broken, encoding="utf-8")
            report = await call(client, "validate", arguments)
            syntax = next(r for r in report["results"] if r["type"] == "syntax_check")
            assert not syntax["passed"], syntax
            source.write_text(fixed, encoding="utf-8")
            report = await call(client, "validate", arguments)
            assert report["passed"], report
