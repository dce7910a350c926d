"""The MCP adapter: the tools (the reference's seven and ``merge_check``) served over stdio.

- :mod:`~forge.tools.descriptions`: each tool's prose.
- :mod:`~forge.tools.calls`: one call run from raw arguments to a result or a
  one-line error, with its context across threads.
- :mod:`~forge.tools.mcp_server`: the MCP adapter, the only module that imports
  ``mcp``; :mod:`~forge.tools.jsonrpc`: what it answers to lines the SDK cannot
  read. :mod:`~forge.tools.reference` writes docs/mcp-tools.md from all of it.

The tools themselves, their argument models and their bookkeeping are the
engine's service (:mod:`forge.service`), which the CLI and the hook call too.
"""
