"""What a Python project can import besides its own files: the standard library, its packages.

Everything comes from the project's own metadata, never from a list kept in
forge: Python's ``sys.stdlib_module_names`` and the project's interpreter's
standard library folder, the import names the distributions of the
project's virtual environment provide (read with ``importlib.metadata`` over
that environment's ``site-packages``, the way ``packages_distributions()``
maps them), the distributions its manifests declare. See
:mod:`forge.contracts.packages` for what the answers mean and how long they are kept.
"""

# Resolution runs for every import of every file: plain os.path strings
# here, pathlib objects only for what is returned.
# ruff: noqa: PTH112, PTH116, PTH117, PTH118, PTH120, PTH123, PTH207

from __future__ import annotations

import configparser
import functools
import glob
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forge.contracts.packages import scan_folder

if TYPE_CHECKING:
    import importlib.metadata

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: Requirement names at the start of a PEP 508 string or a requirements line.
_REQUIREMENT = r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)"  # compiled by re on first use
#: Names a Python program can always import that ``sys.stdlib_module_names`` leaves out:
#: the running script, and the standard library of type checkers (``if TYPE_CHECKING:``).
_ALWAYS_IMPORTABLE = frozenset({"__main__", "_typeshed"})


def normalize_distribution(name: str) -> str:
    """A distribution name as PEP 503 compares them, with ``_``: ``PyYAML`` -> ``pyyaml``."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


@dataclass(frozen=True)
class PythonEnvironment:
    """A project's Python environment: the import names it provides."""

    location: Path
    modules: frozenset[str]
    stdlib: frozenset[str]


def find_python_environment(root: Path, configured: str | None) -> Path | None:
    """The project's virtual environment: ``configured``, ``.venv``, ``venv``, ``VIRTUAL_ENV``."""
    candidates = [root / configured] if configured else []
    candidates += [root / ".venv", root / "venv"]
    if os.environ.get("VIRTUAL_ENV"):
        candidates.append(Path(os.environ["VIRTUAL_ENV"]))
    for candidate in candidates:
        if (candidate / "pyvenv.cfg").is_file():
            return candidate
    return None


def python_environment(root: Path, configured: str | None) -> PythonEnvironment | None:
    """The import names of the project's environment; None when it has none (or shares the system's)."""
    location = find_python_environment(root, configured)
    if location is None:
        return None
    config = _pyvenv_cfg(location)
    if config.get("include-system-site-packages", "false").lower() == "true":
        return None  # the system's packages come too: their list is not the project's
    sites = _site_packages(location)
    if not sites:
        return None
    modules: set[str] = set()
    for site in sites:
        modules |= _site_modules(site, _mtime(site))
    return PythonEnvironment(location, frozenset(modules), _stdlib(config.get("home", "")))


def _pyvenv_cfg(location: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    try:
        text = (location / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return values
    for line in text.splitlines():
        key, _, value = line.partition("=")
        values[key.strip().lower()] = value.strip()
    return values


def _site_packages(location: Path) -> list[str]:
    patterns = ("lib/python*/site-packages", "lib64/python*/site-packages", "Lib/site-packages")
    found = [path for pattern in patterns for path in glob.glob(str(location / pattern))]
    return sorted({os.path.realpath(path) for path in found if os.path.isdir(path)})


@functools.lru_cache(maxsize=32)
def _site_modules(site: str, mtime: int) -> frozenset[str]:
    """Top-level import names in ``site`` (``mtime`` keys the cache: an install changes it)."""
    # deferred: a file whose imports resolve without the project's environment never pays ~15 ms
    import importlib.metadata

    names: set[str] = set()
    for distribution in importlib.metadata.distributions(path=[site]):
        names |= _provided(distribution)
        dist_name = distribution.metadata["Name"] if distribution.metadata else None
        if dist_name:
            names.add(normalize_distribution(dist_name))
    for entry in scan_folder(site):
        if entry.name.endswith(".pth"):
            names |= _pth_modules(entry.path)
        elif _module_name(entry) is not None and not entry.name.endswith(".dist-info"):
            names.add(_module_name(entry) or "")
    return frozenset(name.removesuffix("-stubs") for name in names if name)


def _provided(distribution: importlib.metadata.Distribution) -> set[str]:
    """What ``packages_distributions()`` maps to a distribution: top_level.txt, else RECORD."""
    top_level = distribution.read_text("top_level.txt")
    if top_level:
        return {line.strip() for line in top_level.splitlines() if line.strip()}
    names: set[str] = set()
    for file in distribution.files or ():
        parts = file.parts
        if not parts or parts[0] in {"..", "__pycache__"} or parts[0].endswith(".dist-info"):
            continue
        if len(parts) > 1:
            names.add(parts[0])
        elif file.suffix in {".py", ".so", ".pyd"}:
            names.add(parts[0].split(".")[0])
    return names


def _pth_modules(pth: str) -> set[str]:
    """Modules of the folders a ``.pth`` file adds to the path (editable installs)."""
    names: set[str] = set()
    try:
        with open(pth, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return names
    for line in lines:
        line = line.strip()
        if not line or line.startswith(("#", "import ", "import\t")):
            continue
        folder = line if os.path.isabs(line) else os.path.join(os.path.dirname(pth), line)
        for entry in scan_folder(folder):
            name = _module_name(entry)
            if name is not None:
                names.add(name)
    return names


def _module_name(entry: os.DirEntry[str]) -> str | None:
    """The import name a folder entry provides: a package or a module; None for anything else."""
    name = entry.name
    if entry.is_dir():
        return name if name.replace("-stubs", "").isidentifier() else None
    stem, _, suffix = name.partition(".")
    if stem.isidentifier() and (suffix in {"py", "pyi"} or suffix.endswith(("so", "pyd"))):
        return stem
    return None


@functools.lru_cache(maxsize=8)
def _stdlib(home: str) -> frozenset[str]:
    """Standard library names: this interpreter's, and the project interpreter's folder."""
    names = set(sys.stdlib_module_names) | set(sys.builtin_module_names) | _ALWAYS_IMPORTABLE
    if home:
        prefix = os.path.dirname(home.rstrip("/"))
        for folder in glob.glob(os.path.join(prefix, "lib", "python3*")):
            for sub in ("", "lib-dynload"):
                for entry in scan_folder(os.path.join(folder, sub)):
                    name = _module_name(entry)
                    if name is not None and name != "site-packages":
                        names.add(name)
    return frozenset(names)


def python_declared(root: Path) -> frozenset[str]:
    """Distribution names the project declares (normalized), and its own name."""
    return _python_declared(str(root), _manifest_key(root))


def _manifest_key(root: Path) -> tuple[int, ...]:
    names = ("pyproject.toml", "setup.cfg", *sorted(glob.glob(str(root / "requirements*.txt"))))
    return tuple(_mtime(str(root / name)) for name in names)


@functools.lru_cache(maxsize=32)
def _python_declared(root: str, key: tuple[int, ...]) -> frozenset[str]:
    requirements: list[str] = []
    try:
        with open(os.path.join(root, "pyproject.toml"), "rb") as handle:
            document = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        document = {}
    project = document.get("project", {})
    if isinstance(project, dict):
        requirements += _strings([project.get("name")])
        requirements += _strings(project.get("dependencies"))
        for extra in _dict(project.get("optional-dependencies")).values():
            requirements += _strings(extra)
    for group in _dict(document.get("dependency-groups")).values():
        requirements += _strings(group)
    poetry = _dict(_dict(document.get("tool")).get("poetry"))
    requirements += _strings([poetry.get("name")])
    requirements += list(_dict(poetry.get("dependencies")))
    for group in _dict(poetry.get("group")).values():
        requirements += list(_dict(_dict(group).get("dependencies")))
    requirements += _setup_cfg(os.path.join(root, "setup.cfg"))
    for path in glob.glob(os.path.join(root, "requirements*.txt")):
        requirements += _requirement_lines(path)
    names = {match.group(1) for text in requirements if (match := re.match(_REQUIREMENT, text))}
    return frozenset(normalize_distribution(name) for name in names)


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _setup_cfg(path: str) -> list[str]:

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return []
    found = [parser.get("metadata", "name", fallback="")]
    found += parser.get("options", "install_requires", fallback="").splitlines()
    if parser.has_section("options.extras_require"):
        for _, value in parser.items("options.extras_require"):
            found += value.splitlines()
    return found


def _requirement_lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return [line for line in handle if not line.lstrip().startswith(("-", "#"))]
    except OSError:
        return []
