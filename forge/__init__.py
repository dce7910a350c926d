"""forge: plugin-based validation for multi-agent code delivery.

Plugins write ``from forge import hookimpl`` and decorate their hook
implementations with it; everything else a plugin may use is in
:mod:`forge.models` (the data it receives and returns) and
:mod:`forge.workspace` (the shared working dir and parse cache).

Every ``forge`` process imports this package before it knows whether a warm
daemon will run its command (docs/architecture.md, "Start-up"), so it imports
nothing: the marker is made from pluggy by the first plugin that asks for it.
"""

from __future__ import annotations

# The one place forge spells this flag itself rather than import ``typing`` (a tenth of
# a daemon-handed command's time): type checkers honour it by its name, and a stub file
# beside this one was not read when a checker was handed this file by path.
TYPE_CHECKING = False

if TYPE_CHECKING:
    import pluggy

    #: Marker for hook implementations, in forge itself and in third-party plugins.
    hookimpl: pluggy.HookimplMarker

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    if name == "hookimpl":
        import pluggy  # deferred: every forge process imports this package, few load a plugin

        marker = pluggy.HookimplMarker("forge")
        globals()["hookimpl"] = marker
        return marker
    raise AttributeError(f"module 'forge' has no attribute {name!r}")


__all__ = ["__version__", "hookimpl"]
