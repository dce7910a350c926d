"""The one reader of a simple command's words: the command a launcher starts, and its runner.

Both questions forge asks of a verify command line go through here:
:mod:`forge.test_runs.runners` (must this run print a summary? which words
collect with pytest?) and :mod:`forge.test_runs.spec_scope` (which test files
does it run at the base?), so a launcher or runner learned once is learned by both.

- :func:`pipelines`: the line split as the shell would (``&&``, ``||``, ``;``,
  ``&``, pipes, subshell parentheses), each pipeline's commands, what ends it
  and whether its output is redirected.
- :func:`unwrapped`: the words without ``VAR=x`` prefixes and launchers
  (``env``, ``npx``, ``timeout 60``, ``uv run``, ``pnpm exec``, ``coverage run
  -m``...), their own options skipped.
- :func:`runner_of`: the test runner those words start, by the name
  :class:`~forge.test_runs.summary.SummaryScanner` knows it by (``pytest``,
  ``unittest``, ``jest``, ``vitest``, ``mocha``, ``node``, ``go``, ``cargo``),
  and its arguments as written.
- :func:`script_called`: the ``package.json`` script ``npm test``, ``npm run
  NAME -- args`` (yarn, pnpm, bun) runs, and the arguments passed on to it.
"""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

#: Launchers whose next word is the command they run (their options skipped).
LAUNCHERS = frozenset(
    {"env", "nice", "nohup", "time", "npx", "bunx", "exec", "command", "xvfb-run"}
)
#: Launchers that take one argument before the command (``timeout 60 pytest``).
WITH_ARGUMENT = frozenset({"timeout"})
#: ``X run CMD``: the word after ``run`` is the command.
RUN_LAUNCHERS = frozenset({"uv", "poetry", "pipenv", "pdm", "rye", "hatch"})
#: ``X exec CMD`` (and ``dlx``): a package manager running a package's binary.
EXEC_LAUNCHERS = frozenset({"npm", "pnpm", "yarn"})
#: Package managers whose ``test`` / ``run NAME`` runs a ``package.json`` script.
PACKAGE_MANAGERS = frozenset({"npm", "yarn", "pnpm", "bun"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)?)?$")


class Pipeline(NamedTuple):
    """One pipeline of a command line: its commands' words, what ends it, its redirection."""

    commands: list[list[str]]
    #: ``&&``, ``||``, ``;``, ``&`` (in the background), or a parenthesis.
    operator: str
    #: Its output goes to a file (``> log``; ``2>&1`` alone redirects nothing away).
    redirected: bool


_PUNCTUATION = ";&|>()"


def pipelines(command: str) -> list[Pipeline] | None:
    """The pipelines of ``command`` in order; None when the shell would not read it."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=_PUNCTUATION)
        lexer.whitespace_split = True
        tokens = [*lexer, ";"]
    except ValueError:
        return None
    found: list[Pipeline] = []
    current: list[list[str]] = [[]]
    redirected = False
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if not set(token) <= set(_PUNCTUATION):
            current[-1].append(token)
        elif token in {"|", "|&"}:
            current.append([])
        elif ">" not in token:
            found.append(Pipeline(current, token, redirected))
            current, redirected = [[]], False
        elif token == ">&" and current[-1][-1:] == ["2"] and tokens[index : index + 1] == ["1"]:
            current[-1].pop()  # ``2>&1``: stderr joins stdout, nothing is hidden
            index += 1
        else:
            redirected = True
            if index < len(tokens) and not set(tokens[index]) <= set(_PUNCTUATION):
                index += 1  # the file written to, no word of the command
    return found


def program(word: str) -> str:
    """A command word's program name (``.venv/bin/pytest`` is ``pytest``)."""
    return word.rsplit("/", 1)[-1]


def is_assignment(word: str) -> bool:
    """Whether ``word`` is a ``VAR=value`` prefix of a simple command."""
    return _ASSIGNMENT.match(word) is not None


def unwrapped(words: list[str]) -> list[str]:
    """``words`` without ``VAR=x`` prefixes and launchers: the command they start."""
    index = 0
    while index < len(words):
        word = words[index]
        name = program(word)
        following = words[index + 1] if index + 1 < len(words) else ""
        if is_assignment(word):
            index += 1
            continue
        if name in LAUNCHERS:
            index += 1
        elif name in WITH_ARGUMENT:
            index += 1
            while index < len(words) and words[index].startswith("-"):
                index += 1
            index += 1  # the duration
        elif (name in RUN_LAUNCHERS and following == "run") or (
            name in EXEC_LAUNCHERS and following in {"exec", "dlx"}
        ):
            index += 2
        elif name == "coverage" and following == "run" and words[index + 2 : index + 3] == ["-m"]:
            return ["python", *words[index + 2 :]]
        else:
            break
        while index < len(words) and words[index].startswith("-"):
            index += 1  # the launcher's own options
    return words[index:]


def runner_of(words: list[str]) -> tuple[str | None, list[str]]:
    """The runner unwrapped ``words`` start (None: no test runner) and its arguments."""
    if not words:
        return None, []
    name, rest = program(words[0]), words[1:]
    if _PYTHON.match(name) and rest[:1] == ["-m"] and rest[1:2] in (["pytest"], ["py.test"]):
        return "pytest", rest[2:]
    if _PYTHON.match(name) and rest[:2] == ["-m", "unittest"]:
        return "unittest", rest[2:]
    if name in {"pytest", "py.test"}:
        return "pytest", rest
    if name in {"jest", "vitest", "mocha", "_mocha"}:
        return name.lstrip("_"), rest
    if name == "node" and "--test" in rest:
        return "node", rest
    if name in {"go", "cargo"} and rest[:1] == ["test"]:
        return name, rest[1:]
    return None, rest


class ScriptCall(NamedTuple):
    """A package manager's call of a ``package.json`` script: its name, what follows ``--``."""

    name: str
    extra: list[str]
    #: ``yarn NAME`` / ``pnpm NAME``: a package's binary when there is no such script.
    may_be_bin: bool


def script_called(words: list[str]) -> ScriptCall | None:
    """The script unwrapped ``words`` run (``npm test``, ``npm run x -- a``), else None.

    ``bun test`` is bun's own runner, not a script: None.
    """
    manager, rest = program(words[0]) if words else "", words[1:]
    if manager not in PACKAGE_MANAGERS:
        return None
    before = rest[: rest.index("--")] if "--" in rest else rest
    extra = rest[rest.index("--") + 1 :] if "--" in rest else []
    options = [word for word in before if word.startswith("-")]
    positional = [word for word in before if not word.startswith("-")]
    if positional[:1] in (["test"], ["t"], ["tst"]):
        if manager == "bun":
            return None
        return ScriptCall("test", extra, may_be_bin=False)
    if positional[:1] in (["run"], ["run-script"]) and len(positional) > 1:
        return ScriptCall(positional[1], extra, may_be_bin=False)
    if manager in {"yarn", "pnpm", "bun"} and len(positional) == 1 and not options:
        return ScriptCall(positional[0], extra, may_be_bin=manager != "bun")
    return None
