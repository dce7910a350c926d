"""Parallel delivery: each worker in its lane, merges checked before they happen, CI as the engine.

- :mod:`~forge.parallel.sources`: where each module's work is (an argument, the
  plan's ``branch``, the run's session ``worktrees``, ``git worktree list``, a
  branch named after it).
- :mod:`~forge.parallel.merge_preview`: the modules' branches merged in
  dependency order in git's object store (``forge merge check``, the
  ``merge_check`` tool); :mod:`~forge.parallel.integration` runs the file
  checks on the merged tree and names what no single branch breaks.
- :mod:`~forge.parallel.matrix`: a plan's layers as CI matrices (their reports
  are combined by :mod:`forge.reporting.merged`).

Lanes (what a module may change) are the plan's: :mod:`forge.plan.lanes`.
"""
