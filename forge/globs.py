"""File globs of a plan (``mayChange``, ``disallowed_changes``) and of ``[tool.forge] generated``.

The syntax is the one ``.gitignore`` taught everyone, on paths relative to the
project root: ``*`` and ``?`` stay within a folder, ``**`` crosses folders
(``tests/**``, ``**/fixtures/*.json``), ``[abc]`` and ``[a-z]`` are classes
(``[!abc]``, ``[^abc]`` negated; one ``[`` left unclosed matches nothing, as in
git), a glob that ends in ``/`` names a folder and everything under it, and a
glob without a ``/`` (``*.lock``, ``CHANGELOG.md``) matches a file of that
name in any folder. Any text is a glob: none raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

#: What a glob git would match nothing with compiles to.
_NOTHING = re.compile(r"(?!)")


@lru_cache(maxsize=1024)
def glob_pattern(glob: str) -> re.Pattern[str]:
    """The compiled regular expression a path must match, whole, for ``glob`` to match it."""
    text = glob.strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    anchored = "/" in text.rstrip("/")
    if text.endswith("/"):
        text += "**"
    text = text.lstrip("/")
    out = [] if anchored else ["(?:.*/)?"]
    index = 0
    while index < len(text):
        char = text[index]
        if text.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        if text.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            found = _char_class(text, index)
            if found is None:
                return _NOTHING  # git matches nothing with an unclosed "["
            part, index = found
            out.append(part)
            continue
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out))


def _char_class(text: str, start: int) -> tuple[str, int] | None:
    """The class opening at ``text[start]`` (``[``) as git reads it, and the index after it.

    ``!`` or ``^`` first negates; a ``]`` first (after it) is a member; ``a-z``
    is a range, and a reversed one (``z-a``) matches its first character, as
    git's wildmatch does. ``None`` when no ``]`` closes the class.
    """
    index = start + 1
    negate = index < len(text) and text[index] in "!^"
    index += negate
    members: list[str] = []
    first = True
    while index < len(text) and (first or text[index] != "]"):
        low = text[index]
        if text.startswith("-", index + 1) and index + 2 < len(text) and text[index + 2] != "]":
            high = text[index + 2]
            members.append(f"{re.escape(low)}-{re.escape(high)}" if low <= high else re.escape(low))
            index += 3
        else:
            members.append(re.escape(low))
            index += 1
        first = False
    if index >= len(text):
        return None
    # A negated class never matches the folder separator, as * and ? do not.
    return f"[{'^/' if negate else ''}{''.join(members)}]", index + 1


def matches(path: str, globs: Iterable[str]) -> str | None:
    """The first of ``globs`` that matches ``path`` (a relative POSIX path), or None."""
    for glob in globs:
        if glob.strip() and glob_pattern(glob).fullmatch(path):
            return glob
    return None
