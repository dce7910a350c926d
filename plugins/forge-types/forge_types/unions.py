"""A diagnostic on one side of a union (None of an Optional), or on every side of it."""

from __future__ import annotations

import re

_UNION_MEMBER = re.compile(r"Object of (?:class `NoneType`|type `([^`\n]*\|[^`\n]*)`) has no attr")
#: A line of pyrefly's detail under a union: one member of it lacks the attribute.
_MEMBER_LACKS = re.compile(r"(?:Object of class|Class) `")


def lacking_on_one_side(message: str) -> bool:
    """Whether pyrefly's missing-attribute is on ``None`` or on some, not all, of a union.

    Under ``Object of type `A | B` has no attribute``, pyrefly lists each member
    lacking it: when every member does, no narrowing makes the code run.
    """
    found = _UNION_MEMBER.match(message)
    if found is None:
        return False
    if found.group(1) is None:
        return True  # Object of class `NoneType`: an Optional's None
    members = _top_level_members(found.group(1))
    if len(members) == 1 and members[0].startswith("type[") and members[0].endswith("]"):
        members = _top_level_members(members[0][5:-1])  # type[A | B]: a class of either
    return len(_MEMBER_LACKS.findall(message)) < len(members)


def _top_level_members(union: str) -> list[str]:
    """``A | B[C | D]`` -> ``["A", "B[C | D]"]``: split on ``|`` outside brackets."""
    members: list[str] = []
    depth = start = 0
    for at, char in enumerate(union):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == "|" and depth == 0:
            members.append(union[start:at])
            start = at + 1
    return [*members, union[start:]]


#: A type mypy quotes that may be None: ``"None"``, ``"str | None"``, ``"None | int"``.
_MAY_BE_NONE = re.compile(r'"(?:[^"]*\| )?None(?: \|[^"]*)?"')


def optional_operand(message: str) -> bool:
    """Whether mypy's ``operator`` is about an operand that may be None (not narrowed).

    ``Unsupported operand types for + ("None" and "int")``, ``Unsupported right
    operand type for in ("str | None")``: narrowed at run time, the code runs.
    ``1 + "a"`` or a call of an ``int`` fails whatever runs first.
    """
    return not message.endswith("not callable") and bool(_MAY_BE_NONE.search(message))
