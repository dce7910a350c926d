"""What a Node project can import besides its own files: built-ins, declared and installed packages.

Everything comes from the project's own metadata, never from a list kept in
forge: Node's own ``builtinModules``, ``node_modules`` folders up the tree and the
``package.json`` files above a file (dependencies of every kind, the
package's own name, its workspaces' names). See
:mod:`forge.contracts.packages` for what the answers mean and how long they are kept.
"""

# Resolution runs for every import of every file: plain os.path strings
# here, pathlib objects only for what is returned.
# ruff: noqa: PTH112, PTH113, PTH118, PTH120, PTH123, PTH207

from __future__ import annotations

import functools
import glob
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forge.contracts.packages import scan_folder

#: Valid npm package names (a scope, then a name), lower case as the registry requires.
_NPM_NAME = re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")


def npm_package_name(specifier: str) -> str | None:
    """The package a bare specifier names (``@scope/pkg/sub`` -> ``@scope/pkg``); None if invalid."""
    parts = specifier.split("/")
    name = "/".join(parts[:2]) if specifier.startswith("@") else parts[0]
    return name if _NPM_NAME.match(name) else None


@functools.lru_cache(maxsize=4)
def node_builtins(node: str | None) -> frozenset[str] | None:
    """Node's ``builtinModules`` (``fs``, ``node:test``, ...); None without a node to ask."""
    names = _ask_node(node, "require('module').builtinModules")
    if not isinstance(names, list):
        return None
    return frozenset(str(name) for name in names)


@functools.lru_cache(maxsize=64)
def node_is_builtin(node: str | None, specifier: str) -> bool | None:
    """Node's own ``module.isBuiltin(specifier)``; None when there is no node to ask or it cannot say.

    ``builtinModules`` leaves out the modules only reachable with the
    ``node:`` prefix (``node:test``, ``node:sea``, ``node:test/reporters``)
    before Node 23: a ``node:`` specifier missing from it is asked about
    before it is called unknown. Node older than 18.6 has no ``isBuiltin``.
    """
    answer = _ask_node(node, "require('module').isBuiltin?.(process.argv[1]) ?? null", specifier)
    return answer if isinstance(answer, bool) else None


def _ask_node(node: str | None, expression: str, *args: str) -> Any:
    """The JSON value of ``expression`` evaluated by ``node`` (``process.argv[1:]`` = ``args``).

    None when there is no node, it fails, or its answer is not JSON.
    """
    if node is None:
        return None

    try:
        completed = subprocess.run(
            [node, "-p", f"JSON.stringify({expression})", *args],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
        return json.loads(completed.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def which_node() -> str | None:
    """The ``node`` on PATH, if any."""
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
