"""Languages and what parsing yields: which grammar a file needs, its tree, or why none.

- :class:`LanguageRegistry`: the languages the ``forge_languages`` hook
  registered, by name and by extension, each grammar loaded at most once.
- :class:`ParsedFile`: one file's tree, shared by every check that asks;
  :class:`NotParsed`: a file of a known language that has no tree, and why.

Reading files and keeping their trees is :mod:`forge.languages.parse_cache`'s job.
Checks never parse on their own: they call ``workspace.parse(path)``.
``tree_sitter`` is imported only when a grammar is first needed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from forge.errors import ForgeError
from forge.models import Language, SyntaxAuthority
from forge.plugin_host.records import PluginProblem as RegistryProblem
from forge.plugin_host.records import describe_exception

if TYPE_CHECKING:
    import tree_sitter

    from forge.plugin_host.host import PluginHost

T = TypeVar("T")

NotParsedReason = Literal[
    "missing", "not_a_file", "unreadable", "too_large", "not_text", "no_grammar"
]
#: Why a file has no tree that is forge's environment, not the file's content: the file
#: is not judged at all (never a pass, never the worker's failure).
UNJUDGED_REASONS: frozenset[NotParsedReason] = frozenset({"unreadable", "too_large"})


class NotParsed(ForgeError):
    """A file of a known language that has no tree, and why.

    ``reason`` is one of ``missing``, ``not_a_file`` (a folder, a FIFO),
    ``unreadable`` (the OS refused), ``too_large``, ``not_text`` (not UTF-8, or
    NUL bytes) and ``no_grammar`` (the language's plugin could not load its
    grammar; ``plugin`` names it). The message is one line fit to show as is.
    """

    def __init__(
        self, path: Path, reason: NotParsedReason, message: str, *, plugin: str | None = None
    ) -> None:
        super().__init__(message)
        self.path = path
        self.reason: NotParsedReason = reason
        self.plugin = plugin

    @property
    def unjudged(self) -> bool:
        """Whether forge's environment kept it from judging the file (over the parse limit,
        unreadable) rather than the file being wrong: see :data:`UNJUDGED_REASONS`."""
        return self.reason in UNJUDGED_REASONS


@dataclass(frozen=True, eq=False)
class ParsedFile:
    """One file's tree. Shared between checks and threads: never ``tree.edit()`` it.

    ``source`` is the UTF-8 text that was parsed (transcoded when the file
    declared another encoding, without a UTF-8 byte-order mark), so node byte
    offsets index into it. ``encoding`` is the file's encoding on disk.
    """

    path: Path
    source: bytes
    tree: tree_sitter.Tree
    language: Language
    encoding: str = "utf-8"
    _derived: dict[Hashable, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def has_derived(self, key: Hashable) -> bool:
        """Whether :meth:`derived` already holds a value for ``key``."""
        return key in self._derived

    def derived(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, computed once per ``key`` for as long as this tree is the file's.

        What a check learns from a file (its syntax verdict, its imports, its
        placeholders) is kept with its tree: the parse cache hands the same
        :class:`ParsedFile` to every call while the file is unchanged on disk,
        and a new one (with nothing derived yet) once it changes. That is the
        whole invalidation rule, so ``compute`` must depend on nothing but
        this file's path, language and source, and what ``key`` holds: put
        every other input (options, the target as listed, the working dir) in
        the key. Start the key with your check's or plugin's name. Values are
        shared between calls and threads: return immutable values. Two threads
        may compute one key at once; the later value is kept.
        """
        try:
            return self._derived[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._derived[key] = compute()
            return value

    @property
    def has_errors(self) -> bool:
        """True when the tree holds ERROR or MISSING nodes."""
        return bool(self.tree.root_node.has_error)

    def line(self, row: int) -> bytes:
        """The 0-based ``row``-th line of ``source``, without its line break."""
        start = 0
        for _ in range(row):
            start = self.source.find(b"\n", start) + 1
            if start == 0:
                return b""
        end = self.source.find(b"\n", start)
        return self.source[start : len(self.source) if end < 0 else end].rstrip(b"\r")


@dataclass
class _Entry:
    language: Language
    plugin: str


class LanguageRegistry:
    """Languages by name and extension, and their grammars, loaded lazily once each."""

    def __init__(self) -> None:
        self._by_name: dict[str, _Entry] = {}
        self._by_extension: dict[str, str] = {}
        self.problems: list[RegistryProblem] = []
        self._grammars: dict[str, tree_sitter.Language] = {}
        self._grammar_errors: dict[str, str] = {}
        self._authorities: dict[str, SyntaxAuthority | None] = {}
        self._authority_errors: dict[str, str] = {}
        self._lock = threading.Lock()
        self._local = threading.local()

    @classmethod
    def from_plugins(cls, host: PluginHost) -> LanguageRegistry:
        """Build the registry from every ``forge_languages`` implementation.

        A plugin that raises or returns something other than a list of
        :class:`Language` is recorded in :attr:`problems` and the others still
        register. Languages register in plugin registration order (forge's
        own first, then third parties by name), so on a conflict the later
        plugin is the one reported and not used. Fallback languages register
        after all others, so they give way to them whatever the order.
        """
        registry = cls()
        offered: list[tuple[str, Language]] = []
        # call runs in pluggy's call order, last registered first.
        for returned in reversed(list(host.call("forge_languages", Language))):
            if returned.failure is not None:
                problem = RegistryProblem(returned.plugin, f"forge_languages {returned.failure}")
                registry.problems.append(problem)
                continue
            offered.extend((returned.plugin, language) for language in returned.items)
        for plugin, language in sorted(offered, key=lambda pair: pair[1].fallback):
            registry.add(language, plugin)
        return registry

    def add(self, language: Language, plugin: str) -> None:
        """Register ``language`` for ``plugin``; a conflict is recorded, never raised.

        A non-fallback language that clashes (name or extension) with one
        already registered is not used at all, and the problem names both
        plugins. A fallback language silently drops what is already taken.
        """
        taken = self._by_name.get(language.name)
        if taken is not None:
            if not language.fallback:
                self._conflict(plugin, f"language {language.name!r}", taken)
            return
        clashes = {
            ext: self._by_name[self._by_extension[ext]]
            for ext in language.extensions
            if ext in self._by_extension
        }
        extensions = language.extensions
        if clashes:
            if not language.fallback:
                ext, entry = next(iter(clashes.items()))
                self._conflict(plugin, f"extension {ext!r} of language {language.name!r}", entry)
                return
            extensions = tuple(ext for ext in extensions if ext not in clashes)
            if not extensions:
                return
        self._by_name[language.name] = _Entry(language, plugin)
        for extension in extensions:
            self._by_extension[extension] = language.name

    def _conflict(self, plugin: str, what: str, taken: _Entry) -> None:
        self.problems.append(
            RegistryProblem(
                plugin,
                f"plugin {plugin!r} registers {what}, already registered by plugin "
                f"{taken.plugin!r} (language {taken.language.name!r}); {plugin!r}'s "
                f"language is not used: disable one of the two plugins",
            )
        )

    def __iter__(self) -> Iterator[Language]:
        """The registered languages, sorted by name."""
        return iter(self._by_name[name].language for name in sorted(self._by_name))

    def __len__(self) -> int:
        """How many languages are registered."""
        return len(self._by_name)

    def get(self, name: str) -> Language | None:
        """The language called ``name``, or None."""
        entry = self._by_name.get(name)
        return entry.language if entry else None

    def plugin_of(self, name: str) -> str:
        """The plugin that registered language ``name`` (``KeyError`` when unknown)."""
        return self._by_name[name].plugin

    def by_plugin(self) -> dict[str, list[str]]:
        """Registered language names grouped by the plugin that provided them, sorted."""
        grouped: dict[str, list[str]] = {}
        for name in sorted(self._by_name):
            grouped.setdefault(self._by_name[name].plugin, []).append(name)
        return grouped

    def extensions(self, name: str) -> list[str]:
        """The extensions that really map to language ``name`` (after conflicts)."""
        return sorted(ext for ext, owner in self._by_extension.items() if owner == name)

    def for_path(self, path: Path | str) -> Language | None:
        """The language of ``path`` by its extension, longest match first (``.d.ts``)."""
        name = (path if isinstance(path, Path) else Path(path)).name.lower()
        dot = name.find(".", 1)
        while dot > 0:
            owner = self._by_extension.get(name[dot:])
            if owner is not None:
                return self._by_name[owner].language
            dot = name.find(".", dot + 1)
        return None

    def grammar(self, name: str) -> tree_sitter.Language:
        """Language ``name``'s grammar, loaded on first use; :class:`NotParsed` if it cannot be."""
        grammar = self._grammars.get(name)
        if grammar is not None:
            return grammar
        with self._lock:
            if name not in self._grammars and name not in self._grammar_errors:
                self._load(name)
        if name in self._grammar_errors:
            raise NotParsed(
                Path(), "no_grammar", self._grammar_errors[name], plugin=self.plugin_of(name)
            )
        return self._grammars[name]

    def _load(self, name: str) -> None:

        import tree_sitter  # deferred: the tree-sitter runtime (~7 ms) loads with the first parse

        entry = self._by_name[name]
        try:
            loaded = entry.language.load_grammar()
            grammar = loaded if isinstance(loaded, tree_sitter.Language) else None
            if grammar is None:
                grammar = tree_sitter.Language(loaded)
        except Exception as exc:  # a plugin's grammar must not take forge down
            self._grammar_errors[name] = (
                f"plugin {entry.plugin!r} could not load the {name} grammar: "
                f"{describe_exception(exc)}"
            )
        else:
            self._grammars[name] = grammar

    def authority(self, name: str) -> SyntaxAuthority | None:
        """Language ``name``'s syntax authority, loaded on first use; None when it has none.

        A loader that raises is recorded (:meth:`decider` shows it) and
        tree-sitter decides alone, as when the authority is not installed.
        """
        with self._lock:
            if name not in self._authorities:
                self._authorities[name] = self._load_authority(name)
            return self._authorities[name]

    def _load_authority(self, name: str) -> SyntaxAuthority | None:

        entry = self._by_name[name]
        if entry.language.authority is None:
            return None
        try:
            loaded = entry.language.authority()
        except Exception as exc:  # a plugin's parser must not take forge down
            self._authority_errors[name] = describe_exception(exc)
            return None
        return loaded if isinstance(loaded, SyntaxAuthority) else None

    def decider(self, name: str) -> str:
        """Which parser decides whether a file of language ``name`` parses, in words."""
        authority = self.authority(name)
        if authority is not None:
            return authority.name
        if name in self._authority_errors:
            return f"tree-sitter only ({self._authority_errors[name]})"
        return "tree-sitter only"

    def parse_source(self, name: str, source: bytes) -> tree_sitter.Tree:
        """Parse ``source`` with language ``name``'s grammar (one parser per thread)."""
        import tree_sitter  # deferred: the tree-sitter runtime (~7 ms) loads with the first parse

        parsers: dict[str, tree_sitter.Parser] = self._local.__dict__.setdefault("parsers", {})
        parser = parsers.get(name)
        if parser is None:
            parser = parsers[name] = tree_sitter.Parser(self.grammar(name))
        return parser.parse(source)
