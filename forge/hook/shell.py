"""Shell commands (Claude Code's ``Bash``, Codex's ``shell``): the files they changed.

``PreToolUse`` of a shell command keeps the working tree's state;
``PostToolUse`` asks what changed since (:mod:`forge.git.shell_edits`), and
:mod:`forge.hook.edit` judges those files as it judges a Write. Without a
``PreToolUse`` hook, the state kept after the session's previous shell command
(or at ``SessionStart``) is the one compared with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: Tools that run a shell command: Claude Code's, and Codex's names for its shell.
SHELL_TOOLS = frozenset({"Bash", "shell", "local_shell", "exec_command"})


def _where(event: dict[str, Any]) -> tuple[Path, Path, str, str | None] | None:
    """(project root, cwd, session, tool call) of a forge project's event; None outside one."""
    from forge.hook.target import event_cwd, find_project_root

    cwd = event_cwd(event)
    root = find_project_root(cwd)
    if root is None:
        return None
    session = event.get("session_id")
    call = event.get("tool_use_id")
    return (
        root,
        cwd,
        session if isinstance(session, str) else "",
        call if isinstance(call, str) and call else None,
    )


def before_shell(event: dict[str, Any]) -> None:
    """Keep the working tree's state before a shell command (or as a session starts)."""
    if event.get("hook_event_name") != "SessionStart" and event.get("tool_name") not in SHELL_TOOLS:
        return
    where = _where(event)
    if where is not None:
        from forge.git.shell_edits import remember

        remember(*where)


def shell_changes(event: dict[str, Any]) -> list[str]:
    """The files the shell command of a ``PostToolUse`` event changed; ``[]`` for other tools."""
    if event.get("tool_name") not in SHELL_TOOLS:
        return []
    where = _where(event)
    if where is None:
        return []
    from forge.git.shell_edits import changed_files

    return [str(path) for path in changed_files(*where)]
