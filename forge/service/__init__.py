"""The engine's service: one entry per job, the same for every front end.

- :mod:`~forge.service.tools`: :class:`~forge.service.tools.ToolService`, one
  project's long-lived service: a method per tool (the reference's seven and
  forge's ``merge_check``) and the per-call bookkeeping every front end shares
  (the ``tool_call`` event, error events, ``status.json``).
- :mod:`~forge.service.arguments`: one pydantic model per tool's arguments, the
  single source of its MCP input schema and of the CLI's limits;
  :mod:`~forge.service.replies`: the results that are not models elsewhere.
- :mod:`~forge.service.bookkeeping`: what a call changed (its run, its module,
  its progress).
- :mod:`~forge.service.plan_run`: a plan's modules validated, one or all of them
  in dependency order (``forge validate --plan``, the ``Stop`` hook).

The MCP adapter (:mod:`forge.tools`), the CLI and the hook call these; none of
them holds validation logic of its own.
"""
