"""Which test runners a verify command starts, read from its command line: never run.

A runner that exits 0 without its summary did not finish (a ``conftest.py``
calling ``os._exit(0)``, a ``process.exit(0)`` in a setup file): the exit
code proves nothing then. To say so, forge must know the runner was meant to
print one. :func:`expected_summaries` reads the command line and answers only
where it is sure (precision over recall): a plain list of simple commands
(``&&``, ``;``, a pipe into ``tee`` or ``cat``), each runner started directly
or through a known launcher (``python -m``, ``uv run``, ``npx``, ``env``,
``timeout``...), or through ``npm test`` / ``npm run NAME`` (and yarn, pnpm)
whose ``package.json`` script does so. Anything that may legitimately hide
the summary makes the runner not expected: an output redirection, a reporter
option or config (``--json``, ``--reporter``, mocha/jest/vitest configs naming
a reporter), pytest at ``-qq`` (its config's ``addopts`` and
``PYTEST_ADDOPTS`` counted) or with ``-p no:terminal``, an information option
(``--collect-only``, ``--version``), a runner after ``||`` (it may never
run), a line with subshells, ``if``, loops or ``$(...)``.

The names are the keys of :attr:`forge.test_runs.summary.SummaryScanner.seen`
(``pytest``, ``jest``, ``vitest``, ``mocha``, ``node``, ``go``, ``cargo``).
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
import sys
from collections import Counter
from pathlib import Path

from forge.test_runs.command_line import (
    EXEC_LAUNCHERS,
    PACKAGE_MANAGERS,
    RUN_LAUNCHERS,
    pipelines,
    program,
    runner_of,
    script_called,
    unwrapped,
)
from forge.test_runs.spec_config import package_script

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

#: Bytes read of a config file (package.json, pytest.ini...): configs are small.
MAX_CONFIG_BYTES = 256 * 1024
_NOT_SIMPLE = re.compile(r"[`(){}<]|\$\(|\b(?:if|for|while|until|case|function)\b")
#: Options after which the runner prints no summary by design.
_INFO_OPTIONS = {
    "pytest": ("--collect-only", "--co", "--version", "-V", "-h", "--help", "--fixtures",
               "--markers", "--setup-plan", "--setup-only", "--fixtures-per-test"),
    "jest": ("--json", "--listTests", "--showConfig", "--version", "--help", "--reporters",
             "--watch", "--watchAll", "--outputFile"),
    "vitest": ("--reporter", "--version", "--help", "--watch", "list", "--outputFile"),
    "mocha": ("--reporter", "-R", "--version", "--help", "--watch", "-w", "--list-reporters"),
    "node": ("--test-reporter", "--watch"),
    "go": ("-json", "--json", "-list", "-c", "-run=^$"),
    "cargo": ("--no-run", "--list", "--format", "--help"),
}  # fmt: skip
#: Config files whose mention of a reporter may replace the summary.
_REPORTER_CONFIGS = {
    "jest": ("jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs",
             "jest.config.json", "package.json"),
    "vitest": ("vitest.config.ts", "vitest.config.js", "vitest.config.mts", "vitest.config.mjs",
               "vite.config.ts", "vite.config.js", "vite.config.mts", "vite.config.mjs"),
    "mocha": (".mocharc", ".mocharc.js", ".mocharc.cjs", ".mocharc.json", ".mocharc.jsonc",
              ".mocharc.yml", ".mocharc.yaml", "package.json"),
}  # fmt: skip
_REPORTER_WORD = re.compile(rb"\breporters?\b")
#: How deep ``npm test`` -> a script -> ``npm run x`` is followed.
_MAX_SCRIPT_DEPTH = 3


def expected_summaries(command: str, cwd: Path) -> Counter[str]:
    """How many summaries each runner ``command`` starts must print, at least; empty if unsure."""
    return _expected(command, cwd, 0)


def _expected(command: str, cwd: Path, depth: int) -> Counter[str]:
    found: Counter[str] = Counter()
    if _NOT_SIMPLE.search(command):
        return found
    after_or = False
    for pipeline in pipelines(command) or []:
        words, *piped = pipeline.commands
        operator = pipeline.operator
        if after_or or pipeline.redirected or operator == "&":
            after_or = after_or or operator == "||"
            continue
        if not piped or piped[0][:1] in (["tee"], ["cat"]):
            found.update(_runners(words, cwd, depth))
        after_or = operator == "||"
    return found


def _runners(words: list[str], cwd: Path, depth: int) -> Counter[str]:
    # pytest reads PYTEST_ADDOPTS too: from the line (``PYTEST_ADDOPTS=-q pytest``) or forge's own
    # environment, which the command inherits.
    options = os.environ.get("PYTEST_ADDOPTS", "")
    for word in words:
        if word.startswith("PYTEST_ADDOPTS="):
            options = word.partition("=")[2]
    words = unwrapped(words)
    if not words:
        return Counter()
    if program(words[0]) in PACKAGE_MANAGERS:
        found = _script(words, cwd, depth)
        if found is not None:
            return found
        words = words[1:]  # ``yarn jest``: a bin
    runner, arguments = runner_of(words)
    if runner == "pytest":
        try:
            arguments = [*shlex.split(options), *arguments]
        except ValueError:
            return Counter()
    if runner not in _INFO_OPTIONS or _hides_summary(runner, arguments, cwd):
        return Counter()  # not a runner, or one (unittest) whose summary is not required
    return Counter({runner: 1})


def _hides_summary(runner: str, arguments: list[str], cwd: Path) -> bool:
    """Whether these arguments or the project's config may keep the summary from printing."""
    for argument in arguments:
        option = argument.split("=", 1)[0]
        if option in _INFO_OPTIONS[runner] or argument in _INFO_OPTIONS[runner]:
            return True
    if runner == "pytest":
        return _pytest_silent(arguments, cwd)
    return any(
        _REPORTER_WORD.search(_read(cwd / name) or b"")
        for name in _REPORTER_CONFIGS.get(runner, ())
    )


def _pytest_silent(arguments: list[str], cwd: Path) -> bool:
    """pytest prints no summary at ``-qq`` or without its terminal plugin."""
    addopts = _pytest_addopts(cwd)
    if addopts is None:
        return True  # a config forge cannot read: it may say anything
    every = [*addopts, *arguments]
    if "no:terminal" in every or "-pno:terminal" in every:
        return True
    verbosity = 0
    for word in every:
        if word in {"--quiet"}:
            verbosity -= 1
        elif word == "--verbose":
            verbosity += 1
        elif re.fullmatch(r"-[qv]+", word):
            verbosity += word.count("v") - word.count("q")
    return verbosity <= -2


def _pytest_addopts(cwd: Path) -> list[str] | None:
    """The ``addopts`` of the pytest config pytest would find from ``cwd``; None if unreadable."""
    for folder in (cwd, *cwd.parents):
        for name, section in (
            ("pytest.ini", "pytest"),
            (".pytest.ini", "pytest"),
            ("pyproject.toml", ""),
            ("tox.ini", "pytest"),
            ("setup.cfg", "tool:pytest"),
        ):
            data = _read(folder / name)
            if data is None:
                continue
            try:
                found = (
                    _toml_addopts(data) if name == "pyproject.toml" else _ini_addopts(data, section)
                )
            except (ValueError, configparser.Error, UnicodeDecodeError):
                return None
            if found is not None:
                return found
        if (folder / ".git").exists():
            break
    return []


def _toml_addopts(data: bytes) -> list[str] | None:
    tool = tomllib.loads(data.decode("utf-8")).get("tool", {})
    for table in (tool.get("pytest", {}).get("ini_options"), tool.get("pytest")):
        if isinstance(table, dict) and table:
            value = table.get("addopts", "")
            return shlex.split(value) if isinstance(value, str) else [str(v) for v in value]
    return None


def _ini_addopts(data: bytes, section: str) -> list[str] | None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(data.decode("utf-8"))
    if not parser.has_section(section):
        return None
    return shlex.split(parser.get(section, "addopts", fallback=""))


def _script(words: list[str], cwd: Path, depth: int) -> Counter[str] | None:
    """``npm test`` / ``npm run NAME [-- args]``: the runners of that package.json script.

    None for ``yarn NAME`` / ``pnpm NAME`` with no such script: a package's bin.
    """
    call = script_called(words)
    if call is None or depth >= _MAX_SCRIPT_DEPTH:
        return Counter()
    text = _read(cwd / "package.json")
    script = package_script(text.decode("utf-8", errors="replace") if text else "{}", call.name)
    if script is None:
        return None if call.may_be_bin else Counter()
    return _expected(" ".join([script, *map(shlex.quote, call.extra)]), cwd, depth + 1)


def _read(path: Path) -> bytes | None:
    """A config file's bytes (capped), or None when it is not a readable regular file."""
    try:
        if not path.is_file() or path.is_symlink():
            return None
        with path.open("rb") as handle:
            return handle.read(MAX_CONFIG_BYTES)
    except OSError:
        return None


def pytest_invocations(command: str) -> list[list[str]]:
    """The words of each simple command of ``command`` that starts pytest, to collect with.

    Only where re-running it elsewhere (a base revision's tree) means the same:
    a line :func:`expected_summaries` reads, pytest started directly or through
    ``env``, ``timeout`` or ``VAR=x`` (not ``uv run`` and the like, which may
    build an environment), no ``cd`` before it (the folder would differ).
    """
    if _NOT_SIMPLE.search(command):
        return []
    found: list[list[str]] = []
    for pipeline in pipelines(command) or []:
        words = pipeline.commands[0]
        if pipeline.redirected or pipeline.operator == "&":
            continue
        if not words:
            continue
        if words[0] in {"cd", "pushd", "popd"}:
            return found
        inner = unwrapped(words)
        launchers = words[: len(words) - len(inner)]
        if any(
            program(word) in RUN_LAUNCHERS | EXEC_LAUNCHERS | {"coverage", "npx"}
            for word in launchers
        ):
            continue
        if runner_of(inner)[0] == "pytest":
            found.append(words)
    return found
