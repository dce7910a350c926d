"""forge's pluggy manager: pluggy's own, with a quicker pass over a plugin module's names."""

from __future__ import annotations

from types import FunctionType, MethodType, ModuleType

import pluggy


class ModulePluginManager(pluggy.PluginManager):
    """pluggy's manager, quicker to register a plugin module that imports many names.

    pluggy looks at every name of a plugin with :func:`inspect.getattr_static`
    (2-3 ms for forge's built-ins, whose modules import at their top). A name
    of a module that holds no function, or a function without forge's
    ``hookimpl`` marker, can be no hook implementation, so it is passed over
    here; anything else goes to pluggy's own lookup, which decides.
    """

    def parse_hookimpl_opts(self, plugin: object, name: str) -> pluggy.HookimplOpts | None:
        """pluggy's answer, or None at once for a module's name that cannot be a hook."""
        if isinstance(plugin, ModuleType):
            value = plugin.__dict__.get(name)
            if not isinstance(value, FunctionType | MethodType):
                return None
            if (
                isinstance(value, FunctionType)
                and f"{self.project_name}_impl" not in value.__dict__
            ):
                return None
        return super().parse_hookimpl_opts(plugin, name)
