"""Where a Python import leads: the module file it names, or why it names none.

:func:`diagnose` says why an import resolves to no file: a missing module of
the project, or a package the project's environment and manifests do not
provide (see :mod:`forge.contracts.python.packages`).
"""

# Resolution runs once per import specifier, hundreds of times per large file:
# plain os.path strings here, pathlib objects only for what is returned.
# ruff: noqa: PTH112, PTH113, PTH118, PTH119, PTH120, PTH123

from __future__ import annotations

import os
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

from forge.contracts.extractor import ImportContext
from forge.contracts.packages import scan_folder
from forge.contracts.python.packages import (
    normalize_distribution,
    python_declared,
    python_environment,
)
from forge.errors import close_names, did_you_mean
from forge.languages.project_files import nearest_value

#: The files that make a folder a package.
INIT_NAMES = ("__init__.py", "__init__.pyi")


def resolve(specifier: str, importer: Path, root: Path) -> Path | None:
    """The module file of ``specifier`` (``a.b``, ``..x``) written in ``importer``."""
    level = len(specifier) - len(specifier.lstrip("."))
    dotted = specifier[level:]
    parts = dotted.split(".") if dotted else []
    if level:
        base = importer.parent
        for _ in range(level - 1):
            base = base.parent
        return _module_file(str(base), parts, stub=importer.suffix == ".pyi")
    if not parts:
        return None
    for start in _search_roots(importer, root):
        found = _module_file(start, parts, stub=importer.suffix == ".pyi")
        if found is not None:
            return found
    return None


def diagnose(specifier: str, importer: Path, context: ImportContext) -> str | None:
    """Why ``specifier`` (which resolved to no file) cannot be imported; None if it can or forge cannot know.

    A relative import, or an absolute one into a package of the project,
    must name a module that exists; any other absolute import must name
    the standard library or a package the project's environment provides
    or its manifests declare. Without an environment forge cannot map
    import names to distributions, so it says nothing about packages.
    """
    level = len(specifier) - len(specifier.lstrip("."))
    parts = [part for part in specifier[level:].split(".") if part]
    if not parts:
        return None  # `from . import x`: the package itself, maybe a namespace package
    if level:
        base = str(importer.parent)
        for _ in range(level - 1):
            base = os.path.dirname(base)
        if _module_exists(base, parts) or _rewires_imports(base, parts):
            return None
        candidates = _near_modules(base, parts, "." * level)
        for other in range(1, level + 3):  # one level too deep or too shallow
            up = str(importer.parent)
            for _ in range(other - 1):
                up = os.path.dirname(up)
            if other != level and _module_exists(up, parts) and _is_package(up):
                candidates.append("." * other + ".".join(parts))
        return f"'{specifier}' resolves to no module{did_you_mean(candidates)}"
    top = parts[0]
    for start in _search_roots(importer, context.root):
        if not (_is_package(os.path.join(start, top)) or _is_module(start, top)):
            if os.path.isdir(os.path.join(start, top)):
                return None  # a namespace package may have other portions: cannot know
            continue
        if _module_exists(start, parts) or _rewires_imports(start, parts):
            return None
        roots = _search_roots(importer, context.root)
        if any(_module_exists(other, parts) for other in roots):
            # A build assembles one package from several source folders
            # (pyyaml's setup.py compiles yaml/_yaml.pyx into the yaml package
            # it takes from lib/): the module is there once built.
            return None
        # Respellings from every root, the closest kept ('yaml._yaml' for
        # 'yaml._yamll', not lib's 'yaml.cyaml' too).
        near = [found for other in roots for found in _near_modules(other, parts, "")]
        candidates = close_names(specifier, near)
        return f"'{specifier}' resolves to no module{did_you_mean(candidates)}"
    for folder in [*_ancestors(importer.parent, context.root), *_pytest_paths(context.root)]:
        if _is_module(folder, top) or os.path.isdir(os.path.join(folder, top)):
            return None  # on the path of a runner that adds it (pytest's rootdir, conftest)
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        # Every environment's standard library holds this interpreter's names
        # (python_packages._stdlib): no need to scan the project's packages.
        return None
    environment = context.remember(
        "python-environment",
        lambda: python_environment(context.root, context.options.get("python-environment")),
    )
    stdlib = environment.stdlib if environment is not None else sys.stdlib_module_names
    if top in stdlib or environment is None:
        return None
    declared = context.remember("python-declared", lambda: python_declared(context.root))
    if top in environment.modules or normalize_distribution(top) in declared:
        return None
    candidates = close_names(top, environment.modules | declared)
    return f"package '{top}' is not installed or declared{did_you_mean(candidates)}"


def _module_file(base: str, parts: list[str], *, stub: bool = False) -> Path | None:
    """The file ``parts`` names under ``base``: its source first, or its stub first for a stub.

    A stub (``.pyi``) importer is read by type checkers only, and they prefer
    the stub beside a source: attrs' stubs import aliases only stubs define.
    """
    if not parts:
        found = [os.path.join(base, name) for name in INIT_NAMES]
    else:
        # One stat rules out most absolute imports (installed packages)
        # before the four candidate files are tried.
        folder = os.path.join(base, *parts[:-1])
        if not os.path.isdir(folder):
            return None
        stem = os.path.join(folder, parts[-1])
        found = [stem + ".py", stem + "/__init__.py", stem + ".pyi", stem + "/__init__.pyi"]
    if stub:
        found = [name for name in found if name.endswith(".pyi")] + [
            name for name in found if name.endswith(".py")
        ]
    for candidate in found:
        if os.path.isfile(candidate):
            return Path(candidate)
    return None


def _pytest_paths(root: Path) -> list[str]:
    """The folders pytest puts on ``sys.path`` (``pythonpath`` of ``[tool.pytest.ini_options]``)."""
    found = nearest_value(root, "pyproject.toml", _pytest_pythonpath)
    return [os.path.join(root, entry) for entry in found.split("\0")] if found else []


def _pytest_pythonpath(contents: bytes) -> str | None:
    tool = tomllib.loads(contents.decode("utf-8")).get("tool")
    pytest = tool.get("pytest") if isinstance(tool, dict) else None
    options = pytest.get("ini_options") if isinstance(pytest, dict) else None
    value = options.get("pythonpath") if isinstance(options, dict) else None
    entries = value.split() if isinstance(value, str) else value
    if isinstance(entries, list) and entries and all(isinstance(e, str) for e in entries):
        return "\0".join(entries)
    return None


def _search_roots(importer: Path, root: Path) -> list[str]:
    """Where absolute imports start: above the importer's top package, the working dir, ``src/``."""
    top, parent = os.path.split(importer)[0], ""
    while top != parent and os.path.isfile(top + "/__init__.py"):
        top, parent = os.path.split(top)[0], top
    return list(dict.fromkeys([top, str(root), os.path.join(root, "src")]))


#: Sources of importable modules: Python, stubs, and Cython (``_yaml.pyx``), compiled
#: by the project's build into an extension module of that name.
_SOURCE_SUFFIXES = (".py", ".pyi", ".pyx")


def _is_module(folder: str, name: str) -> bool:
    """Whether ``folder`` holds the module ``name`` (source, stub, Cython source or compiled extension)."""
    stem = os.path.join(folder, name)
    if any(os.path.lexists(stem + suffix) for suffix in _SOURCE_SUFFIXES):  # a FIFO is there too
        return True
    return any(
        entry.name.startswith(name + ".") and entry.name.endswith((".so", ".pyd"))
        for entry in scan_folder(folder)
    )


def _is_package(folder: str) -> bool:
    return any(os.path.isfile(os.path.join(folder, name)) for name in INIT_NAMES)


def _module_exists(base: str, parts: list[str]) -> bool:
    """Whether ``parts`` names a module, a package or a namespace folder under ``base``."""
    folder = os.path.join(base, *parts)
    return os.path.isdir(folder) or _is_module(os.path.dirname(folder), parts[-1])


def _rewires_imports(base: str, parts: list[str]) -> bool:
    """Whether a module on the way to ``parts`` edits ``__path__`` or ``sys.modules``,
    or a module of a package on the way installs an import hook.

    Such a module (requests' ``packages.py`` aliases ``requests.packages.urllib3``;
    toolz's ``tlz/_build_tlz.py`` appends a finder to ``sys.meta_path`` that
    serves ``tlz.curried`` from ``toolz.curried``) makes submodules importable
    that no file holds: forge cannot know them.
    """
    for end in range(1, len(parts)):
        folder = os.path.join(base, *parts[:end])
        source = os.path.join(folder, "__init__.py") if os.path.isdir(folder) else folder + ".py"
        text = _read(source)
        if "__path__" in text or "sys.modules" in text:
            return True
        if os.path.isdir(folder) and any(
            "sys.meta_path" in _read(module) for module in _package_modules(folder)
        ):
            return True
    return False


def fills_its_package(init: Path, modules: set[str]) -> str | None:
    """Why a package's names are made at run time by one of ``modules``, or None.

    ``modules`` are the package's modules its ``__init__`` imports (``from .
    import _build_tlz``): toolz's ``tlz/_build_tlz.py`` copies ``toolz``'s
    names into ``sys.modules['tlz']``. A module that reaches its package
    through ``sys.modules`` by name (or ``__package__``) can give it any name.
    """
    folder = str(init.parent)
    name = _package_name(folder)
    keys = [f"sys.modules[{quote}{name}{quote}]" for quote in ("'", '"')]
    keys.append("sys.modules[__package__]")
    for module in sorted(modules):
        text = _read(os.path.join(folder, module + ".py"))
        if "sys.modules[" in text and any(key in text for key in keys):
            return f"{module}.py fills the package through sys.modules"
    return None


def _package_name(folder: str) -> str:
    """The dotted name of the package in ``folder`` (its parents with ``__init__.py`` too)."""
    names = [os.path.basename(folder)]
    parent = os.path.dirname(folder)
    while _is_package(parent) and parent != os.path.dirname(parent):
        names.append(os.path.basename(parent))
        parent = os.path.dirname(parent)
    return ".".join(reversed(names))


def _package_modules(folder: str) -> list[str]:
    """The ``.py`` files directly in a package folder."""
    return [
        entry.path
        for entry in scan_folder(folder)
        if entry.is_file() and entry.name.endswith(".py")
    ]


def _read(path: str) -> str:
    """The text of ``path``; empty when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def _near_modules(base: str, parts: list[str], prefix: str) -> list[str]:
    """Specifiers like ``prefix + parts`` that exist, one segment respelled."""
    for index in range(len(parts)):
        folder = os.path.join(base, *parts[:index])
        if _module_exists(base, parts[: index + 1]):
            continue
        names = {
            name
            for entry in scan_folder(folder)
            if (name := Path(entry.name).stem if entry.is_file() else entry.name).isidentifier()
        }
        found = []
        for near in close_names(parts[index], names - {"__init__"}):
            respelled = [*parts[:index], near, *parts[index + 1 :]]
            if _module_exists(base, respelled):
                found.append(prefix + ".".join(respelled))
        return found
    return []


def _ancestors(folder: Path, root: Path) -> list[str]:
    """``folder`` and its parents up to ``root`` (none when ``folder`` is outside it)."""
    found: list[str] = []
    current = str(folder)
    while current.startswith(str(root)):
        found.append(current)
        if current == str(root):
            break
        current = os.path.dirname(current)
    return found
