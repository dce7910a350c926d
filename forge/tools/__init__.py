"""The seven MCP tools: declared once, served over stdio, reused by the CLI.

- :mod:`~forge.tools.requests`: one request model per tool (the single source of
  its input schema); :mod:`~forge.tools.results`: the results that are not
  already models elsewhere; :mod:`~forge.tools.descriptions`: each tool's prose.
- :mod:`~forge.tools.service`: :class:`~forge.tools.service.ToolService`, a
  method per tool, and the per-call bookkeeping both adapters share
  (:mod:`~forge.tools.bookkeeping`: what a call changed).
- :mod:`~forge.tools.calls`: one call run from raw arguments to a result or a
  one-line error, with its context across threads.
- :mod:`~forge.tools.mcp_server`: the MCP adapter, the only module that imports
  ``mcp``; :mod:`~forge.tools.jsonrpc`: what it answers to lines the SDK cannot
  read. :mod:`~forge.tools.reference` writes docs/mcp-tools.md from all of it.
"""
