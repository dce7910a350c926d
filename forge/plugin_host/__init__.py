"""Loading plugins and calling their hooks: the one road every plugin travels, built-in or not.

- :mod:`~forge.plugin_host.host`: :func:`build_plugin_host` makes a fresh
  pluggy manager, loads the ``forge`` entry points one by one (a broken plugin
  becomes a :class:`PluginProblem`, never a crash), and :class:`PluginHost`'s
  ``call`` is the one way to call a hook: each implementation on its own,
  results checked against the spec's model and attributed, traced with
  ``FORGE_TRACE_PLUGINS=1``.
- :mod:`~forge.plugin_host.manager`: pluggy's manager, which passes over the
  names of a plugin module that hold no hook implementation without pluggy's
  slower lookup.
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

Import each name from the module that defines it (``from forge.plugin_host.host import build_plugin_host``): the package itself imports nothing.
"""
