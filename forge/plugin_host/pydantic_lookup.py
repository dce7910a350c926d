"""pydantic's own plugin lookup, answered from forge's entry-point cache.

The first time pydantic builds a validator it looks for pydantic plugins
(entry-point group ``pydantic``): ``pydantic.plugin._loader`` imports
:mod:`importlib.metadata` and reads the entry points of every installed
distribution. That is 15-20 ms of a fresh ``forge validate``, ``forge hook``
or ``forge plan check``, in environments that almost never hold a pydantic
plugin. :func:`answer_plugin_lookup_from_cache` puts a stand-in for that module
in ``sys.modules``: asked for the plugins, it looks the ``pydantic`` group up
in :mod:`forge.plugin_host.entry_points` and answers "none" when none is installed.
When one is, and for anything else asked of the module, it imports pydantic's
real loader and hands over to it, so pydantic behaves exactly as without forge.

Invalidation: the lookup is the entry-point cache's, re-read whenever a
distribution is installed, upgraded or removed (its fingerprint); it is made
once per process, as pydantic itself looks for plugins once per process.

This leans on a private name of pydantic (``pydantic.plugin._loader.get_plugins``,
imported by ``pydantic.plugin._schema_validator`` when it builds a validator);
``tests/plugin_host/test_pydantic_lookup.py`` fails if pydantic stops asking it, and if
an installed pydantic plugin stops being used.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
import types
from collections.abc import Iterator
from typing import Any

from forge.plugin_host.entry_points import one_reading, open_cache
from forge.store.home import forge_home

#: The module of pydantic's that finds its plugins.
LOADER = "pydantic.plugin._loader"
#: The entry-point group pydantic plugins are published under.
PYDANTIC_GROUP = "pydantic"


class _StandIn(types.ModuleType):
    """``pydantic.plugin._loader`` until a pydantic plugin, or another name, is asked for."""

    def __init__(self) -> None:
        super().__init__(
            LOADER,
            "forge's stand-in for pydantic's plugin loader (forge.plugin_host.pydantic_lookup).",
        )
        self._installed: bool | None = None
        self._lock = threading.Lock()

    def get_plugins(self) -> Any:
        """No plugins when the entry-point cache knows of none; else pydantic's own answer."""
        with self._lock:
            if self._installed is None:
                self._installed = _plugins_installed()
        if not self._installed:
            return ()
        return _real_loader().get_plugins()

    def __getattr__(self, name: str) -> Any:
        # The import system probes dunders (``__path__``: is it a package?) on every
        # ``from ... import``: those are the stand-in's own, not a reason to load.
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return getattr(_real_loader(), name)


def answer_plugin_lookup_from_cache() -> None:
    """Let pydantic's first validator build skip the plugin scan when no plugin is installed.

    Does nothing when pydantic's loader is already imported (there is nothing
    left to save). Called by the CLI commands a fresh process runs often.
    """
    sys.modules.setdefault(LOADER, _StandIn())


def _plugins_installed() -> bool:

    cache = open_cache(forge_home())
    found = cache.entry_points(PYDANTIC_GROUP)
    cache.save()
    return bool(found)


def _real_loader() -> types.ModuleType:
    """pydantic's own loader module, imported in place of the stand-in."""
    if isinstance(sys.modules.get(LOADER), _StandIn):
        del sys.modules[LOADER]
    return importlib.import_module(LOADER)


@contextlib.contextmanager
def fresh_command() -> Iterator[None]:
    """Around a command a fresh process runs often (validate, hook, plan check).

    pydantic's plugin lookup is answered from the entry-point cache
    (:mod:`forge.plugin_host.pydantic_lookup`), and every lookup of the command shares
    one reading of that cache (:func:`forge.plugin_host.entry_points.one_reading`).
    """
    answer_plugin_lookup_from_cache()
    with one_reading():
        yield
