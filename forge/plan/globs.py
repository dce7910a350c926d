"""File globs of a plan (``mayChange``, ``disallowed_changes``) and of ``[tool.forge] generated``.

The syntax is the one ``.gitignore`` taught everyone, on paths relative to the
project root: ``*`` and ``?`` stay within a folder, ``**`` crosses folders
(``tests/**``, ``**/fixtures/*.json``), ``[abc]`` is a class, a glob that ends
in ``/`` names a folder and everything under it, and a glob without a ``/``
(``*.lock``, ``CHANGELOG.md``) matches a file of that name in any folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache


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
        elif char == "[" and (end := text.find("]", index + 2)) != -1:
            body = text[index + 1 : end]
            negate = body.startswith("!")
            body = re.escape(body[1:] if negate else body).replace("\\-", "-")
            out.append(f"[{'^' if negate else ''}{body}]")
            index = end + 1
            continue
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out))


def matches(path: str, globs: Iterable[str]) -> str | None:
    """The first of ``globs`` that matches ``path`` (a relative POSIX path), or None."""
    for glob in globs:
        if glob.strip() and glob_pattern(glob).fullmatch(path):
            return glob
    return None
