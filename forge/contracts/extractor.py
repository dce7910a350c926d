"""Contract checks' extractor interface: what an extractor returns, and helpers to write one.

Two layers, the second in :mod:`forge.contracts.analysis`:

- The **extractor interface** (:class:`Extractor`) a language plugin attaches
  to its :class:`forge.models.Language` (``extractor=``): it reads one parsed
  file's exports and imports, and resolves the importer's specifiers to files.
  forge ships extractors for Python and for the JavaScript family
  (JavaScript, TypeScript, TSX).
- The **analyzer** (:class:`forge.contracts.analysis.ContractAnalyzer`),
  language-independent: it follows ``export *`` / ``from x import *``
  chains through files that exist, keeps only the imports that resolve to
  the exporter, and names what is missing with a suggestion when a near name
  exists.

Extractors never parse: they receive the workspace's parsed file, so a file
is parsed once per validate call whichever check asks.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import tree_sitter


# --- what an extractor returns -------------------------------------------------


@dataclass(frozen=True)
class ImportedName:
    """One name an importer takes from a module, where it is written (1-based)."""

    name: str
    line: int
    column: int
    #: The local binding (``import greet from``: ``greet``), used for suggestions.
    local: str | None = None
    #: Names read from this one in turn (``ns.b.e``: ``e`` of ``b``), checked when the
    #: module exports ``b`` as a namespace of another (``export * as b from``).
    members: tuple[ImportedName, ...] = ()


@dataclass(frozen=True)
class ImportRef:
    """One import of one module: the specifier as written and the names required from it.

    A side-effect import (``import './x'``), ``export * from`` and
    ``from x import *`` import the module and require no name. ``guarded``
    marks an import whose absence the importer anticipates (Python's ``try:
    ... except ImportError``): its names are listed but never reported missing.
    """

    specifier: str
    line: int
    column: int
    names: tuple[ImportedName, ...] = ()
    guarded: bool = False
    #: The specifier may name a module or not (Python's ``from pkg import name``
    #: may take the submodule ``pkg.name``): its not resolving is no finding.
    tentative: bool = False
    #: Names the importer sets on the imported module (Python's ``config.db = x``):
    #: other files that read them take them from the importer, not the module's code.
    sets: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExportSet:
    """What one file exports, before ``export *`` chains are followed.

    :param names: the names the file itself binds for importers (``default``
        for a default export).
    :param star_sources: specifiers re-exported wholesale (``export * from``,
        ``from .x import *``), with the line they are written on.
    :param star_names: the names a star import of *this* file takes when the
        file says so explicitly (Python's ``__all__``); None: its visible names.
    :param implicit: names importable from the file that are not bindings of it
        and never taken by a star import (a Python package's submodules).
    :param open_reason: why the exports cannot be known (a module-level
        ``__getattr__``, ``module.exports = someCall()``); None when they can.
    :param default_alias: the declared name of the default export
        (``export default function greet``), for suggestions.
    """

    names: frozenset[str] = frozenset()
    star_sources: tuple[tuple[str, int], ...] = ()
    star_names: frozenset[str] | None = None
    implicit: frozenset[str] = frozenset()
    open_reason: str | None = None
    default_alias: str | None = None
    #: Names that are another module's namespace (``export * as b from './b'``,
    #: ``import * as c from './c'; export { c }``), with that module's specifier.
    namespaces: tuple[tuple[str, str], ...] = ()


class ParsedSource(Protocol):
    """The part of :class:`forge.languages.ParsedFile` an extractor reads."""

    @property
    def path(self) -> Path: ...
    @property
    def source(self) -> bytes: ...
    @property
    def tree(self) -> tree_sitter.Tree: ...


@runtime_checkable
class Extractor(Protocol):
    """Reads exports and imports of one language family; attach one to a ``Language``.

    Implementations must be thread-safe and keep no per-file state: the
    analyzer caches what they return for the length of one validate call,
    and what ``imports`` returns for as long as the file is unchanged (kept
    with its tree), so ``imports`` must read nothing but ``parsed``.
    """

    #: Files of one family can import each other (``ecmascript``, ``python``).
    family: str

    def exports(self, parsed: ParsedSource) -> ExportSet:
        """The names ``parsed`` exports (see :class:`ExportSet`)."""
        ...

    def imports(self, parsed: ParsedSource) -> list[ImportRef]:
        """Every import in ``parsed``, in source order, local or not."""
        ...

    def resolve(self, specifier: str, importer: Path, root: Path) -> Path | None:
        """The file ``specifier`` (written in ``importer``) names, or None.

        ``root`` is the working dir (where absolute Python imports start).
        None means "not a local file" (a package, a typo'd path): no pair is
        checked; an extractor's optional ``diagnose`` (see
        :class:`ImportContext`) decides whether that is a finding.
        """
        ...

    def star_visible(self, name: str) -> bool:
        """Whether a star re-export of a module without ``star_names`` takes ``name``."""
        ...


class ImportContext:
    """What an extractor's optional ``diagnose`` may consult, shared over one validate call.

    An extractor that can say why a specifier resolves to nothing defines
    ``diagnose(specifier, importer, context) -> str | None``: a one-line
    finding ("'./x.js' resolves to no file (did you mean './y.js'?)",
    "package 'requets' is not installed or declared"), or None when the
    import is fine or forge cannot know. ``memo`` keeps what it computes
    (environments, manifests) for the rest of the call.
    """

    def __init__(self, root: Path, options: dict[str, Any] | None = None) -> None:
        self.root = root
        #: ``[tool.forge.contract_check]`` (``python-environment``: the project's venv).
        self.options = options or {}
        self.memo: dict[str, Any] = {}

    def remember(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``'s value, computed once per validate call."""
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]


@dataclass(frozen=True)
class ImportProblem:
    """An import that resolves to nothing the project has, and why (one line)."""

    specifier: str
    line: int
    column: int
    message: str


# --- helpers for extractors ----------------------------------------------------


@cache
def query_source(filename: str, package: str) -> str:
    """The text of the query file ``filename`` shipped in ``package``.

    Read from the package's folders, not through ``importlib.resources.files``
    (its readers and :mod:`zipfile` are ~3 ms of a fresh ``forge validate``):
    a package whose grammar is a compiled extension is never imported from a zip.
    """
    for folder in importlib.import_module(package).__path__:  # several: a namespace package
        path = Path(folder, filename)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"no query file {filename} in package {package}")


_queries: dict[tuple[tree_sitter.Language, str, tuple[str, ...]], tree_sitter.Query] = {}


def load_query(language: tree_sitter.Language, *filenames: str, package: str) -> tree_sitter.Query:
    """The query made of ``filenames`` (concatenated) for ``language``, compiled once per grammar."""
    import tree_sitter  # deferred: the tree-sitter runtime (~7 ms) loads with the first parse

    key = (language, package, filenames)  # Language compares and hashes by grammar
    query = _queries.get(key)
    if query is None:
        text = "\n".join(query_source(name, package) for name in filenames)
        query = _queries[key] = tree_sitter.Query(language, text)
    return query


def captures(query: tree_sitter.Query, node: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    """``query``'s captures under ``node``, by capture name."""
    import tree_sitter  # deferred: the tree-sitter runtime (~7 ms) loads with the first parse

    return tree_sitter.QueryCursor(query).captures(node)


def matches(
    query: tree_sitter.Query, node: tree_sitter.Node
) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    """``query``'s matches under ``node``: (pattern index, captures by name)."""
    import tree_sitter  # deferred: the tree-sitter runtime (~7 ms) loads with the first parse

    return tree_sitter.QueryCursor(query).matches(node)


def node_text(node: tree_sitter.Node, source: bytes) -> str:
    """The source text of ``node``."""
    return source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def position(node: tree_sitter.Node, source: bytes) -> tuple[int, int]:
    """1-based line and character column where ``node`` starts."""
    row, byte_column = node.start_point
    start = node.start_byte
    prefix = source[start - byte_column : start]
    column = len(prefix) if prefix.isascii() else len(prefix.decode("utf-8", errors="replace"))
    return row + 1, column + 1


def imported(
    node: tree_sitter.Node, source: bytes, name: str, local: str | None = None
) -> ImportedName:
    """An :class:`ImportedName` positioned at ``node``."""
    line, column = position(node, source)
    return ImportedName(name=name, line=line, column=column, local=local)
