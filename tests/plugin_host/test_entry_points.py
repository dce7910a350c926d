"""The entry-point cache: reused while nothing is installed or removed, read again when it is;
the hooks each plugin implements, forgotten when a file defining them changes."""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path

import pytest

from forge.plugin_host.entry_points import EntryPointCache, FoundEntryPoint, cache_file, discover

GROUP = "forge"


def fake_distribution(folder: Path, name: str, entries: dict[str, str]) -> Path:
    """A ``<name>-1.0.dist-info`` with METADATA and entry points of group ``forge``."""
    meta = folder / f"{name}-1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{key} = {value}\n" for key, value in entries.items())
    (meta / "entry_points.txt").write_text(f"[{GROUP}]\n{lines}", encoding="utf-8")
    return meta


def cached_entry_points(group: str, home: Path) -> list[FoundEntryPoint]:
    """One command's use of the cache, as ``build_plugin_host`` makes it: look up, then save."""
    cache = EntryPointCache(home)
    found = cache.entry_points(group)
    cache.save()
    return found


def names(found: list[object]) -> set[str]:
    return {getattr(entry, "name", "") for entry in found}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    importlib.invalidate_caches()
    return folder


def test_the_cache_answers_as_discovery_does_and_is_reused(site: Path, tmp_path: Path) -> None:
    fake_distribution(site, "fake_plugin", {"fake_rule": "fake_rule_module"})
    home = tmp_path / "home"
    first = cached_entry_points(GROUP, home)
    assert first == discover(GROUP)
    assert "fake_rule" in names(first)
    stored = cache_file(home)
    written = stored.stat().st_mtime_ns
    assert cached_entry_points(GROUP, home) == first
    assert stored.stat().st_mtime_ns == written  # a hit: nothing rewritten


def test_installing_a_distribution_is_noticed(site: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    before = cached_entry_points(GROUP, home)
    fake_distribution(site, "late_plugin", {"late_rule": "late_rule_module"})
    after = cached_entry_points(GROUP, home)
    assert names(after) == names(before) | {"late_rule"}


def test_a_file_added_to_a_folder_on_the_path_keeps_the_cache(site: Path, tmp_path: Path) -> None:
    """A project folder on ``sys.path`` (a script's, an editable install's) gains files all
    the time (``.forge/`` appears): only an installed or removed distribution counts."""
    fake_distribution(site, "kept_plugin", {"kept_rule": "m"})
    home = tmp_path / "home"
    cached_entry_points(GROUP, home)
    stored = cache_file(home)
    written = stored.stat().st_mtime_ns
    (site / ".forge").mkdir()
    (site / "notes.txt").write_text("not a distribution\n", encoding="utf-8")
    assert "kept_rule" in names(cached_entry_points(GROUP, home))
    assert stored.stat().st_mtime_ns == written  # a hit: nothing read again
    (site / "kept_plugin-1.0.dist-info").rename(site / "kept_plugin-2.0.dist-info")
    cached_entry_points(GROUP, home)
    assert stored.stat().st_mtime_ns != written  # an upgrade is noticed


def test_an_edited_entry_points_file_is_noticed(site: Path, tmp_path: Path) -> None:
    meta = fake_distribution(site, "edited_plugin", {"old_rule": "m"})
    home = tmp_path / "home"
    assert "old_rule" in names(cached_entry_points(GROUP, home))
    entry_points = meta / "entry_points.txt"
    entry_points.write_text(f"[{GROUP}]\nnew_rule = m\n", encoding="utf-8")
    stat = entry_points.stat()
    os.utime(entry_points, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    found = names(cached_entry_points(GROUP, home))
    assert "new_rule" in found and "old_rule" not in found


@pytest.mark.parametrize("content", [b"", b"{not json", b'{"version": 1, "groups": 3}', b"[]"])
def test_a_damaged_cache_is_a_miss(site: Path, tmp_path: Path, content: bytes) -> None:
    home = tmp_path / "home"
    expected = cached_entry_points(GROUP, home)
    cache_file(home).write_bytes(content)
    assert cached_entry_points(GROUP, home) == expected


def test_loading_a_cached_entry_point_imports_what_it_names(site: Path, tmp_path: Path) -> None:
    (site / "cached_target.py").write_text("class Box:\n    value = 42\n", encoding="utf-8")
    fake_distribution(site, "target_plugin", {"target": "cached_target:Box.value"})
    home = tmp_path / "home"
    cached_entry_points(GROUP, home)
    (entry,) = [e for e in cached_entry_points(GROUP, home) if e.name == "target"]
    assert (entry.distribution, entry.version, entry.load()) == ("target_plugin", "1.0", 42)


def test_hooks_are_remembered_while_their_files_are_unchanged(site: Path, tmp_path: Path) -> None:
    module = site / "hooked_plugin.py"
    module.write_text("# the plugin\n", encoding="utf-8")
    home = tmp_path / "home"
    cache = EntryPointCache(home)
    assert cache.hooks("hooked_plugin") is None  # never learnt
    cache.learn("hooked_plugin", ["forge_run_checks"], [str(module)])
    cache.save()
    assert EntryPointCache(home).hooks("hooked_plugin") == {"forge_run_checks"}


def test_editing_a_file_a_hook_is_defined_in_forgets_the_hooks(site: Path, tmp_path: Path) -> None:
    module = site / "edited_hooks.py"
    helper = site / "edited_hooks_impl.py"  # where one implementation really lives
    module.write_text("from edited_hooks_impl import forge_run_checks\n", encoding="utf-8")
    helper.write_text("# v1\n", encoding="utf-8")
    home = tmp_path / "home"
    cache = EntryPointCache(home)
    cache.learn("edited_hooks", ["forge_run_checks"], [str(module), str(helper)])
    cache.save()
    assert EntryPointCache(home).hooks("edited_hooks") is not None
    stat = helper.stat()
    helper.write_text("# v2\n", encoding="utf-8")  # same size: the time tells
    os.utime(helper, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert EntryPointCache(home).hooks("edited_hooks") is None
    cache = EntryPointCache(home)
    cache.learn("edited_hooks", ["forge_run_checks"], [str(module), str(helper)])
    cache.save()
    helper.unlink()
    assert EntryPointCache(home).hooks("edited_hooks") is None


def test_installing_a_distribution_forgets_the_hooks(site: Path, tmp_path: Path) -> None:
    module = site / "steady_plugin.py"
    module.write_text("# the plugin\n", encoding="utf-8")
    home = tmp_path / "home"
    cache = EntryPointCache(home)
    cache.entry_points(GROUP)
    cache.learn("steady_plugin", ["forge_check_plan"], [str(module)])
    cache.save()
    assert EntryPointCache(home).hooks("steady_plugin") == {"forge_check_plan"}
    fake_distribution(site, "newcomer", {"newcomer": "newcomer_module"})
    assert EntryPointCache(home).hooks("steady_plugin") is None


def test_no_cache_means_no_hooks_remembered(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = site / "uncached_plugin.py"
    module.write_text("# the plugin\n", encoding="utf-8")
    home = tmp_path / "home"
    cache = EntryPointCache(home)
    cache.learn("uncached_plugin", ["forge_run_checks"], [str(module)])
    cache.save()
    monkeypatch.setenv("FORGE_NO_CACHE", "1")
    assert EntryPointCache(home).hooks("uncached_plugin") is None


def test_a_version_is_remembered_until_a_distribution_is_installed_or_removed(
    site: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"

    def version(distribution: str) -> str | None:
        cache = EntryPointCache(home)
        found = cache.version(distribution)
        cache.save()
        return found

    assert version("versioned-dist") is None
    meta = fake_distribution(site, "versioned_dist", {})
    assert version("versioned-dist") == "1.0"
    stored = cache_file(home)
    written = stored.stat().st_mtime_ns
    assert version("versioned-dist") == "1.0"
    assert stored.stat().st_mtime_ns == written  # a hit: nothing read or rewritten
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: versioned_dist\nVersion: 2.0\n")
    upgraded = meta.rename(site / "versioned_dist-2.0.dist-info")  # as pip upgrades it
    assert version("versioned-dist") == "2.0"
    for file in upgraded.iterdir():
        file.unlink()
    upgraded.rmdir()
    assert version("versioned-dist") is None


def test_installed_version_is_kept_under_forge_home(site: Path) -> None:
    from forge.plugin_host.entry_points import installed_version
    from forge.store.home import forge_home

    fake_distribution(site, "counted_dist", {})
    assert installed_version("counted-dist") == "1.0"
    assert installed_version("not-installed-anywhere") is None
    stored = json.loads(cache_file(forge_home()).read_text(encoding="utf-8"))
    assert stored["versions"] == {"counted-dist": "1.0", "not-installed-anywhere": None}


def test_one_command_reads_the_installed_distributions_once(site: Path, tmp_path: Path) -> None:
    from forge.plugin_host.entry_points import one_reading, open_cache

    home = tmp_path / "home"
    with one_reading():
        first = open_cache(home)
        assert open_cache(home) is first  # pydantic's lookup, the host, the pack's version
        assert open_cache(tmp_path / "other-home") is not first
        first.entry_points(GROUP)
        fake_distribution(site, "during_command", {"during_rule": "m"})
        assert "during_rule" not in names(open_cache(home).entry_points(GROUP))
        with one_reading():  # nested: still the command's reading
            assert open_cache(home) is first
        assert open_cache(home) is first
    after = open_cache(home)  # the next command (or a server's next lookup) reads afresh
    assert after is not first
    assert "during_rule" in names(after.entry_points(GROUP))
    assert open_cache(home) is not after


def test_declared_check_ids_last_as_long_as_the_plugin_s_hooks(site: Path, tmp_path: Path) -> None:
    """What a plugin declares is kept when it is imported again unchanged, and forgotten
    with its hooks when a file defining it changes."""
    module = site / "declaring_plugin.py"
    module.write_text("# v1\n", encoding="utf-8")
    home = tmp_path / "home"
    cache = EntryPointCache(home)
    cache.learn_declared("declaring_plugin", "forge_checks", ["a_check"])  # hooks unknown yet
    cache.learn("declaring_plugin", ["forge_checks", "forge_run_checks"], [str(module)])
    assert cache.declared("declaring_plugin", "forge_checks") is None
    cache.learn_declared("declaring_plugin", "forge_checks", ["b_check", "a_check"])
    cache.save()
    again = EntryPointCache(home)
    again.learn("declaring_plugin", ["forge_run_checks", "forge_checks"], [str(module)])
    assert again.declared("declaring_plugin", "forge_checks") == ["a_check", "b_check"]
    assert again.declared("declaring_plugin", "forge_plan_rules") is None
    module.write_text("# v2, longer\n", encoding="utf-8")
    assert EntryPointCache(home).declared("declaring_plugin", "forge_checks") is None
