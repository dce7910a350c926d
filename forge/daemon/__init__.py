"""The forge daemon: a warm process that answers ``forge`` commands by forking itself.

A fresh ``forge`` process spends most of its time before any check runs:
importing pydantic, building models, loading grammars and plugins. ``forge
daemon start`` pays that once. Every later ``forge`` command of the same user
(same Python environment and ``PYTHON*`` variables, same ``FORGE_HOME``) connects to the daemon's Unix
socket and hands over its arguments, environment, working directory and its
stdin/stdout/stderr (as file descriptors); the daemon forks a child that runs
the command exactly as the process would have, writing straight to the
caller's terminal or pipes, and reports the exit code back. ``forge serve``
goes the same way: its child starts with the MCP server already built
(:func:`forge.daemon.warm.warm_up`) and serves the session on the caller's
stdio for as long as it lasts; the daemon is not idle while a child runs.

- :mod:`forge.daemon.address`: where the socket is (standard library only).
- :mod:`forge.daemon.client`: the caller's side, imported by every ``forge``
  command before anything else, so it uses the standard library only.
- :mod:`forge.daemon.server`: the daemon's parent (accept loop, fork, control).
- :mod:`forge.daemon.child`: a forked child serving one command.
- :mod:`forge.daemon.warm`: the warm-up, and when the daemon must start anew.
- :mod:`forge.daemon.peer`: who the daemon serves (same user, same
  namespaces, same confinement); anyone else runs forge in its own process.

Linux only; anywhere else, and whenever the daemon is absent, refuses or is
stale, the command runs in its own process as before, so the daemon changes
speed, never results.
"""
