"""How results are shown, the same from every front end.

- :mod:`~forge.reporting.terminal`: text for a terminal: colours when they are
  on, control characters escaped so a finding stays on its line, tables,
  durations.
- :mod:`~forge.reporting.text`: a validate report as lines per check, a plan run
  as a table, a finding as ``path:line:column: message`` (the CLI's text output
  and the hook's block reasons alike).
- :mod:`~forge.reporting.formats`: JSON, JUnit XML and SARIF 2.1.0 from
  :class:`~forge.validate.outcome.ModuleRun` records.
- :mod:`~forge.reporting.merged`: per-job reports read back and combined
  (``forge report merge``).
"""
