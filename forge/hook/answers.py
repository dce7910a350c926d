"""What ``forge hook`` answers: a block whose reason the model reads, or an allow with a message."""

from __future__ import annotations

from forge.hook.target import HookError

#: Finding lines in a block reason: enough to act on, short enough to read.
MAX_FINDINGS = 6


#: Longest reason given to the model.
MAX_REASON = 2_000


def block(
    heading: str, lines: list[str], *, limit: int | None = None, notes: list[str] | None = None
) -> dict[str, str]:
    """``{"decision": "block", "reason": ...}``: the reason is what the model reads next.

    ``lines`` are the findings (the first ``limit`` of them shown); ``notes``, what
    was not judged, follow them.
    """
    shown = lines if limit is None else lines[:limit]
    more = len(lines) - len(shown)
    tail = [f"... and {more} more"] if more > 0 else []
    text = "\n".join([heading, *shown, *tail, *(notes or [])])
    return {"decision": "block", "reason": clip_reason(text)}


def allow(message: str) -> dict[str, str]:
    """Allow, with a message for the person (Claude Code shows ``systemMessage``)."""
    return {"systemMessage": clip_reason(message)}


def clip_reason(text: str) -> str:
    from forge.errors import clip

    return clip(text, MAX_REASON)


def one_line(exc: Exception) -> str:
    """What went wrong, on one line: forge's own messages as they are, others with their type."""
    from forge.errors import ForgeError, clip

    if isinstance(exc, HookError | ForgeError):
        return clip(" ".join(str(exc).split()), 300)
    from forge.plugin_host.records import describe_exception

    return describe_exception(exc)
