"""What a verify command's test run proved: the counts its runner printed, and tests switched off.

- :mod:`~forge.test_runs.command_run`: the one way a verify command runs
  (supervised by :mod:`forge.runtime.processes`, its summaries read as it
  streams, its result worded).
- :mod:`~forge.test_runs.summary`: :class:`SummaryScanner` reads test-runner
  summaries (pytest, unittest, node:test, jest, vitest, mocha, go test, cargo
  test) from a command's output as it streams.
- :mod:`~forge.test_runs.counts`: what those counts mean, in words
  (:func:`describe`), and whether they let the command pass (:func:`judge`: a
  run that ran no test does not).
- :mod:`~forge.test_runs.runners`: which runners a command line starts, so a
  run that ended before its summary is no pass (:func:`unfinished`).
- :mod:`~forge.test_runs.switched_off`: tests a change newly skips, focuses away
  or empties, the old text of a file against the new.
- the spec tests: :mod:`~forge.test_runs.spec_scope` (which tests a module's
  verify commands run at the base), :mod:`~forge.test_runs.spec_diff`
  (:func:`judge_spec`: what the change did to them), with the Python
  (:mod:`~forge.test_runs.spec_python`, :mod:`~forge.test_runs.spec_python_diff`),
  JavaScript (:mod:`~forge.test_runs.spec_js`, :mod:`~forge.test_runs.spec_js_mocks`)
  and runner-configuration (:mod:`~forge.test_runs.spec_config`) readers.

The package imports none of its modules: the edit hook asks one light question
(:func:`~forge.test_runs.spec_config.may_change_spec`) of an edited file, and must not
pay for the rest.
"""
