"""The errors forge reports to people and agents: one line, saying what to fix."""

from __future__ import annotations

from collections.abc import Iterable


class ForgeError(Exception):
    """An error whose message is fit to show as is: one line, what was wrong and how to fix it."""


class UsageError(ForgeError):
    """The caller asked for something that cannot be done as asked (bad argument, bad id)."""


class ConfigError(ForgeError):
    """The project's ``[tool.forge]`` configuration cannot be used."""


class CorruptFileError(ForgeError):
    """A state file could not be parsed; it has been moved aside (never deleted)."""


class StateError(ForgeError):
    """forge's state or configuration cannot be used as it is on disk.

    A symlink or a FIFO where forge keeps state, a file over its size limit, a
    lock another process holds too long, a full disk or a folder forge may not
    write: the message names the path and what to do about it.
    """


#: Longest key of a location or unknown name shown: keys come from the caller's JSON
#: (an object key can be 10 MB long, or hold a line break).
KEY_CHARS = 40


def clip(text: str, limit: int) -> str:
    """``text``, or its first ``limit - 3`` characters and ``...`` when it is longer.

    For anything shown that may quote the caller's input, which can be megabytes.
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


def did_you_mean(candidates: Iterable[str]) -> str:
    """`` (did you mean 'a' or 'b'?)`` for up to three candidates; empty for none."""
    shown = [f"'{candidate}'" for candidate in dict.fromkeys(candidates)][:3]
    if not shown:
        return ""
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" or {shown[-1]}"
    return f" (did you mean {listed}?)"


def close_names(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """Candidates spelled like ``name`` (case-insensitive first, then ``difflib``)."""
    import difflib  # deferred: only a misspelled name is compared, and forge.errors loads first

    pool = sorted(set(candidates) - {name})
    folded = [c for c in pool if c.lower() == name.lower()]
    close = difflib.get_close_matches(name, pool, n=n, cutoff=0.6)
    if close:  # only those about as close as the closest: '_decoderz', not '_models' too
        best = difflib.SequenceMatcher(None, name, close[0]).ratio()
        close = [c for c in close if difflib.SequenceMatcher(None, name, c).ratio() > best - 0.1]
    return list(dict.fromkeys(folded + close))[:n]


def unknown_name(name: str, known: Iterable[str], *, kind: str = "argument") -> str:
    """``'file' is not an argument (did you mean 'files'?)``, or the names there are.

    For every name a caller can misspell: a tool's argument, a field of one, a
    plugin in ``pluginOptions``. ``name`` is clipped: it is the caller's input.
    """
    known = sorted(set(known))
    shown = repr(clip(name, KEY_CHARS))
    near = did_you_mean(close_names(name, known, n=2))
    if near:
        return f"{shown} is not {_article(kind)} {kind}{near}"
    listed = clip(", ".join(known), 300) if known else "none"
    return f"{shown} is not {_article(kind)} {kind}; the {kind}s are: {listed}"


def _article(noun: str) -> str:
    return "an" if noun[:1] in "aeiou" else "a"
