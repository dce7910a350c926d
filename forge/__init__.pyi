import pluggy

__version__: str
#: Marker for hook implementations, in forge itself and in third-party plugins.
hookimpl: pluggy.HookimplMarker

__all__ = ["__version__", "hookimpl"]
