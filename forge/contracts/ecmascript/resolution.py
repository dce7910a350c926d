"""Where a JavaScript-family import leads: the file it names, or why it names none.

Specifiers resolve the way TypeScript and Node do for relative paths: a
``.js`` written in a TypeScript import names the ``.ts`` file (``.mjs``:
``.mts``, ``.cjs``: ``.cts``, ``.jsx``: ``.tsx``), extensionless specifiers
try each extension, a directory means its ``index.*``. Bare specifiers
resolve through the nearest tsconfig's (or jsconfig's) ``paths`` and
``baseUrl``; packages resolve to nothing, and :func:`diagnose` says whether
they are built in, declared or installed.
"""

# Resolution runs for every import of every file: plain os.path strings.
# ruff: noqa: PTH112, PTH113, PTH118, PTH120, PTH122

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

from forge.contracts.ecmascript.node_packages import (
    NodeProject,
    ambient_modules,
    node_builtins,
    node_is_builtin,
    npm_package_name,
    which_node,
)
from forge.contracts.ecmascript.package_exports import (
    CONDITIONS,
    NOT_EXPORTED,
    TYPESCRIPT_CONDITIONS,
    exported_subpaths,
    installed_manifest,
    nearest_manifest,
)
from forge.contracts.ecmascript.tsconfig import tsconfig_for
from forge.contracts.extractor import ImportContext
from forge.contracts.packages import scan_folder
from forge.errors import close_names, did_you_mean

TS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
#: What a JavaScript extension written in a TypeScript import may stand for.
TS_FOR_JS = {
    ".js": (".ts", ".tsx", ".d.ts"),
    ".jsx": (".tsx",),
    ".mjs": (".mts", ".d.mts"),
    ".cjs": (".cts", ".d.cts"),
}
TS_ORDER = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
JS_ORDER = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".d.ts")


def resolve(specifier: str, importer: Path, root: Path, *, typescript: bool) -> Path | None:
    """The file a specifier names: relative (see module docs), or through tsconfig ``paths``/``baseUrl``."""
    typescript = importer.name.endswith(TS_SUFFIXES) or typescript
    if _relative(specifier):
        base = Path(os.path.normpath(importer.parent / specifier))
        return _file(base, typescript) or _from_build(base)
    if ":" in specifier:
        return None
    aliases = tsconfig_for(importer.parent)
    if aliases is not None:
        for base in aliases.targets(specifier):
            found = _file(base, typescript)
            if found is not None:
                return found
        if aliases.base_url is not None:
            found = _file(Path(os.path.normpath(aliases.base_url / specifier)), typescript)
            if found is not None:
                return found
    return _own_package(specifier, importer, typescript)


def _own_package(specifier: str, importer: Path, typescript: bool) -> Path | None:
    """The file a package's own name names inside it (``import ky from 'ky'`` in ky's tests).

    Through its ``package.json`` ``exports`` (or ``main``), and from a build
    output not built yet to its source (:func:`_from_build`).
    """
    package = npm_package_name(specifier)
    own = nearest_manifest(str(importer.parent)) if package else None
    if own is None or package is None or own.name != package:
        return None
    conditions = TYPESCRIPT_CONDITIONS if typescript else CONDITIONS
    entry = own.entry("." + specifier[len(package) :], conditions)
    if entry is None or entry == NOT_EXPORTED:
        return None
    base = Path(os.path.normpath(os.path.join(own.folder, entry)))
    return _file(base, typescript) or _from_build(base)


def _from_build(base: Path) -> Path | None:
    """The source a build output is compiled from, when the output is not built yet.

    Through the nearest tsconfig's ``outDir`` and ``rootDir`` (or its folder
    and ``include`` folders), as TypeScript's project references map them:
    ``dist/source/index.js`` (or ``.d.ts``) is ``source/index.ts``.
    """
    folder = str(base.parent)
    while not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    config = tsconfig_for(Path(folder))
    if config is None:
        return None
    for source in config.source_for(base):
        text = str(source)
        for declaration, compiled in ((".d.ts", ".ts"), (".d.mts", ".mts"), (".d.cts", ".cts")):
            if text.endswith(declaration):
                text = text[: -len(declaration)] + compiled
        found = _file(Path(text), typescript=True)
        if found is not None:
            return found
    return None


def _candidates(base: Path, typescript: bool) -> list[str]:
    """The paths ``base`` (without or with its extension) may name, by TypeScript's and Node's rules."""
    # Strings, not Paths: this runs for every import of every file.
    order = TS_ORDER if typescript else JS_ORDER
    text = str(base)
    stem, written = os.path.splitext(text)
    candidates: list[str] = []
    if written in TS_FOR_JS:
        swapped = [stem + ext for ext in TS_FOR_JS[written]]
        candidates += [*swapped, text] if typescript else [text, *swapped]
    else:
        candidates.append(text)
    candidates += [text + ext for ext in order]
    candidates += [f"{text}/index{ext}" for ext in order]
    if not typescript:  # a declaration file holds no code for a JavaScript importer to run
        candidates = [c for c in candidates if not c.endswith((".d.ts", ".d.mts", ".d.cts"))]
    return candidates


def _file(base: Path, typescript: bool) -> Path | None:
    """The regular file ``base`` names, or None."""
    for candidate in _candidates(base, typescript):
        if os.path.isfile(candidate):
            return Path(candidate)
    return None


def diagnose(
    specifier: str, importer: Path, context: ImportContext, *, typescript: bool
) -> str | None:
    """Why ``specifier`` (which resolved to no file) cannot be imported; None if it can or forge cannot know.

    A relative specifier or a tsconfig path alias must name a file; a
    ``node:`` specifier a Node builtin; a bare one a builtin or a package
    declared in a ``package.json`` or installed in a ``node_modules`` above
    the importer. Without node to ask for its builtins, or with no
    ``package.json`` and no ``node_modules`` at all, forge says nothing.
    """
    if "?" in specifier or "#" in specifier or "*" in specifier:
        return None  # bundler queries, subpath imports, globs: not files to find
    typescript = importer.name.endswith(TS_SUFFIXES) or typescript
    if _relative(specifier):
        base = Path(os.path.normpath(importer.parent / specifier))
        if any(os.path.lexists(c) and not os.path.isdir(c) for c in _candidates(base, typescript)):
            return None  # a FIFO, a device, a broken link: there, but no module to read
        near = _near(specifier, importer.parent, typescript)
        return f"'{specifier}' resolves to no file{did_you_mean(near)}"
    builtins = context.remember("node-builtins", lambda: node_builtins(which_node()))
    if specifier.startswith("node:"):
        if builtins is None or specifier in builtins or specifier[5:] in builtins:
            return None
        asked = context.remember(
            f"node-is-builtin:{specifier}", lambda: node_is_builtin(which_node(), specifier)
        )
        if asked is not False:
            return None  # node:test, node:sea: builtins that builtinModules does not list
        near = close_names(specifier[5:], {b for b in builtins if not b.startswith("_")})
        return (
            f"'{specifier}' is not a Node.js builtin module"
            f"{did_you_mean('node:' + name for name in near)}"
        )
    if ":" in specifier:
        return None  # virtual:, data:, bun: ... schemes forge does not know
    aliases = tsconfig_for(importer.parent)
    if aliases is not None:
        pattern = aliases.pattern_for(specifier)
        if pattern is not None:
            head = specifier.rpartition("/")[0]
            near = [
                f"{head}/{near}" if head else near
                for target in aliases.targets(specifier)
                for near in _near_path(target, typescript)
            ]
            return (
                f"'{specifier}' resolves to no file through the path alias '{pattern}'"
                f"{did_you_mean(near)}"
            )
    package = npm_package_name(specifier)
    if package is None or builtins is None or package in builtins or specifier in builtins:
        return None
    refused = _not_exported(specifier, package, importer)
    if refused is not None:
        return refused
    node = context.remember("node-project", NodeProject)
    if not node.knows(importer.parent) or node.provides(importer.parent, package):
        return None
    first = specifier.split("/")[0]
    if os.path.isdir(context.root / first) or (
        aliases is not None and aliases.base_url and os.path.isdir(aliases.base_url / first)
    ):
        return None  # a bundler alias of a project folder (vite's `src/...`): cannot know
    if typescript:
        ambient = context.remember("ambient-modules", lambda: ambient_modules(context.root))
        if any(fnmatch.fnmatchcase(specifier, declared) for declared in ambient):
            return None
    near = close_names(package, node.names(importer.parent))
    return f"package '{package}' is not installed or declared{did_you_mean(near)}"


def _not_exported(specifier: str, package: str, importer: Path) -> str | None:
    """Why node refuses ``specifier``: a subpath the installed package's ``exports`` does not list.

    Not for the project's own name: its sources may import subpaths its build
    bundles or its monorepo aliases (``@trpc/server/vendor/...``).
    """
    own = nearest_manifest(str(importer.parent))
    if own is not None and own.name == package:
        return None
    found = installed_manifest(str(importer.parent), package)
    if found is None or found.exports is None:
        return None
    subpath = "." + specifier[len(package) :]
    if found.entry(subpath, TYPESCRIPT_CONDITIONS) != NOT_EXPORTED:
        return None
    listed = [key for key in exported_subpaths(found.exports) if "*" not in key]
    near = [package + key[1:] for key in close_names(subpath, set(listed))]
    return (
        f"'{specifier}' is not exported by package '{package}' "
        f"(its package.json \"exports\" has no '{subpath}'){did_you_mean(near)}"
    )


def _near(specifier: str, folder: Path, typescript: bool) -> list[str]:
    """Existing specifiers like ``specifier`` with one path segment respelled."""
    prefix = specifier[: len(specifier) - len(specifier.lstrip("./"))]
    segments = specifier[len(prefix) :].split("/")
    found: list[str] = []
    for index, segment in enumerate(segments):
        current = Path(os.path.normpath(folder / prefix / "/".join(segments[:index])))
        if (current / segment).exists() and index < len(segments) - 1:
            continue
        stem, extension = _split_extension(segment)
        entries = {_split_extension(entry.name)[0]: entry.name for entry in scan_folder(current)}
        for near in close_names(stem, entries):
            respelled = near + extension if extension or index < len(segments) - 1 else near
            candidate = "/".join([*segments[:index], respelled, *segments[index + 1 :]])
            if _file(Path(os.path.normpath(folder / (prefix + candidate))), typescript):
                found.append(prefix + candidate)
        break
    return found


def _near_path(target: Path, typescript: bool) -> list[str]:
    """Existing files like ``target`` (a path alias's target), as paths from the alias base."""
    stem, extension = _split_extension(target.name)
    entries = {_split_extension(entry.name)[0]: entry.name for entry in scan_folder(target.parent)}
    found = []
    for near in close_names(stem, entries):
        if _file(target.with_name(near + extension), typescript) is not None:
            found.append(near + extension)
    return found


def _relative(specifier: str) -> bool:
    return specifier.startswith(("./", "../", "/")) or specifier in {".", ".."}


def _split_extension(name: str) -> tuple[str, str]:
    """``options.d.ts`` -> (``options``, ``.d.ts``); ``utils`` -> (``utils``, ``"")."""
    for extension in (".d.ts", ".d.mts", ".d.cts", *TS_ORDER, ".json"):
        if name.endswith(extension) and len(name) > len(extension):
            return name[: -len(extension)], extension
    return name, ""
