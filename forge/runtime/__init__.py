"""Machinery every layer above may use and none owns: stopping work, supervising processes.

- :mod:`forge.runtime.cancellation`: a call's work stopped from outside its thread
  (an MCP cancel, a closed stdin, Ctrl-C handed to another thread).
- :mod:`forge.runtime.processes`: a shell command run in its own process group,
  its output's tail kept, killed whole on timeout or cancellation.

Nothing here knows about checks, plans or test runners: it imports only
:mod:`forge.errors`.
"""
