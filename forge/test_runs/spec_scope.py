"""Which tests are a module's specification: the test files its verify commands run at the base.

:func:`spec_scope` reads each command as the shell would split it (``cd``
followed, ``VAR=value`` prefixes and wrappers such as ``uv run`` or ``npx``
skipped) and asks which test runner it starts and with which arguments:

- ``pytest`` / ``python -m pytest``: the path arguments (``tests``,
  ``tests/test_a.py::test_x``); none: ``testpaths`` from the base's
  ``pytest.ini``, ``pyproject.toml``, ``tox.ini`` or ``setup.cfg``, else the
  folder it runs in; files named as ``python_files`` says (``test_*.py``,
  ``*_test.py``). ``python -m unittest``: ``test*.py``.
- ``npm test`` / ``npm run X`` / ``yarn`` / ``pnpm``: the ``package.json``
  script at the base, read as a command in turn; ``make X``: the target's recipe.
- ``mocha``, ``jest``, ``vitest``, ``node --test``: their path arguments, else
  each runner's default globs.

Any other command runs what :func:`forge.test_runs.switched_off.is_test_file` calls a test
in the folder it runs in. Nothing is run: the base is read from git objects.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from forge.test_runs.command_line import pipelines, program, runner_of, script_called, unwrapped
from forge.test_runs.file_kinds import is_test_file
from forge.test_runs.spec_config import mocha_spec, package_script, python_files, testpaths

#: Reads a file's text at the base (repository-relative path), None when absent.
BaseReader = Callable[[str], "str | None"]

_PY_FLAGS_WITH_VALUE = frozenset(
    [
        "-k",
        "-m",
        "-p",
        "-c",
        "-o",
        "-W",
        "-n",
        "-r",
        "--rootdir",
        "--deselect",
        "--ignore",
        "--ignore-glob",
        "--confcutdir",
        "--basetemp",
        "--tb",
        "--maxfail",
        "--junitxml",
        "--junit-xml",
        "--cov",
        "--cov-report",
        "--durations",
        "--log-level",
        "--capture",
        "--import-mode",
        "--dist",
        "--color",
        "--override-ini",
    ]
)
_JS_FLAGS_WITH_VALUE = frozenset(
    [
        "--require",
        "-r",
        "--reporter",
        "-R",
        "--timeout",
        "-t",
        "--grep",
        "-g",
        "--fgrep",
        "-f",
        "--config",
        "--ui",
        "-u",
        "--testNamePattern",
        "--testPathPattern",
        "--testPathIgnorePatterns",
        "--import",
        "--loader",
        "--test-reporter",
        "--test-reporter-destination",
        "--test-name-pattern",
        "--file",
        "--spec",
        "--ignore",
        "--exclude",
        "--setupFiles",
        "--environment",
        "--project",
        "--root",
        "--dir",
    ]
)
#: Runners whose arguments :func:`spec_scope` reads.
PY_RUNNERS = frozenset({"pytest", "unittest"})
JS_RUNNERS = frozenset({"mocha", "jest", "vitest", "node"})
_JS_EXT = r"\.[cm]?[jt]sx?$"
_JS_DEFAULTS = {
    "mocha": re.compile(r"^test/[^/]+\.[cm]?js$"),
    "jest": re.compile(rf"(^|/)__tests__/.*{_JS_EXT}|(^|/)[^/]*[.](test|spec){_JS_EXT}"),
    "vitest": re.compile(rf"(^|/)[^/]*[.](test|spec){_JS_EXT}"),
    "node": re.compile(r"(^|/)([^/]*[._-]test|test-[^/]*|test)\.[cm]?js$|(^|/)test/.*\.[cm]?js$"),
}
_SKIPPED_DIRS = ("node_modules/", ".git/", ".venv/", "venv/", ".tox/", "build/", "dist/")


@dataclass(frozen=True)
class Run:
    """One test runner a verify command starts: which, where (repo-relative), with what."""

    runner: str
    cwd: str
    args: tuple[str, ...]
    #: Where the command came from when it was read out of a file (package.json#test).
    via: str = ""


@dataclass
class Scope:
    """A module's spec: the test files its runs run at the base, and the runs themselves."""

    tests: set[str] = field(default_factory=set)
    runs: list[Run] = field(default_factory=list)
    #: Scripts and recipes a run was read from, by ``file#name``: their text at the base.
    scripts: dict[str, str] = field(default_factory=dict)

    @property
    def roots(self) -> set[str]:
        """The folders (repository-relative, ``""``: the top) the runs start in."""
        return {run.cwd for run in self.runs}


def spec_scope(commands: Iterable[str], cwd: str, base_files: list[str], read: BaseReader) -> Scope:
    """The spec of ``commands`` run in ``cwd`` (repository-relative) at the base.

    ``base_files`` lists every file at the base, ``read`` gives one's text.
    """
    scope = Scope()
    for command in commands:
        scope.runs += runs_of(command, cwd, read, scope.scripts)
    if not scope.runs:
        # No runner forge knows: the tests are what the test-file rules name.
        scope.runs.append(Run("tests", cwd, ()))
    for run in scope.runs:
        scope.tests |= tests_of(run, base_files, read)
    return scope


def runs_of(
    command: str, cwd: str, read: BaseReader, scripts: dict[str, str], depth: int = 0
) -> list[Run]:
    """The test runs ``command`` starts in ``cwd``, scripts and make targets followed."""
    found: list[Run] = []
    for words, where in simple_commands(command, cwd):
        run = _runner(words, where)
        if run is not None:
            found.append(run)
            continue
        script = _script(words, where, read) if depth < 4 else None
        if script is None:
            continue
        key, text = script
        scripts[key] = text
        for inner in runs_of(text, where, read, scripts, depth + 1):
            found.append(inner if inner.via else Run(inner.runner, inner.cwd, inner.args, key))
    return found


def simple_commands(command: str, cwd: str) -> list[tuple[list[str], str]]:
    """Each simple command of ``command``: its words (prefixes taken off) and its folder."""
    found: list[tuple[list[str], str]] = []
    where = cwd
    for pipeline in pipelines(command) or []:
        for words in map(unwrapped, pipeline.commands):
            if words and words[0] == "cd" and len(words) == 2 and "$" not in words[1]:
                where = posixpath.normpath(posixpath.join(where, words[1])).lstrip("./") or ""
                if where.startswith(".."):
                    where = cwd
            elif words:
                found.append((words, where))
    return found


def _runner(words: list[str], where: str) -> Run | None:
    """The run of a runner whose test files forge reads (go's and cargo's: not)."""
    runner, rest = runner_of(words)
    if runner == "vitest":
        rest = [word for word in rest if word not in {"run", "watch"}]
    elif runner == "node":
        rest = [word for word in rest if word != "--test"]
    elif runner not in PY_RUNNERS | JS_RUNNERS:
        return None
    return Run(runner, where, tuple(rest))


def _script(words: list[str], where: str, read: BaseReader) -> tuple[str, str] | None:
    """The package.json script or make recipe ``words`` run: (``file#name``, its text)."""
    call = script_called(words)
    if call is not None:
        file = posixpath.join(where, "package.json")
        body = package_script(read(file), call.name)
        if body is None:
            return None
        return f"{file}#{call.name}", " ".join([body, *map(shlex.quote, call.extra)])
    name = program(words[0])
    if name in {"make", "gmake"}:
        targets = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
        file = posixpath.join(where, "Makefile")
        text = read(file)
        if text is None:
            return None
        target = targets[0] if targets else _first_target(text)
        recipe = make_recipe(text, target) if target else None
        return (f"{file}#{target}", recipe) if recipe is not None else None
    return None


def _first_target(text: str) -> str | None:
    match = re.search(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", text, re.M)
    return match[1] if match else None


def make_recipe(text: str, target: str) -> str | None:
    """The recipe of ``target`` in a Makefile, its lines joined by ``;`` (``@`` and ``-`` off)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = re.match(r"^([^\s:=#][^:=#]*?)\s*:(?!=)(.*)$", line)
        if not match or target not in match[1].split():
            continue
        recipe = []
        for body in lines[index + 1 :]:
            if not body.startswith("\t"):
                if body.strip():
                    break
                continue
            recipe.append(body.strip().lstrip("@-").strip())
        return " ; ".join(recipe)
    return None


def tests_of(run: Run, base_files: list[str], read: BaseReader) -> set[str]:
    """The test files ``run`` runs at the base."""
    under = [f for f in base_files if _inside(f, run.cwd) and not _skipped(f, run.cwd)]
    if run.runner in PY_RUNNERS:
        paths = python_paths(run)
        patterns = ("test*.py",) if run.runner == "unittest" else python_files(run.cwd, read)
        if not paths and run.runner == "pytest":
            paths = [posixpath.join(run.cwd, p) for p in testpaths(run.cwd, read)]
        return _matching(under, paths or [run.cwd], lambda f: _py_named(f, patterns))
    if run.runner in JS_RUNNERS:
        paths = js_paths(run)
        default = _JS_DEFAULTS[run.runner]
        if paths:
            return _matching(under, paths, lambda f: re.search(_JS_EXT, f) is not None)
        if run.runner == "mocha":
            spec = mocha_spec(run.cwd, read)
            if spec:
                return _matching(under, spec, lambda f: re.search(_JS_EXT, f) is not None)
        return {f for f in under if default.search(_relative(f, run.cwd))}
    return {f for f in under if is_test_file(_relative(f, run.cwd), "")}


def python_paths(run: Run) -> list[str]:
    """The files and folders a pytest or unittest run names, repository-relative."""
    return [posixpath.join(run.cwd, p) for p in _positional(run.args, _PY_FLAGS_WITH_VALUE)]


def js_paths(run: Run) -> list[str]:
    """The files, folders and globs a JavaScript runner's run names, repository-relative."""
    return [posixpath.join(run.cwd, p) for p in _positional(run.args, _JS_FLAGS_WITH_VALUE)]


def _positional(args: tuple[str, ...], with_value: frozenset[str]) -> list[str]:
    found: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = arg in with_value
        elif "$" not in arg:
            found.append(posixpath.normpath(arg.split("::")[0]))
    return found


def _matching(files: list[str], paths: list[str], wanted: Callable[[str], bool]) -> set[str]:
    found: set[str] = set()
    for path in paths:
        path = "" if path == "." else path
        if any(char in path for char in "*?[{"):
            regex = _glob(path)
            found |= {f for f in files if regex.fullmatch(f) and wanted(f)}
        elif path in files:
            found.add(path)
        else:
            found |= {f for f in files if _inside(f, path) and wanted(f)}
    return found


def _glob(pattern: str) -> re.Pattern[str]:
    """A shell or node glob (``**``, ``*``, ``?``, ``{a,b}``) as a regular expression."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        char = pattern[index]
        end = pattern.find("}", index)
        if pattern.startswith("**", index):
            out.append(".*")
            index += 1
        elif char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "{" and end > index:
            out.append("(?:" + "|".join(map(re.escape, pattern[index + 1 : end].split(","))) + ")")
            index = end
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out))


def _py_named(path: str, patterns: tuple[str, ...]) -> bool:
    name = posixpath.basename(path)
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def _inside(path: str, folder: str) -> bool:
    return not folder or path.startswith(folder.rstrip("/") + "/")


def _relative(path: str, folder: str) -> str:
    return path[len(folder.rstrip("/")) + 1 :] if folder else path


def _skipped(path: str, cwd: str) -> bool:
    relative = "/" + _relative(path, cwd)
    return any("/" + folder in relative for folder in _SKIPPED_DIRS)
