"""Python methods left empty that override a method doing real work in a base class of another file.

``class Quiet(Handler): def emit(self, record): pass`` turns off what
``Handler.emit`` does: a deliberate "disable this". The same empty body over a
member the base only declares (``@abstractmethod``, ``raise
NotImplementedError``, ``pass``) is the member left unimplemented, still a
placeholder. A base is followed through the file's imports to the project's
files, the way forge's contract check resolves them (the language's
extractor), then through that class's own bases, left to right, depth first.
Classes outside the project (the standard library, installed packages) are
not read: their members are not known, and nothing is exempted for them.

A drop-in is judged the same way against the class it replaces: a class
another listed file assigns over a class of the project
(``urllib3.connection.HTTPSConnection = EmscriptenHTTPSConnection``).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

from forge.languages import NotParsed, ParsedFile
from forge.workspace import Workspace
from forge_stubs import python_classes
from forge_stubs.options import PLUGIN_NAME
from forge_stubs.source import Source

#: How many files or bases deep a base is followed (re-exports, a chain of bases).
MAX_DEPTH = 8


#: A class assigned over another where the program runs: (its file, its name,
#: the file and name of the class it replaces). Files as normalised path strings.
Replacement = tuple[str, str, str, str]


def concrete_overrides(
    parsed: ParsedFile, workspace: Workspace, replaced: frozenset[Replacement] = frozenset()
) -> frozenset[str]:
    """The methods (``Class.method``) of ``parsed`` left empty over a method doing real work.

    That method is a base's, in another file (one a class of the same file
    defines is the sibling rule's, :mod:`forge_stubs.python_classes`), or, for a
    class that ``replaced`` says is assigned over another class (a drop-in:
    ``urllib3.connection.HTTPSConnection = EmscriptenHTTPSConnection``), the
    replaced class's. Empty for files of other languages, or a language without
    an import extractor.
    """
    if parsed.language.name != "python" or parsed.language.extractor is None:
        return frozenset()
    candidates = _candidates(parsed)
    if not candidates:
        return frozenset()
    # What a base holds depends on other files: looked up again on every call.
    lookup = _Lookup(workspace)
    here = os.path.normpath(parsed.path)
    stands_for: dict[str, list[tuple[str, str]]] = {}
    for file, cls, other, name in replaced:
        if file == here:
            stands_for.setdefault(cls, []).append((other, name))
    found = set()
    for cls, method in candidates:
        verdict = lookup.inherited(parsed, cls, method, set(), 0)
        for other, name in stands_for.get(cls, []) if verdict is None else []:
            holder = lookup.parsed(Path(other))
            verdict = lookup.defined(holder, name, method, set(), 0) if holder else None
            if verdict is not None:
                break
        if verdict is True:
            found.add(f"{cls}.{method}")
    return frozenset(found)


def replaced_in(files: list[str], workspace: Workspace) -> frozenset[Replacement]:
    """The project's classes the listed files assign over other classes of the project.

    ``urllib3.connection.HTTPSConnection = EmscriptenHTTPSConnection`` (in
    urllib3's ``contrib/emscripten/__init__.py``) makes the Emscripten class a
    drop-in for ``HTTPSConnection``: its empty ``set_cert`` turns off what
    ``HTTPSConnection.set_cert`` does. Both names are followed through the
    assigning file's imports; a target that is not a class of the project
    (``Pool.ConnectionCls``, ``socket.socket``) gives nothing.
    """
    listed = []
    for file in files:
        try:
            parsed = workspace.parse(workspace.resolve(file))
        except NotParsed:
            continue
        if parsed is not None and parsed.language.name == "python":
            listed.append(parsed)
    # Only a class with an empty method can be exempted: the others' assignments
    # are not followed (following one resolves imports, on every call).
    emptied = {cls for parsed in listed for cls, _ in _candidates(parsed)}
    lookup = _Lookup(workspace)
    found = set()
    for parsed in listed:
        # Kept with the file's tree: what it assigns depends on its source alone.
        assigned = parsed.derived((PLUGIN_NAME, "class assignments"), partial(_assignments, parsed))
        for target, value in assigned:
            if value not in emptied:
                continue
            replacing = lookup.locate(parsed, value, 0)
            original = lookup.locate(parsed, target, 0) if replacing is not None else None
            if replacing is not None and original is not None and replacing != original:
                found.add(
                    (
                        os.path.normpath(replacing[0].path),
                        replacing[1],
                        os.path.normpath(original[0].path),
                        original[1],
                    )
                )
    return frozenset(found)


class _Lookup:
    """Bases followed across the project's files, for one validate call."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        # Several methods of a file share its bases: each import is resolved once
        # per lookup, which lives for one file of one validate call.
        self._modules: dict[tuple[Path, str], ParsedFile | None] = {}

    def inherited(
        self, parsed: ParsedFile, cls: str, method: str, seen: set[tuple[Path, str]], depth: int
    ) -> bool | None:
        """Whether the first base of ``cls`` defining ``method`` does real work; None if none does."""
        if depth > MAX_DEPTH or (parsed.path, cls) in seen:
            return None
        seen.add((parsed.path, cls))
        shape = _shapes(parsed).get(cls)
        for base in shape.bases if shape is not None else ():
            found = self.locate(parsed, base, depth)
            verdict = self.defined(*found, method, seen, depth + 1) if found else None
            if verdict is not None:
                return verdict
        return None

    def defined(
        self, parsed: ParsedFile, cls: str, method: str, seen: set[tuple[Path, str]], depth: int
    ) -> bool | None:
        """Whether ``cls``'s ``method``, its own or inherited, does real work; None if it has none."""
        shape = _shapes(parsed).get(cls)
        if shape is not None and method in shape.methods:
            return shape.methods[method]
        return self.inherited(parsed, cls, method, seen, depth)

    def parsed(self, path: Path) -> ParsedFile | None:
        """``path`` parsed, if it is a Python file forge can read."""
        try:
            found = self.workspace.parse(path)
        except NotParsed:
            return None
        return found if found is not None and found.language.name == "python" else None

    def locate(self, parsed: ParsedFile, base: str, depth: int) -> tuple[ParsedFile, str] | None:
        """The file and name of the class ``base`` (as written in ``parsed``), if in the project.

        A name imported from a module that imports it in turn (a package's
        ``__init__.py`` re-exporting it) is followed to where it is defined.
        """
        if depth > MAX_DEPTH:
            return None
        module, _, name = base.rpartition(".")
        if not module and name in _shapes(parsed):
            return parsed, name
        for specifier, original, local in self._imports(parsed):
            if not module and local == name:
                holder = self._module(parsed, specifier)
                return self.locate(holder, original, depth + 1) if holder else None
            if module and local == module:
                # `base.NetworkStream` after `from . import base`, or after `import pkg.base`.
                holder = self._module(parsed, _submodule(specifier, original)) or self._module(
                    parsed, specifier
                )
                return self.locate(holder, name, depth + 1) if holder else None
        return None

    def _imports(self, parsed: ParsedFile) -> tuple[tuple[str, str, str], ...]:
        """(specifier, name, local name) of each name ``parsed`` imports (see :func:`_bindings`)."""
        # Kept with the file's tree: what a file imports depends on its source alone.
        return parsed.derived((PLUGIN_NAME, "imports"), partial(_bindings, parsed))

    def _module(self, parsed: ParsedFile, specifier: str) -> ParsedFile | None:
        """The project's Python file ``specifier`` names, parsed; None outside the project."""
        key = (parsed.path, specifier)
        if key not in self._modules:
            self._modules[key] = self._read_module(parsed, specifier)
        return self._modules[key]

    def _read_module(self, parsed: ParsedFile, specifier: str) -> ParsedFile | None:
        extractor = parsed.language.extractor
        target = (
            extractor.resolve(specifier, parsed.path, self.workspace.cwd) if extractor else None
        )
        return self.parsed(target) if target is not None else None


def _bindings(parsed: ParsedFile) -> tuple[tuple[str, str, str], ...]:
    """(specifier, name, local name) of each name ``parsed`` imports.

    ``import pkg.base`` binds ``pkg.base`` itself: (``pkg.base``, ``""``, ``pkg.base``);
    ``import pkg.base as b`` is not followed (the extractor keeps no alias).
    """
    extractor = parsed.language.extractor
    found: list[tuple[str, str, str]] = []
    for ref in extractor.imports(parsed) if extractor is not None else []:
        if ref.tentative:
            continue
        taken = [item for item in ref.names if item.local is not None]
        found.extend((ref.specifier, item.name, str(item.local)) for item in taken)
        if not taken:  # a plain import: its names are the attributes the file uses
            found.append((ref.specifier, "", ref.specifier))
    return tuple(found)


def _candidates(parsed: ParsedFile) -> tuple[tuple[str, str], ...]:
    """(class, method) of each empty method of ``parsed``'s top-level classes."""
    # Kept with the file's tree: they depend on its source alone.
    return parsed.derived(
        (PLUGIN_NAME, "override candidates"),
        partial(_override_candidates, parsed),
    )


def _override_candidates(parsed: ParsedFile) -> tuple[tuple[str, str], ...]:
    return python_classes.override_candidates(Source(parsed.source, parsed.tree))


def _assignments(parsed: ParsedFile) -> tuple[tuple[str, str], ...]:
    return python_classes.class_assignments(Source(parsed.source, parsed.tree))


def _shapes(parsed: ParsedFile) -> dict[str, python_classes.ClassShape]:
    # Kept with the file's tree: a class's bases and methods depend on its source alone.
    return parsed.derived(
        (PLUGIN_NAME, "class shapes"),
        lambda: python_classes.class_shapes(Source(parsed.source, parsed.tree)),
    )


def _submodule(specifier: str, name: str) -> str:
    """``from . import base`` names the module ``.base``; ``from pkg import m``, ``pkg.m``."""
    if not name:
        return specifier
    return specifier + name if specifier.endswith(".") else f"{specifier}.{name}"
