"""The hook: enforcement for coding agents (``forge hook``). One hook event in, one decision out.

Claude Code (and Codex CLI, which shares the format) runs ``forge hook`` with
one event as JSON on stdin. The answer on stdout is nothing (allow) or
``{"decision": "block", "reason": ...}``; the exit code is always 0, and when
forge itself fails the event is allowed with one line on stderr: an agent is
never blocked because forge broke.

- ``PostToolUse`` of Write, Edit, MultiEdit, NotebookEdit (Claude Code) or
  apply_patch (Codex) on a file of a known language: syntax and contract
  checks on that file, and on the module's listed files that import it or
  that it imports. A finding blocks, with the findings as the reason.
- ``SessionStart``: start the forge daemon in the background (see
  :mod:`forge.daemon`) unless one runs or ``FORGE_DAEMON=0``, so the
  session's later hooks answer from a warm process. Prints nothing.
- ``Stop`` / ``SubagentStop``: validate the module this agent owns (found by
  :mod:`forge.hook.target`) with its verify commands; block while it fails
  and attempts remain. ESCALATE, or a repeated stop with nothing changed
  since the last block, allows, with the reason shown to the person.

This is an adapter: the checks, the verdict and the attempt history are the
engine's (``Engine.judge_edit`` for an edit, ``ToolService.validate`` through
:mod:`forge.service.plan_run` for a stop). Imports are taken per event, so an edit pays only for parsing.
Modules: :mod:`~forge.hook.events` (reading and dispatching),
:mod:`~forge.hook.edit`, :mod:`~forge.hook.stop`, :mod:`~forge.hook.target`
(which module a stop is about), :mod:`~forge.hook.answers`.
"""

from forge.hook.answers import one_line
from forge.hook.events import decide, read_event
from forge.hook.target import HookError

__all__ = ["HookError", "decide", "one_line", "read_event"]
