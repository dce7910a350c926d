"""PluginHost.call goes through pluggy's own calling loop, one implementation at a time.

forge isolates each plugin (one that raises fails alone), but the order and
the call itself are pluggy's: its monitoring sees every call, and a hook called
through pluggy directly gives the same order, however late each plugin was imported.
"""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from forge.plugin_host.host import PluginHost, build_plugin_host
from forge.plugin_host.records import ENTRY_POINT_GROUP

PLUGIN_HOST = Path(__file__).resolve().parents[2] / "forge" / "plugin_host"

#: name: (also implements forge_check_plan, forge_run_checks marker options, raises)
PLUGINS = {
    "cl_a": (False, "", False),
    "cl_b": (True, "", True),
    "cl_c": (True, "trylast=True", False),
    "cl_d": (False, "tryfirst=True", False),
    "cl_e": (True, "", False),
}


@pytest.fixture
def host_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A function building a fresh host over the five plugins above (and no others)."""
    site = tmp_path / "site"
    site.mkdir()
    for name, (rule, options, raises) in PLUGINS.items():
        body = f"raise RuntimeError('{name} broke')" if raises else f"return [{name!r}]"
        source = f"from forge import hookimpl\n\n@hookimpl({options})\ndef forge_run_checks():\n    {body}\n"
        if rule:
            source += f"\n@hookimpl\ndef forge_check_plan():\n    return [{name!r}]\n"
        (site / f"{name}.py").write_text(source, encoding="utf-8")
    dist_info = site / "forge_loop-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: forge-loop\nVersion: 1.0\n", encoding="utf-8"
    )
    entries = "".join(f"{name} = {name}\n" for name in PLUGINS)
    (dist_info / "entry_points.txt").write_text(f"[forge]\n{entries}", encoding="utf-8")
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    monkeypatch.syspath_prepend(str(site))
    others = [ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in PLUGINS]
    return lambda: build_plugin_host(others)


#: Every argument of each hook's spec (pluggy warns of a call without one).
ARGUMENTS: dict[str, dict[str, None]] = {
    "forge_run_checks": {"request": None, "workspace": None},
    "forge_check_plan": {"plan": None, "project_root": None, "checks": None},
}


def called(host: PluginHost, hook: str) -> list[tuple[str, list[str], str | None]]:
    return [(r.plugin, r.items, r.failure) for r in host.call(hook, str, **ARGUMENTS[hook])]


def test_every_call_goes_through_pluggys_loop(host_of: Any) -> None:
    """pluggy's hook-call monitoring sees each implementation called: the loop is pluggy's."""
    host: PluginHost = host_of()
    seen: list[list[str]] = []
    host.pm.add_hookcall_monitoring(
        lambda name, impls, kwargs: seen.append([impl.plugin_name for impl in impls]),
        lambda outcome, name, impls, kwargs: None,
    )
    results = called(host, "forge_run_checks")
    assert [plugin for plugin, _, _ in results] == ["cl_d", "cl_e", "cl_b", "cl_a", "cl_c"]
    assert seen == [[plugin] for plugin, _, _ in results]


def test_one_plugin_that_raises_fails_alone(host_of: Any) -> None:
    results = called(host_of(), "forge_run_checks")
    assert ("cl_a", ["cl_a"], None) in results and ("cl_c", ["cl_c"], None) in results
    (failure,) = [failure for plugin, _, failure in results if plugin == "cl_b"]
    assert failure is not None and "RuntimeError: cl_b broke" in failure


def test_the_order_is_pluggys_own_however_late_plugins_are_imported(host_of: Any) -> None:
    host_of()  # imports all five once: the next host knows their hooks and defers them
    late: PluginHost = host_of()
    assert not late._pm.has_plugin("cl_a")
    plan_rules = [plugin for plugin, _, _ in called(late, "forge_check_plan")]  # b, c, e first
    checks = [plugin for plugin, _, _ in called(late, "forge_run_checks")]
    # pluggy's own call of the whole hook, every plugin now imported, gives the same order.
    own = late.pm.hook.forge_check_plan(**ARGUMENTS["forge_check_plan"])
    assert own == [[name] for name in plan_rules]
    ours = [name for name in checks if name != "cl_b"]  # pluggy's own call stops at cl_b's raise
    late.pm.unregister(name="cl_b")
    assert late.pm.hook.forge_run_checks(**ARGUMENTS["forge_run_checks"]) == [[n] for n in ours]


def test_the_host_copies_no_ordering_rule_and_reads_no_private_pluggy_attribute() -> None:
    source = "\n".join(path.read_text(encoding="utf-8") for path in PLUGIN_HOST.glob("*.py"))
    assert not re.search(r"\.(tryfirst|trylast|_hookimpls|_multicall|_hookexec)\b", source)
