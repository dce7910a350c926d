"""Which checker a project gets, per language, and with which interpreter and configuration.

Python: the checker the project configures (``pyrefly.toml`` / ``[tool.pyrefly]``,
``[tool.mypy]`` / ``mypy.ini``, ``[tool.pyright]`` / ``pyrightconfig.json``,
``[tool.ty]`` / ``ty.toml``) when it is installed (in the project's virtual
environment, beside forge, or on ``PATH``), so forge agrees with the project's
own CI; else pyrefly, pinned by forge-types. TypeScript: the project's own
``node_modules/.bin/tsc`` (or ``tsgo``), never downloaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from forge.runtime.cancellation import cancelled
from forge_types.checkers import PYREFLY, PYTHON_KINDS, TSC, Checker, Kind
from forge_types.declared import pyproject_tool
from forge_types.diagnostics import CheckerTimedOut
from forge_types.processes import run_tool

#: Virtual environments looked for in the project root, in order.
VENV_NAMES = (".venv", "venv", "env")
#: Config tables or files naming each checker, in the order they are preferred.
CONFIGURED = (
    ("pyrefly", ("pyrefly.toml",), ("pyrefly",)),
    ("mypy", ("mypy.ini", ".mypy.ini"), ("mypy",)),
    ("basedpyright", (), ("basedpyright",)),
    ("basedpyright", ("pyrightconfig.json",), ("pyright",)),
    ("pyright", ("pyrightconfig.json",), ("pyright",)),
    ("ty", ("ty.toml",), ("ty",)),
)
#: What to install for each checker when it is missing.
INSTALL = {
    "pyrefly": "pip install 'forge-types @ git+https://github.com/forge-validate/forge"
    "#subdirectory=plugins/forge-types' (it pins pyrefly)",
    "mypy": "pip install mypy",
    "ty": "pip install ty",
    "basedpyright": "pip install basedpyright",
    "pyright": "pip install pyright",
    "tsc": "npm install --save-dev typescript",
}


@dataclass(frozen=True)
class Missing:
    """No checker can run: one line saying what to install (or why the one installed cannot)."""

    language: str
    message: str
    #: It is installed, and hangs or is broken: a check that did not run, not one skipped.
    broken: bool = False


def python_checker(root: Path, wanted: str | None) -> Checker | Missing:
    """The Python checker for ``root``: ``wanted`` (an option), else the configured one, else pyrefly."""
    if wanted is not None:
        kind = PYTHON_KINDS[wanted]
        found = _executable(kind.name, root)
        if found is None:
            return Missing("python", f"{kind.name} is not installed ({INSTALL[kind.name]})")
        return _checker(kind, found, "chosen in [tool.forge.types]", root)
    configured = configured_checkers(root)
    for name, where in configured:
        found = _executable(name, root)
        if found is not None:
            return _checker(PYTHON_KINDS[name], found, f"configured in {where}", root)
    found = _executable(PYREFLY.name, root)
    if found is None:
        return Missing("python", f"pyrefly is not installed ({INSTALL['pyrefly']})")
    note = ""
    if configured:
        name, where = configured[0]
        note = f"; {where} configures {name}, which is not installed"
    return _checker(PYREFLY, found, f"pinned by forge-types{note}", root)


def typescript_checker(root: Path, near: Path) -> Checker | Missing:
    """The project's own ``tsc`` (or TypeScript 7's ``tsgo``) from ``node_modules/.bin``."""
    for folder in (near, *near.parents):
        for name in ("tsc", "tsgo"):
            exe = folder / "node_modules" / ".bin" / name
            if os.access(exe, os.X_OK):
                return _checker(TSC, exe, f"{_shown(exe, root)}", root)
        if folder == root:
            break
    return Missing(
        "typescript",
        f"no TypeScript compiler in node_modules/.bin ({INSTALL['tsc']}); not checked",
    )


def configured_checkers(root: Path) -> list[tuple[str, str]]:
    """(checker, where) for each checker the project's files configure, preferred first."""
    tables = pyproject_tool(root)
    found: list[tuple[str, str]] = []
    for name, files, table_names in CONFIGURED:
        where = next((f for f in files if (root / f).is_file()), None)
        if where is None:
            table = next((t for t in table_names if t in tables), None)
            where = f"pyproject.toml [tool.{table}]" if table else None
        if where is None and name == "mypy" and _setup_cfg_has_mypy(root):
            where = "setup.cfg [mypy]"
        if where is not None and all(name != seen for seen, _ in found):
            found.append((name, where))
    return found


def project_interpreter(root: Path, option: str | None) -> Path | None:
    """The project's Python: the ``python`` option, else a virtual environment in ``root``.

    None: the checker finds one itself (pyrefly asks ``python3`` on ``PATH``).
    """
    if option:
        path = Path(option).expanduser()
        return path if path.is_absolute() else root / path
    for name in VENV_NAMES:
        candidate = root / name / "bin" / "python"
        if candidate.exists():
            return candidate
    return None


def digest(parts: list[str]) -> str:
    """A short stable hash of ``parts`` (cache keys)."""
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


def config_digest(files: list[Path]) -> str:
    """What the configuration files say, as one hash (a missing file counts as empty)."""
    parts = []
    for path in files:
        try:
            parts.append(path.read_bytes().hex())
        except OSError:
            parts.append("")
    return digest(parts)


def environment_digest(interpreter: Path | None, node_modules: Path | None) -> str:
    """What the environment looks like to a checker: the interpreter and its installed packages."""
    parts: list[str] = []
    if interpreter is not None:
        parts.append(str(interpreter))
        for site in sorted(interpreter.parent.parent.glob("lib/python*/site-packages")):
            parts.append(_stamp(site))
    if node_modules is not None:
        parts.append(_stamp(node_modules / ".package-lock.json"))
        parts.append(_stamp(node_modules))
    return digest(parts)


def _stamp(path: Path) -> str:
    try:
        status = path.stat()
    except OSError:
        return f"{path}:-"
    return f"{path}:{status.st_mtime_ns}:{status.st_size}"


def _setup_cfg_has_mypy(root: Path) -> bool:
    try:
        text = (root / "setup.cfg").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return re.search(r"^\[mypy\]", text, re.MULTILINE) is not None


def _executable(name: str, root: Path) -> Path | None:
    """``name`` in the project's virtual environment, beside forge, or on ``PATH``."""
    folders = [root / venv / "bin" for venv in VENV_NAMES]
    folders.append(Path(sys.executable).parent)
    for folder in folders:
        candidate = folder / name
        if os.access(candidate, os.X_OK) and candidate.is_file():
            return candidate
    found = shutil.which(name)
    return Path(found) if found else None


#: Versions by (executable, mtime): asking a checker costs a process.
_VERSIONS: dict[tuple[str, int], str] = {}
#: Seconds a checker is given to print its version when no package says it. It prints it
#: before any work: one that has not by then is stuck or broken, and is skipped, not
#: waited for (the wait came before anything else, at every call).
VERSION_TIMEOUT = 5.0
#: The npm package each TypeScript compiler comes in.
TS_PACKAGES = {"tsc": "typescript", "tsgo": "@typescript/native-preview"}


def _checker(kind: Kind, exe: Path, source: str, root: Path) -> Checker | Missing:
    version = _version(kind, exe)
    if version is None:
        why = f"did not answer --version within {VERSION_TIMEOUT:g} s"
        if cancelled():
            why = "stopped: the call was cancelled"
        return Missing(kind.language, f"{_shown(exe, root)} {why}; not checked", broken=True)
    return Checker(kind=kind, executable=exe, version=version, source=source)


def _version(kind: Kind, exe: Path) -> str | None:
    """``exe``'s version: from its package when one says it, else asked; None: no answer in time."""
    try:
        key = (str(exe), exe.stat().st_mtime_ns)
    except OSError:
        return "unknown"
    if key in _VERSIONS:
        return _VERSIONS[key]
    version = _package_version(kind, exe) or _asked_version(exe)
    if version is not None:  # a checker that did not answer is asked again next time
        _VERSIONS[key] = version
    return version


def _package_version(kind: Kind, exe: Path) -> str | None:
    """The version from package metadata, without starting the checker."""
    if kind is TSC:
        return _npm_version(exe)
    if exe.parent == Path(sys.executable).parent:
        # From forge's cache of installed versions: importlib.metadata would cost
        # tens of milliseconds before the checker can start.
        from forge.plugin_host.entry_points import installed_version

        return installed_version(kind.name)
    return _venv_version(kind, exe)


def _npm_version(exe: Path) -> str | None:
    """The compiler's version from its npm package: where ``.bin/tsc`` links to, else beside it.

    npm links ``node_modules/.bin/tsc`` to ``../typescript/bin/tsc``; pnpm, yarn and
    copies put a shim there instead, which is no link, so the package is looked
    for in the ``node_modules`` holding ``.bin`` too.
    """
    package_name = TS_PACKAGES.get(exe.name, TS_PACKAGES["tsc"])
    candidates = [exe.resolve().parent.parent / "package.json"]
    if exe.parent.name == ".bin":
        candidates.append(exe.parent.parent.joinpath(*package_name.split("/"), "package.json"))
    for package in candidates:
        try:
            found = json.loads(package.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        if isinstance(found, dict) and found.get("name") == package_name and found.get("version"):
            return str(found["version"])
    return None


def _venv_version(kind: Kind, exe: Path) -> str | None:
    """The version of a checker installed in a virtual environment, from its ``.dist-info``."""
    if exe.parent.name != "bin":
        return None
    pattern = f"lib/python*/site-packages/{kind.name}-*.dist-info"
    found = [path.name for path in exe.parent.parent.glob(pattern)]
    if len(found) != 1:
        return None
    version = found[0][len(kind.name) + 1 : -len(".dist-info")]
    return version if version[:1].isdigit() else None


def _asked_version(exe: Path) -> str | None:
    """What ``exe --version`` prints; None when it does not answer within the timeout."""
    try:
        done = run_tool([str(exe), "--version"], exe.parent, timeout=VERSION_TIMEOUT)
    except CheckerTimedOut:
        return None
    except Exception:  # it cannot start, or printed without end: the run will say why
        # Stopped because the call was (a long-lived engine asks again next call).
        return None if cancelled() else "unknown"
    match = re.search(r"\d+\.\d+(?:\.\d+)?(?:[-.\w]*)", done.stdout + done.stderr)
    return match.group(0) if match else "unknown"


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
