"""The checkers forge-types can run: how to call each, and how to read what it prints.

A :class:`Checker` is a found executable of one known kind (:class:`Kind`):
its name and version, the command line for a list of files, and the parser of
its machine-readable output. Which checker a project gets is decided in
:mod:`forge_types.selection`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forge_types.diagnostics import CheckerFailed, Raw
from forge_types.processes import Finished, run_tool
from forge_types.stopped import NotChecked, fell_back, mypy_blocker, stopped


@dataclass(frozen=True)
class Kind:
    """One kind of checker: its command line and its output's reader.

    What of its diagnostics counts without a base is :mod:`forge_types.counted`'s.
    """

    name: str
    language: str
    argv: Callable[[Path, Sequence[Path], Invocation], list[str]]
    parse: Callable[[str, Path], list[Raw]]
    #: Exit codes that mean "ran, found diagnostics" rather than "failed to run".
    ok_codes: frozenset[int] = frozenset({0, 1})


@dataclass(frozen=True)
class Invocation:
    """What a run depends on besides the files: the project's interpreter and config."""

    root: Path
    interpreter: Path | None = None
    #: The project configures this checker itself; else forge passes its defaults.
    configured: bool = False
    #: A folder the checker may keep its cache in (mypy), under .forge/cache or the temp dir.
    cache_dir: Path | None = None
    #: tsconfig.json (TypeScript).
    project_file: Path | None = None


@dataclass(frozen=True)
class Checker:
    """A checker found for a project: its kind, executable, version and where it came from."""

    kind: Kind
    executable: Path
    version: str
    #: How it was chosen, for ``forge plugins`` and messages ("pinned by forge-types").
    source: str
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def label(self) -> str:
        """``pyrefly 1.4.1``."""
        return f"{self.kind.name} {self.version}"

    def warm_key(self, invocation: Invocation) -> str | None:
        """The key of this checker's warm server for ``invocation``; None: it has no warm mode.

        pyrefly has its language server; tsc its TypeScript's builder program
        (:mod:`forge_types.tsbuilder`; TypeScript 7's native ``tsgo`` has none), per tsconfig.
        """
        if self.warm_executable is None:
            return None
        from forge_types import __version__

        parts = [__version__, str(invocation.root), str(self.executable), self.version]
        parts += [str(invocation.interpreter or ""), str(invocation.configured)]
        if self.kind is TSC:
            parts.append(str(invocation.project_file or ""))
        return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()

    @property
    def warm_executable(self) -> Path | None:
        """The program the warm checker runs (``pyrefly``; TypeScript's ``lib/typescript.js``,
        :mod:`forge_types.tsbuilder`); None: no warm mode."""
        if self.kind is PYREFLY:
            return self.executable
        if self.kind is TSC:
            from forge_types.tsbuilder import typescript_library

            return typescript_library(self.executable)
        return None

    def ask_warm(
        self, files: Sequence[Path], invocation: Invocation, timeout: float
    ) -> list[Raw] | None:
        """The warm checker's diagnostics over ``files``; None when none answers.

        A warm server of this checker for the same project, interpreter and
        configuration (:mod:`forge_types.warm`) answers when one runs.
        """
        key = self.warm_key(invocation)
        if key is None or not files:
            return None
        from forge_types.warm import ask

        return ask(key, list(files), timeout)

    def run(
        self, files: Sequence[Path], invocation: Invocation, timeout: float, notes: list[str]
    ) -> list[Raw]:
        """The command line's diagnostics over ``files``; :class:`CheckerFailed` when it did not
        run, :class:`NotChecked` when it ran and checked nothing; ``notes`` gets what it left
        out and went on without (its interpreter)."""
        argv = self.kind.argv(self.executable, files, invocation)
        done = run_tool(argv, invocation.root, timeout)
        notes.extend(note for note in [fell_back(self.kind.name, done.stderr)] if note)
        if done.returncode not in self.kind.ok_codes:
            raise CheckerFailed(
                f"exited {done.returncode}: {_first_words(self.kind, done, invocation.root)}"
            )
        try:
            raw = self.kind.parse(done.stdout, invocation.root)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            tail = " ".join((done.stderr or done.stdout).split())[-200:]
            raise CheckerFailed(
                f"{self.label} printed no readable output ({exc}): {tail}"
            ) from None
        why = stopped(self.kind.name, done.returncode, raw, done.stderr, invocation.root)
        if why is not None:
            raise NotChecked(why, raw)
        return raw


def _first_words(kind: Kind, done: Finished, root: Path) -> str:
    """Why a run that failed did: mypy's blocking error (:func:`mypy_blocker`), else its first
    diagnostic when it printed one, else the end of what it printed."""
    said = mypy_blocker(done.stdout, done.stderr, root) if kind is MYPY else None
    if said is not None:
        return said
    with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
        for path, line, _, rule, message in kind.parse(done.stdout, Path("/")):
            return f"{path.as_posix().lstrip('/')}:{line}: {message} [{rule}]"
    return " ".join((done.stderr or done.stdout).split())[-300:]


def _absolute(root: Path, name: str) -> Path:
    """``name`` as the checker wrote it, absolute; ``../x.py`` (a file outside ``root``) folded."""
    path = Path(name)
    return Path(os.path.normpath(path if path.is_absolute() else root / path))


# --- pyrefly (pinned) ------------------------------------------------------------


def _pyrefly_argv(exe: Path, files: Sequence[Path], how: Invocation) -> list[str]:
    argv = [str(exe), "check", "--output-format", "json", "--summary", "none"]
    if not how.configured:
        # Unconfigured, pyrefly 1.x picks its "basic" preset, which leaves out the
        # call-shape checks forge exists for: ask for pyrefly's own default.
        argv += ["--preset", "default"]
    if how.interpreter is not None:
        argv += ["--python-interpreter-path", str(how.interpreter)]
    return [*argv, *map(str, files)]


def _pyrefly_parse(out: str, root: Path) -> list[Raw]:
    found = json.loads(out) if out.strip() else {"errors": []}
    return [
        (_absolute(root, e["path"]), int(e["line"]), int(e["column"]), e["name"], _one(e))
        for e in found["errors"]
        if e.get("severity", "error") == "error"  # warnings are advice, not broken code
    ]


def _one(error: dict[str, Any]) -> str:  # the full description, as pyrefly's server says it
    return str(error.get("description") or error.get("concise_description") or "")


PYREFLY = Kind("pyrefly", "python", _pyrefly_argv, _pyrefly_parse)


# --- mypy --------------------------------------------------------------------------


def _mypy_argv(exe: Path, files: Sequence[Path], how: Invocation) -> list[str]:
    # --show-traceback: a crash then says which exception stopped it (mypy_blocker).
    argv = [str(exe), "-O", "json", "--no-error-summary", "--show-error-codes", "--show-traceback"]
    if how.cache_dir is not None:
        argv += ["--cache-dir", str(how.cache_dir)]
    if how.interpreter is not None:
        argv += ["--python-executable", str(how.interpreter)]
    return [*argv, *map(str, files)]


def _mypy_parse(out: str, root: Path) -> list[Raw]:
    found = []
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        item = json.loads(line)
        if item.get("severity") != "error":
            continue
        found.append(
            (
                _absolute(root, item["file"]),
                max(int(item["line"]), 1),
                max(int(item.get("column") or 0), 0) + 1,  # mypy counts columns from 0
                str(item.get("code") or "misc"),
                str(item["message"]),
            )
        )
    return found


MYPY = Kind("mypy", "python", _mypy_argv, _mypy_parse)


# --- ty ----------------------------------------------------------------------------


def _ty_argv(exe: Path, files: Sequence[Path], how: Invocation) -> list[str]:
    argv = [str(exe), "check", "--output-format", "gitlab", "--no-progress"]
    if how.interpreter is not None:
        argv += ["--python", str(how.interpreter)]
    return [*argv, *map(str, files)]


def _ty_parse(out: str, root: Path) -> list[Raw]:
    found = []
    for item in json.loads(out) if out.strip() else []:
        rule = str(item["check_name"])
        message = str(item["description"]).removeprefix(f"{rule}: ")
        begin = item["location"]["positions"]["begin"]
        path = _absolute(root, item["location"]["path"])
        found.append((path, int(begin["line"]), int(begin["column"]), rule, message))
    return found


TY = Kind("ty", "python", _ty_argv, _ty_parse)


# --- pyright and basedpyright ------------------------------------------------------


def _pyright_argv(exe: Path, files: Sequence[Path], how: Invocation) -> list[str]:
    argv = [str(exe), "--outputjson"]
    if how.interpreter is not None:
        argv += ["--pythonpath", str(how.interpreter)]
    return [*argv, *map(str, files)]


def _pyright_parse(out: str, root: Path) -> list[Raw]:
    found = []
    for item in json.loads(out).get("generalDiagnostics", []):
        if item.get("severity") not in ("error", "warning"):
            continue
        start = item.get("range", {}).get("start", {"line": 0, "character": 0})
        found.append(
            (
                _absolute(root, item["file"]),
                int(start["line"]) + 1,
                int(start["character"]) + 1,
                str(item.get("rule") or "error"),
                str(item["message"]).split("\n", 1)[0],
            )
        )
    return found


PYRIGHT = Kind("pyright", "python", _pyright_argv, _pyright_parse)
BASEDPYRIGHT = Kind("basedpyright", "python", _pyright_argv, _pyright_parse)


# --- tsc (the project's own) -------------------------------------------------------

#: ``src/a.ts(12,5): error TS2339: Property 'x' does not exist on type 'Y'.``; a global
#: or option diagnostic names no file: ``error TS2688: Cannot find type definition ...``.
_TSC_LINE = re.compile(
    r"^(?:(?P<file>.+?)\((?P<line>\d+),(?P<col>\d+)\): )?(?:error|warning) (?P<code>TS\d+): (?P<msg>.*)$"
)


def _tsc_argv(exe: Path, files: Sequence[Path], how: Invocation) -> list[str]:
    # The whole project, as its tsconfig says: single files without it give false errors.
    argv = [str(exe), "--noEmit", "--pretty", "false"]
    if how.project_file is not None:
        argv += ["-p", str(how.project_file)]
        if how.cache_dir is not None:
            # Incremental, its .tsbuildinfo under .forge/cache (an incremental project's
            # tsc would write it beside the tsconfig or in outDir, in the user's tree):
            # the next run checks again only what changed since this one and what the
            # changes affect, as the warm checker does (forge_types.tsbuilder).
            name = hashlib.sha256(str(how.project_file).encode()).hexdigest()[:16]
            argv += ["--incremental", "--tsBuildInfoFile", str(how.cache_dir / f"{name}.tsbuildinfo")]  # fmt: skip
    return argv


def incremental_tsc(checker: Checker) -> bool:
    """Whether ``checker`` is a tsc that runs ``--incremental --noEmit`` (TypeScript 4.0 on;
    older ones refuse the pair, TypeScript 7's ``tsgo`` is left as it runs)."""
    if checker.kind is not TSC or checker.executable.name != "tsc":
        return False
    major = checker.version.split(".", 1)[0]
    return major.isdigit() and int(major) >= 4


def _tsc_parse(out: str, root: Path) -> list[Raw]:
    found: list[Raw] = []
    for line in out.splitlines():
        match = _TSC_LINE.match(line)
        if match is not None:
            found.append(
                (
                    _absolute(root, match["file"]) if match["file"] else root,
                    int(match["line"] or 1),
                    int(match["col"] or 1),
                    match["code"],
                    match["msg"].strip(),
                )
            )
        elif line.startswith(" ") and found:  # a chained message's next line
            path, row, column, code, message = found[-1]
            found[-1] = (path, row, column, code, f"{message} {line.strip()}")
    return found


TSC = Kind(
    name="tsc",
    language="typescript",
    argv=_tsc_argv,
    parse=_tsc_parse,
    ok_codes=frozenset({0, 1, 2}),
)

#: Python checkers by name: the pinned one first.
PYTHON_KINDS = {kind.name: kind for kind in (PYREFLY, MYPY, TY, BASEDPYRIGHT, PYRIGHT)}


def socket_path(key: str) -> Path:
    """Where the warm checker for ``key`` listens: a private folder of the temp dir (here,
    so asking whether one listens costs no import of :mod:`forge_types.warm`)."""
    return Path(tempfile.gettempdir()) / f"forge-types-{os.getuid()}" / f"{key[:24]}.sock"
