"""Loading plugins and calling their hooks: the one road every plugin travels, built-in or not.

- :mod:`~forge.plugin_host.host`: :func:`build_plugin_host` makes a fresh
  pluggy manager, loads the ``forge`` entry points one by one (a broken plugin
  becomes a :class:`PluginProblem`, never a crash), and :class:`PluginHost`'s
  ``call`` is the one way to call a hook: each implementation on its own,
  results checked against the spec's model and attributed, traced with
  ``FORGE_TRACE_PLUGINS=1``.
- :mod:`~forge.plugin_host.records`: what forge records of each plugin
  (:class:`PluginInfo`, a line of ``forge plugins``) and of each answer a hook
  gave (checked against the spec's model, attributed).
- :mod:`~forge.plugin_host.catalog`: what checks and plan rules exist, from the
  descriptors their plugins declare; ids unique. :class:`KnownChecks`, the check
  ids plan rules receive, read lazily.
- :mod:`~forge.plugin_host.entry_points`: the entry points of the installed
  distributions, remembered in ``FORGE_HOME/cache`` while nothing is installed
  or removed, so a fresh command reads no distribution metadata.
- :mod:`~forge.plugin_host.pydantic_lookup`: pydantic's own plugin lookup,
  answered from that cache.

Names are loaded from their module on first use: a fresh command must answer
pydantic's plugin lookup (:mod:`~forge.plugin_host.pydantic_lookup`) before any
model is built, and :mod:`~forge.plugin_host.records` builds models when imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forge import lazy_exports

if TYPE_CHECKING:
    from forge.plugin_host.catalog import (
        Catalog as Catalog,
    )
    from forge.plugin_host.catalog import (
        KnownChecks as KnownChecks,
    )
    from forge.plugin_host.catalog import (
        build_catalog as build_catalog,
    )
    from forge.plugin_host.catalog import (
        core_checks as core_checks,
    )
    from forge.plugin_host.catalog import (
        core_plan_rules as core_plan_rules,
    )
    from forge.plugin_host.entry_points import (
        EntryPointCache as EntryPointCache,
    )
    from forge.plugin_host.entry_points import (
        FoundEntryPoint as FoundEntryPoint,
    )
    from forge.plugin_host.entry_points import (
        installed_version as installed_version,
    )
    from forge.plugin_host.entry_points import (
        one_reading as one_reading,
    )
    from forge.plugin_host.entry_points import (
        open_cache as open_cache,
    )
    from forge.plugin_host.host import (
        PluginHost as PluginHost,
    )
    from forge.plugin_host.host import (
        build_plugin_host as build_plugin_host,
    )
    from forge.plugin_host.pydantic_lookup import (
        answer_plugin_lookup_from_cache as answer_plugin_lookup_from_cache,
    )
    from forge.plugin_host.records import (
        BUILTIN_DISTRIBUTION as BUILTIN_DISTRIBUTION,
    )
    from forge.plugin_host.records import (
        ENTRY_POINT_GROUP as ENTRY_POINT_GROUP,
    )
    from forge.plugin_host.records import (
        PluginInfo as PluginInfo,
    )
    from forge.plugin_host.records import (
        PluginProblem as PluginProblem,
    )
    from forge.plugin_host.records import (
        describe_exception as describe_exception,
    )

#: The module of this package each public name comes from.
_HOMES = {
    **dict.fromkeys(
        ("Catalog", "KnownChecks", "build_catalog", "core_checks", "core_plan_rules"), "catalog"
    ),
    **dict.fromkeys(
        ("EntryPointCache", "FoundEntryPoint", "installed_version", "one_reading", "open_cache"),
        "entry_points",
    ),
    **dict.fromkeys(("PluginHost", "build_plugin_host"), "host"),
    **dict.fromkeys(
        (
            "BUILTIN_DISTRIBUTION",
            "ENTRY_POINT_GROUP",
            "PluginInfo",
            "PluginProblem",
            "describe_exception",
        ),
        "records",
    ),
    "answer_plugin_lookup_from_cache": "pydantic_lookup",
}


__getattr__ = lazy_exports(__name__, _HOMES)
