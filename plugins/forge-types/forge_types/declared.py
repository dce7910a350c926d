"""The files a project's checker configuration says to check: its declared scope.

forge hands the checker the files it judges by name, which overrides the
configuration's own list: a strict mypy whose ``files = ["src"]`` never sees
the tests would judge a test by its strictness, and fail an honest edit the
project's own run never checks. A diagnostic in a file outside the declared
scope is judged by the rules that mean the code cannot run
(:mod:`forge_types.counted`) only, with a base or without.

What is read, from the configuration file the checker itself reads first:

- mypy (``mypy.ini``, ``.mypy.ini``, ``pyproject.toml [tool.mypy]``,
  ``setup.cfg [mypy]``): ``files`` (paths, folders, globs) and ``exclude``
  (regular expressions searched in each path below a listed folder, a folder
  with a trailing ``/``); no ``files``: no declared scope (mypy checks what its
  command line names).
- pyrefly (``pyrefly.toml``, ``pyproject.toml [tool.pyrefly]``):
  ``project-includes`` and ``project-excludes``;
- pyright and basedpyright (``pyrightconfig.json``, ``pyproject.toml
  [tool.basedpyright]`` for basedpyright, ``[tool.pyright]``): ``include`` and
  ``exclude``.

Globs are relative to the project root (``**`` crosses folders, a folder holds
everything below it). ty's and tsc's scopes are not read: every file is in.
"""

from __future__ import annotations

import configparser
import posixpath
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge.contracts.ecmascript.node_packages import read_jsonc
from forge.globs import glob_pattern

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@dataclass(frozen=True)
class Declared:
    """A checker configuration's declared scope: what it includes, and leaves out."""

    checker: str
    #: Where it is declared: ``pyproject.toml [tool.mypy]``.
    where: str
    #: (setting, its entries) as written: ``("files", ("src",))``.
    settings: tuple[tuple[str, tuple[str, ...]], ...]
    includes: Callable[[str], bool]
    excludes: Callable[[str], bool]

    def contains(self, path: str) -> bool:
        """Whether ``path`` (relative to the project root, POSIX) is in the scope."""
        return self.includes(path) and not self.excludes(path)

    @property
    def said(self) -> str:
        """``files = src, tests; exclude = ^tests/data/ in pyproject.toml [tool.mypy]``."""
        shown = "; ".join(
            f"{name} = {', '.join(' '.join(entry.split()) for entry in entries)}"
            for name, entries in self.settings
        )
        return f"{shown} in {self.where}"


def declared_scope(checker: str, root: Path) -> Declared | None:
    """The scope ``checker``'s configuration in ``root`` declares; None: it declares none."""
    reader = _READERS.get(checker)
    return reader(root) if reader is not None else None


def _mypy(root: Path) -> Declared | None:
    found = _mypy_section(root)
    if found is None:
        return None
    where, section = found
    files = _entries(section.get("files"), split=True)
    if not files:
        return None
    excludes = _entries(section.get("exclude"), split=False)
    settings = [("files", files)] + ([("exclude", excludes)] if excludes else [])
    patterns = [_regex(text) for text in excludes]

    named = [_clean(entry) for entry in files]
    # Globs name files (mypy expands them, and exclude spares what is named), paths folders.
    folders = [entry for entry in named if not any(char in entry for char in "*?[")]

    def excluded_below(path: str) -> bool:
        # mypy applies exclude while it walks a listed folder: to each folder (with a
        # trailing /) and file below it, never to the folder or a file it was named.
        tops = [entry for entry in folders if entry == "." or path.startswith(f"{entry}/")]
        if path in named or not tops or not patterns:
            return False
        depth = min(0 if top == "." else top.count("/") + 1 for top in tops)
        parts = path.split("/")
        below = [f"{'/'.join(parts[:n])}/" for n in range(depth + 1, len(parts))] + [path]
        return any(p is not None and p.search(item) for item in below for p in patterns)

    return Declared("mypy", where, tuple(settings), _globs(files), excluded_below)


def _mypy_section(root: Path) -> tuple[str, dict[str, Any]] | None:
    """The configuration mypy reads in ``root``, in its order: mypy.ini, .mypy.ini,
    pyproject.toml, setup.cfg (the first that has a mypy section)."""
    for name in ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"):
        path = root / name
        if not path.is_file():
            continue
        if name == "pyproject.toml":
            table = pyproject_tool(root).get("mypy")
            if isinstance(table, dict):
                return f"{name} [tool.mypy]", table
            continue
        parser = configparser.RawConfigParser()
        try:
            parser.read(path, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError):
            return None  # mypy refuses it too: the run says so
        if parser.has_section("mypy"):
            return f"{name} [mypy]", dict(parser.items("mypy"))
        if name != "setup.cfg":  # mypy reads no further than its own file
            return None
    return None


def _pyrefly(root: Path) -> Declared | None:
    table: object
    if (root / "pyrefly.toml").is_file():
        where, table = "pyrefly.toml", _toml(root / "pyrefly.toml")
    else:
        where, table = "pyproject.toml [tool.pyrefly]", pyproject_tool(root).get("pyrefly")
    if not isinstance(table, dict):
        return None
    return _from_globs("pyrefly", where, table, ("project-includes", "project-excludes"))


def _pyright(name: str) -> Callable[[Path], Declared | None]:
    def read(root: Path) -> Declared | None:
        if (root / "pyrightconfig.json").is_file():
            found = read_jsonc(str(root / "pyrightconfig.json"))
            return _from_globs(name, "pyrightconfig.json", found or {}, ("include", "exclude"))
        tables = pyproject_tool(root)
        for table in dict.fromkeys((name, "pyright")):
            if isinstance(tables.get(table), dict):
                where = f"pyproject.toml [tool.{table}]"
                return _from_globs(name, where, tables[table], ("include", "exclude"))
        return None

    return read


def _from_globs(
    checker: str, where: str, table: dict[str, Any], names: tuple[str, str]
) -> Declared | None:
    """A scope of include and exclude globs (pyrefly's, pyright's); None: neither is set."""
    include_name, exclude_name = names
    # pyrefly read snake_case keys too before it settled on kebab-case.
    include = _entries(table.get(include_name, table.get(include_name.replace("-", "_"))), False)
    exclude = _entries(table.get(exclude_name, table.get(exclude_name.replace("-", "_"))), False)
    if not include and not exclude:
        return None
    settings = [(n, e) for n, e in ((include_name, include), (exclude_name, exclude)) if e]
    includes = _globs(include) if include else _everything
    return Declared(checker, where, tuple(settings), includes, _globs(exclude))


def _globs(entries: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a path is one of ``entries`` (paths or globs from the root) or below one."""
    cleaned = [_clean(entry) for entry in entries]
    if "." in cleaned:
        return _everything
    patterns = [glob_pattern(f"/{entry}") for entry in cleaned if entry]
    folders = [glob_pattern(f"/{entry}/") for entry in cleaned if entry]

    def matches(path: str) -> bool:
        return any(p.fullmatch(path) for p in patterns) or any(p.fullmatch(path) for p in folders)

    return matches


def _everything(path: str) -> bool:
    return True


def _clean(entry: str) -> str:
    """An entry as a path relative to the root: ``./src/`` is ``src``, the root is ``.``."""
    return posixpath.normpath(entry.strip().replace("\\", "/")) if entry.strip() else ""


def _entries(value: object, split: bool) -> tuple[str, ...]:
    """A setting's entries: a TOML list, or a string (comma-separated when ``split``)."""
    if isinstance(value, str):
        parts = value.split(",") if split else [value]
    elif isinstance(value, list):
        parts = [item for item in value if isinstance(item, str)]
    else:
        return ()
    return tuple(part.strip() for part in parts if part.strip())


def _regex(text: str) -> re.Pattern[str] | None:
    try:
        return re.compile(text)
    except re.error:  # mypy refuses the configuration: the run says so
        return None


def pyproject_tool(root: Path) -> dict[str, Any]:
    """The ``[tool]`` tables of ``root``'s ``pyproject.toml`` ({}: none, or unreadable)."""
    tool = _toml(root / "pyproject.toml").get("tool")
    return tool if isinstance(tool, dict) else {}


def _toml(path: Path) -> dict[str, Any]:
    try:
        found: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    return found


_READERS: dict[str, Callable[[Path], Declared | None]] = {
    "mypy": _mypy,
    "pyrefly": _pyrefly,
    "pyright": _pyright("pyright"),
    "basedpyright": _pyright("basedpyright"),
}
