"""What a project can import besides its own files: built-ins, declared and installed packages.

Everything comes from the project's own metadata, never from a list kept in
forge: Python's ``sys.stdlib_module_names`` and the project's interpreter's
standard library folder, the import names the distributions of the
project's virtual environment provide (read with ``importlib.metadata`` over
that environment's ``site-packages``, the way ``packages_distributions()``
maps them), the distributions its manifests declare; Node's own
``builtinModules``, ``node_modules`` folders up the tree and the
``package.json`` files above a file (dependencies of every kind, the
package's own name, its workspaces' names).

Each answer is ``True`` (importable), ``False`` (known absent) or ``None``
(forge cannot know: no environment, no manifest, no node): callers report
only ``False``. Results are cached per process, keyed on the modification
time of what they were read from, so a long-running server sees a package
installed between two calls.
"""

# Resolution runs for every import of every file: plain os.path strings
# here, pathlib objects only for what is returned.
# ruff: noqa: PTH112, PTH113, PTH116, PTH117, PTH118, PTH120, PTH123, PTH207

from __future__ import annotations

import functools
import glob
import importlib.metadata
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: Requirement names at the start of a PEP 508 string or a requirements line.
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
#: Valid npm package names (a scope, then a name), lower case as the registry requires.
_NPM_NAME = re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")
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


# --- Python ----------------------------------------------------------------------


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


def scan_folder(folder: str | os.PathLike[str]) -> list[os.DirEntry[str]]:
    """The entries of ``folder``; none when it cannot be listed."""
    try:
        return list(os.scandir(folder))
    except OSError:
        return []


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
    # Imported here: only a project with Python imports to judge needs them.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

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
    names = {match.group(1) for text in requirements if (match := _REQUIREMENT.match(text))}
    return frozenset(normalize_distribution(name) for name in names)


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _setup_cfg(path: str) -> list[str]:
    import configparser

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


# --- Node ------------------------------------------------------------------------


def npm_package_name(specifier: str) -> str | None:
    """The package a bare specifier names (``@scope/pkg/sub`` -> ``@scope/pkg``); None if invalid."""
    parts = specifier.split("/")
    name = "/".join(parts[:2]) if specifier.startswith("@") else parts[0]
    return name if _NPM_NAME.match(name) else None


@functools.lru_cache(maxsize=4)
def node_builtins(node: str | None) -> frozenset[str] | None:
    """Node's ``builtinModules`` (``fs``, ``node:test``, ...); None without a node to ask."""
    if node is None:
        return None
    import subprocess

    try:
        completed = subprocess.run(
            [node, "-p", "JSON.stringify(require('module').builtinModules)"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
        names = json.loads(completed.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if not isinstance(names, list):
        return None
    return frozenset(str(name) for name in names)


def which_node() -> str | None:
    """The ``node`` on PATH, if any."""
    import shutil

    return shutil.which("node")


@dataclass
class NodeProject:
    """What the ``package.json`` files and ``node_modules`` folders above a file provide.

    One per validate call; folder lookups are memoized on it.
    """

    _manifests: dict[str, frozenset[str]] = field(default_factory=dict)
    _installed: dict[tuple[str, str], bool] = field(default_factory=dict)

    def knows(self, folder: Path) -> bool:
        """Whether the project above ``folder`` was installed: a ``node_modules`` or a lockfile.

        A ``package.json`` alone may be one member of a monorepo whose root
        (and its dependencies) forge does not see, or a published package
        whose development dependencies were stripped: not enough to know.
        """
        return any(
            os.path.isdir(os.path.join(d, "node_modules"))
            or any(os.path.isfile(os.path.join(d, name)) for name in LOCKFILES)
            for d in _parents(str(folder))
        )

    def provides(self, folder: Path, package: str) -> bool:
        """Whether ``package`` is declared above ``folder`` or installed in a ``node_modules`` there."""
        types = "@types/" + package.lstrip("@").replace("/", "__")
        for d in _parents(str(folder)):
            if package in self._declared(d) or types in self._declared(d):
                return True
            for name in (package, types):
                key = (d, name)
                if key not in self._installed:
                    self._installed[key] = os.path.isdir(os.path.join(d, "node_modules", name))
                if self._installed[key]:
                    return True
        return False

    def names(self, folder: Path) -> set[str]:
        """Every declared or installed package above ``folder`` (for suggestions)."""
        found: set[str] = set()
        for d in _parents(str(folder)):
            found |= self._declared(d)
            for entry in scan_folder(os.path.join(d, "node_modules")):
                if entry.name.startswith("@"):
                    found |= {f"{entry.name}/{sub.name}" for sub in scan_folder(entry.path)}
                elif not entry.name.startswith("."):
                    found.add(entry.name)
        return found

    def _declared(self, folder: str) -> frozenset[str]:
        if folder not in self._manifests:
            self._manifests[folder] = _package_json_names(folder)
        return self._manifests[folder]


def _parents(folder: str) -> Iterator[str]:
    current = os.path.realpath(folder)
    while True:
        yield current
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


#: Files a package manager writes when it installs a project.
LOCKFILES = (
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lock",
    "bun.lockb",
)

#: package.json fields that declare dependencies.
DEPENDENCY_FIELDS = (
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
    "bundleDependencies",
    "bundledDependencies",
)


def _package_json_names(folder: str) -> frozenset[str]:
    manifest = _read_json(os.path.join(folder, "package.json"))
    if manifest is None:
        return frozenset()
    names: set[str] = set()
    own = manifest.get("name")
    if isinstance(own, str):
        names.add(own)  # a package may import itself through its exports
    for key in DEPENDENCY_FIELDS:
        value = manifest.get(key)
        names |= set(value) if isinstance(value, dict | list) else set()
    workspaces = manifest.get("workspaces")
    if isinstance(workspaces, dict):
        workspaces = workspaces.get("packages")
    for pattern in workspaces if isinstance(workspaces, list) else ():
        if isinstance(pattern, str):
            names |= _workspace_names(folder, pattern)
    return frozenset(name for name in names if isinstance(name, str))


def _workspace_names(folder: str, pattern: str) -> set[str]:
    names: set[str] = set()
    for match in glob.glob(os.path.join(folder, pattern, "package.json")):
        member = _read_json(match)
        name = member.get("name") if member is not None else None
        if isinstance(name, str):
            names.add(name)
    return names


def _read_json(path: str) -> dict[str, object] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            value = json.load(handle)
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def read_jsonc(path: str) -> dict[str, object] | None:
    """A JSON-with-comments file (``tsconfig.json``): comments and trailing commas allowed."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        return None
    text = re.sub(
        r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S
    )
    text = re.sub(r",(\s*[}\]])", r"\1", text)
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def ambient_modules(root: Path, exclude: Iterable[str] = ("node_modules", ".git")) -> set[str]:
    """Module names declared by ``declare module 'x'`` in the project's ``.d.ts`` files."""
    found: set[str] = set()
    skip = set(exclude)
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in skip and not d.startswith(".")]
        for name in files:
            if not name.endswith(".d.ts"):
                continue
            try:
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                    text = handle.read(1_000_000)
            except OSError:
                continue
            found |= set(re.findall(r"""declare\s+module\s+['"]([^'"]+)['"]""", text))
    return found
