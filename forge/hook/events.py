"""One hook event in, one decision out: reading the event and dispatching it by name."""

from __future__ import annotations

import json
from typing import Any

from forge.hook.target import HookError

STOP_EVENTS = frozenset({"Stop", "SubagentStop"})


SESSION_START = "SessionStart"


#: Largest event read from stdin (a Write event carries the whole file).
MAX_EVENT_BYTES = 64 * 1024 * 1024


def read_event(stream: Any) -> dict[str, Any]:
    """The hook event on ``stream``: a JSON object; :class:`HookError` otherwise."""
    data = stream.read(MAX_EVENT_BYTES + 1)
    if len(data) > MAX_EVENT_BYTES:
        raise HookError(f"the event is larger than {MAX_EVENT_BYTES // (1024 * 1024)} MiB")
    try:
        event = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise HookError(f"stdin is not a JSON hook event ({type(exc).__name__})") from None
    if not isinstance(event, dict):
        raise HookError("stdin is not a JSON object (expected one hook event)")
    return event


def decide(event: dict[str, Any]) -> dict[str, str] | None:
    """The decision for one event: a block, an allow with a message, or ``None`` (allow)."""
    name = event.get("hook_event_name")
    if name == "PostToolUse":
        from forge.hook.edit import after_edit

        return after_edit(event)
    if name in STOP_EVENTS:
        from forge.hook.stop import on_stop

        return on_stop(event)
    if name == "PreToolUse" or name == SESSION_START:
        from forge.hook.shell import before_shell

        before_shell(event)
    if name == SESSION_START:
        from forge.daemon.server import start_unless_running

        start_unless_running()
    return None
