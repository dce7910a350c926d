"""What ``.forge/`` holds beside the validate pipeline: the event log, sessions, live status,
the hook's memory between stops.

- :mod:`~forge.state.event_log`: the event log of each run (``.forge/logs/<runId>.jsonl``),
  appended by every tool call and read by the ``forge_logs`` tool and ``forge logs``.
- :mod:`~forge.state.sessions`: session snapshots (``.forge/state/<runId>.json``),
  the ``session_state`` tool's data.
- :mod:`~forge.state.status_file` and :mod:`~forge.state.status_lines`:
  ``.forge/status.json``, the live progress of a run, patched after each call.
- :mod:`~forge.state.stop_blocks`: ``.forge/hook/[<runId>/]<moduleId>.json``, what
  ``forge hook`` remembers of a module's last blocked stop.

Every read and write goes through :mod:`forge.store`.
"""
