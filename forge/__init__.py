"""forge: plugin-based validation for multi-agent code delivery.

Plugins write ``from forge import hookimpl`` and decorate their hook
implementations with it; everything else a plugin may use is in
:mod:`forge.models` (the data it receives and returns) and
:mod:`forge.workspace` (the shared working dir and parse cache).
"""

from __future__ import annotations

import pluggy

__version__ = "0.1.0"

#: Marker for hook implementations, in forge itself and in third-party plugins.
hookimpl = pluggy.HookimplMarker("forge")

__all__ = ["__version__", "hookimpl"]
