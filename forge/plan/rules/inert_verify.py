"""``inert_verify`` (warning): a verify command that cannot fail.

A verify command is the module's evidence; one that exits 0 whatever the work
is proves nothing, even beside others that do (``unbacked_done_when`` warns
only when every command is like that). Flagged: a command that only succeeds
or prints (``true``, ``:``, ``exit 0``, ``echo done``, ``python -c pass``,
``python -c "print('ok')"``), and one whose status is that of such a command
run last whatever came before (``pytest || true``, ``npm test; echo done``).
The line is read with :mod:`shlex`, never run; a line forge cannot read is
never flagged.
"""

from __future__ import annotations

import functools
import re
import shlex

from forge import hookimpl
from forge.errors import clip
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.model import Plan
from forge.plan.rules import modules_label

#: Python code that runs and exits 0 whatever the project holds.
_INERT_PYTHON = re.compile(
    r"\s*(?:(?:pass|\.\.\.|None|True|False|\d+|print\([^()]*\))\s*(?:;\s*|$))*\s*"
)
#: Operators after which the next command's status is the line's, whatever came before.
_WHATEVER_BEFORE = (";", "||", "|", "\n")
_OPERATORS = frozenset({";", "||", "|", "&&", "&", "\n", ";;", "|&"})
#: Longest command read: an inert one is short, and :mod:`shlex` builds each token a
#: character at a time (a 10 MB path took it minutes).
MAX_COMMAND_CHARS = 4096
#: Where a simple command that could be inert starts: a line holding none of these is
#: never read with :mod:`shlex` (a 1,000-module plan's commands took 60 ms to tokenize).
_MAYBE_INERT = re.compile(
    r"(?:^|[;&|\n])\s*['\"]?(?::|(?:true|echo|printf|exit|python[0-9.]*|py)\b)"
)


def _inert(words: list[str]) -> str | None:
    """What a simple command does when it can only succeed (``echo``), else None."""
    if not words:
        return None
    first = words[0]
    if first in ("true", ":"):
        return f"'{first}' always succeeds"
    if first in ("echo", "printf"):
        return f"'{first}' only prints"
    if first == "exit" and words[1:] == ["0"]:
        return "'exit 0' always succeeds"
    python = re.fullmatch(r"python[0-9.]*|py", first) and len(words) == 3 and words[1] == "-c"
    if python and _INERT_PYTHON.fullmatch(words[2]):
        return f"'python -c {words[2]}' tests nothing"
    return None


@functools.lru_cache(maxsize=4096)
def cannot_fail(command: str) -> str | None:
    """Why ``command`` exits 0 whatever the work is, or None when it can fail (or is unreadable,
    or too long to be read)."""
    if len(command) > MAX_COMMAND_CHARS or not _MAYBE_INERT.search(command):
        return None
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
        lexer.whitespace = " \t\r"  # newlines separate commands
        tokens = list(lexer)
    except ValueError:
        return None
    parts: list[list[str]] = [[]]
    operators: list[str] = []
    for token in tokens:
        if token in _OPERATORS:
            operators.append(token)
            parts.append([])
        else:
            parts[-1].append(token)
    while parts and not parts[-1]:  # a trailing ';' or newline
        parts.pop()
        if operators:
            operators.pop()
    if not parts:
        return None
    if len(parts) == 1 and (only := _inert(parts[0])):
        return only
    if all(_inert(part) for part in parts):
        return "every command in it only succeeds or prints"
    last = _inert(parts[-1])
    if last and operators and operators[-1] in _WHATEVER_BEFORE:
        return f"it ends in '{operators[-1].strip() or ';'} {' '.join(parts[-1])}': {last}"
    return None


@hookimpl
def forge_check_plan(plan: Plan) -> list[PlanFinding]:
    """One warning per verify command that cannot fail, naming every module that runs it.

    One per command, not per module: a plan whose 1,000 modules all end in
    ``true`` gets one warning listing them, which a reader (and a client
    checking the result against its schema) takes in once.
    """
    runners: dict[tuple[str, str], dict[str, None]] = {}
    for module in plan.modules:
        for command in module.verify:
            why = cannot_fail(command)
            if why is not None:
                runners.setdefault((command, why), {})[module.id] = None
    return [
        PlanFinding(
            type="inert_verify",
            severity="warning",
            message=f'{modules_label(list(ids))}: verify command "{clip(command, 80)}" '
            f"cannot fail ({why}), so it proves nothing about the work; run a test or a "
            "check that fails when the work is wrong",
            modules=list(ids),
            field="verify",
        )
        for (command, why), ids in runners.items()
    ]


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``inert_verify``."""
    return [
        PlanRuleDescriptor(
            id="inert_verify",
            summary="Every verify command can fail: none only succeeds or prints.",
            order=91,
        )
    ]
