"""Shell commands (Claude Code's ``Bash``, Codex's ``shell``): the files they changed.

``PreToolUse`` of a shell command keeps the working tree's state;
``PostToolUse`` asks what changed since (:mod:`forge.git.shell_edits`), and
:mod:`forge.hook.edit` judges those files as it judges a Write. Without a
``PreToolUse`` hook, the state kept after the session's previous shell command
(or at ``SessionStart``) is the one compared with.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forge.hook.target import Where

#: Tools that run a shell command: Claude Code's, and Codex's names for its shell.
SHELL_TOOLS = frozenset({"Bash", "shell", "local_shell", "exec_command"})


def _where(here: Where, event: dict[str, Any]) -> tuple[Path, Path, str, str | None] | None:
    """(project root, cwd, session, tool call) of a forge project's event; None outside one."""
    if here.root is None:
        return None
    session = event.get("session_id")
    call = event.get("tool_use_id")
    return (
        here.root,
        here.cwd,
        session if isinstance(session, str) else "",
        call if isinstance(call, str) and call else None,
    )


def before_shell(event: dict[str, Any]) -> None:
    """Keep the working tree's state before a shell command (or as a session starts)."""
    if event.get("hook_event_name") != "SessionStart" and event.get("tool_name") not in SHELL_TOOLS:
        return
    from forge.hook.target import locate

    where = _where(locate(event), event)
    if where is not None:
        from forge.git.shell_edits import remember

        remember(*where)


def shell_changes(here: Where, event: dict[str, Any]) -> list[str]:
    """The files the shell command of a ``PostToolUse`` event (at ``here``) changed."""
    where = _where(here, event)
    if where is None:
        return []
    from forge.git.shell_edits import changed_files

    return [str(path) for path in changed_files(*where)]
