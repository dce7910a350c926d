"""forge: plugin-based validation for multi-agent code delivery.

Plugins write ``from forge import hookimpl`` and decorate their hook
implementations with it; everything else a plugin may use is in
:mod:`forge.models` (the data it receives and returns) and
:mod:`forge.workspace` (the shared working dir and parse cache).
"""

from __future__ import annotations

# Not ``typing.TYPE_CHECKING``: importing typing costs every ``forge`` command
# handed to a daemon a tenth of its time, and type checkers read this the same.
TYPE_CHECKING = False

__version__ = "0.1.0"

if TYPE_CHECKING:
    from collections.abc import Callable

    import pluggy

    #: Marker for hook implementations, in forge itself and in third-party plugins.
    hookimpl: pluggy.HookimplMarker


def __getattr__(name: str) -> object:
    # pluggy is imported by the first plugin that asks for the marker, not by
    # every command: ``forge hook`` answers a clean edit without any plugin.
    if name == "hookimpl":
        import pluggy

        marker = pluggy.HookimplMarker("forge")
        globals()["hookimpl"] = marker
        return marker
    raise AttributeError(f"module 'forge' has no attribute {name!r}")


def lazy_exports(package: str, homes: dict[str, str]) -> Callable[[str], object]:
    """A package's ``__getattr__`` that imports each public name from its submodule on first use.

    For packages whose modules are costly or order-sensitive to import
    (:mod:`forge.models`, :mod:`forge.plugin_host`): ``homes`` maps each name to
    the submodule defining it; the name is kept in the package once loaded.
    """
    import importlib
    import sys

    def load(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)  # the next lookup is an ordinary one
        return value

    return load


__all__ = ["__version__", "hookimpl"]
