"""Languages and the parse cache: which grammar a file needs, and its tree, parsed once.

Three layers, from long-lived to per call:

- :class:`LanguageRegistry`: the languages the ``forge_languages`` hook
  registered, by name and by extension, each grammar loaded at most once.
- :class:`ParseCache`: trees kept between validate calls in a long-running
  process (the MCP server); a file whose path, size, mtime and inode are
  unchanged is not parsed again. Thread-safe: two calls may parse one file at
  the same time, and the later tree simply replaces the earlier one.
- :class:`ParseSession`: one validate call's view of the cache, which
  guarantees that every check asking for a file gets the very same
  :class:`ParsedFile`, read and parsed at most once.

Checks never parse on their own: they call ``workspace.parse(path)``.
``tree_sitter`` is imported only when a grammar is first needed.
"""

from __future__ import annotations

import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from forge.errors import ForgeError
from forge.models import Language, SyntaxAuthority
from forge.plugin_manager import PluginProblem as RegistryProblem

if TYPE_CHECKING:
    import tree_sitter

    from forge.plugin_manager import PluginHost

#: Source bytes the cross-call cache keeps in all before dropping the least recently used.
DEFAULT_CACHE_BYTES = 256 * 1024 * 1024
_UTF8_BOM = b"\xef\xbb\xbf"

NotParsedReason = Literal["missing", "unreadable", "too_large", "not_text", "no_grammar"]


class NotParsed(ForgeError):
    """A file of a known language that has no tree, and why.

    ``reason`` is one of ``missing``, ``unreadable``, ``too_large``,
    ``not_text`` (not UTF-8, or NUL bytes) and ``no_grammar`` (the language's
    plugin could not load its grammar; ``plugin`` names it). The message is
    one line fit to show as is.
    """

    def __init__(
        self, path: Path, reason: NotParsedReason, message: str, *, plugin: str | None = None
    ) -> None:
        super().__init__(message)
        self.path = path
        self.reason: NotParsedReason = reason
        self.plugin = plugin


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
        name = Path(path).name.lower()
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
        import tree_sitter

        from forge.plugin_manager import describe_exception

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
        from forge.plugin_manager import describe_exception

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
        parsers: dict[str, tree_sitter.Parser] = self._local.__dict__.setdefault("parsers", {})
        parser = parsers.get(name)
        if parser is None:
            import tree_sitter

            parser = parsers[name] = tree_sitter.Parser(self.grammar(name))
        return parser.parse(source)


@dataclass
class _Cached:
    key: tuple[int, int, int, str]
    parsed: ParsedFile


@dataclass
class ParseCache:
    """Trees kept across validate calls, keyed by path and (size, mtime, inode, language).

    Bounded by ``max_bytes`` of source in all, least recently used first out.
    ``parses`` counts real parses and ``hits`` files served from the cache.
    """

    max_bytes: int = DEFAULT_CACHE_BYTES
    parses: int = 0
    hits: int = 0
    _entries: OrderedDict[Path, _Cached] = field(default_factory=OrderedDict, repr=False)
    _held: int = field(default=0, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def parse(
        self, path: Path, language: Language, registry: LanguageRegistry, *, max_file_bytes: int
    ) -> ParsedFile:
        """``path``'s tree: from the cache when unchanged on disk, else read and parsed now.

        Raises :class:`NotParsed` when the file is missing, unreadable, over
        ``max_file_bytes``, not text, or its grammar cannot be loaded.
        """
        status = _stat(path)
        _check_size(path, status.st_size, max_file_bytes)
        with self._lock:
            cached = self._entries.get(path)
            if cached is not None and cached.key == _key(status, language):
                self._entries.move_to_end(path)
                self.hits += 1
                return cached.parsed
        try:
            # Non-blocking, and checked again once open: the file may have been
            # swapped for a FIFO since the stat, and reading one would hang.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(fd, "rb") as handle:
                status = os.fstat(fd)
                if not stat.S_ISREG(status.st_mode):
                    raise NotParsed(path, "unreadable", f"{path} is not a regular file")
                data = handle.read(max_file_bytes + 1)
        except OSError as exc:
            raise NotParsed(path, "unreadable", f"cannot read {path}: {exc.strerror}") from None
        _check_size(path, len(data), max_file_bytes)
        source, encoding = _decode(path, data, language)
        try:
            tree = registry.parse_source(language.name, source)
        except NotParsed as exc:
            raise NotParsed(path, exc.reason, str(exc), plugin=exc.plugin) from None
        parsed = ParsedFile(path, source, tree, language, encoding)
        with self._lock:
            self.parses += 1
            self._store(path, _Cached(_key(status, language), parsed))
        return parsed

    def _store(self, path: Path, entry: _Cached) -> None:
        size = len(entry.parsed.source)
        if size > self.max_bytes:
            return
        previous = self._entries.pop(path, None)
        if previous is not None:
            self._held -= len(previous.parsed.source)
        self._entries[path] = entry
        self._held += size
        while self._held > self.max_bytes:
            _, dropped = self._entries.popitem(last=False)
            self._held -= len(dropped.parsed.source)

    def __len__(self) -> int:
        """How many trees are held."""
        return len(self._entries)


class ParseSession:
    """One validate call's parses: each file read and parsed at most once, same object for all."""

    def __init__(self, registry: LanguageRegistry, cache: ParseCache, *, max_file_bytes: int):
        self.registry = registry
        self.cache = cache
        self.max_file_bytes = max_file_bytes
        self._seen: dict[Path, ParsedFile | NotParsed | None] = {}
        self._lock = threading.Lock()

    def parse(self, path: Path) -> ParsedFile | None:
        """``path``'s tree; None when no registered language owns its extension.

        Raises :class:`NotParsed` (the same outcome on every call) when the file
        has a known language but no tree.
        """
        path = Path(path).absolute()
        with self._lock:
            if path in self._seen:
                return _unwrap(self._seen[path])
            language = self.registry.for_path(path)
            outcome: ParsedFile | NotParsed | None = None
            if language is not None:
                try:
                    outcome = self.cache.parse(
                        path, language, self.registry, max_file_bytes=self.max_file_bytes
                    )
                except NotParsed as exc:
                    outcome = exc
            self._seen[path] = outcome
        return _unwrap(outcome)


def _unwrap(outcome: ParsedFile | NotParsed | None) -> ParsedFile | None:
    if isinstance(outcome, NotParsed):
        raise NotParsed(outcome.path, outcome.reason, str(outcome), plugin=outcome.plugin)
    return outcome


def _stat(path: Path) -> os.stat_result:
    try:
        status = path.stat()
    except FileNotFoundError:
        raise NotParsed(path, "missing", f"{path} does not exist") from None
    except OSError as exc:
        raise NotParsed(path, "unreadable", f"cannot read {path}: {exc.strerror}") from None
    except ValueError:  # a NUL byte in the path: no such file can exist
        raise NotParsed(path, "missing", f"{str(path)!r} is not a valid path") from None
    if not stat.S_ISREG(status.st_mode):
        raise NotParsed(path, "unreadable", f"{path} is not a regular file")
    return status


def _check_size(path: Path, size: int, limit: int) -> None:
    if size > limit:
        raise NotParsed(
            path,
            "too_large",
            f"not parsed: {size:,} bytes is over the {limit:,}-byte parse limit "
            "([tool.forge] max-parse-bytes)",
        )


def _key(status: os.stat_result, language: Language) -> tuple[int, int, int, str]:
    return (status.st_size, status.st_mtime_ns, status.st_ino, language.name)


def _decode(path: Path, data: bytes, language: Language) -> tuple[bytes, str]:
    """The UTF-8 text to parse and the file's encoding; :class:`NotParsed` when not text."""
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column = _position(data, nul)
        raise NotParsed(
            path,
            "not_text",
            f"not text: NUL byte at line {line}, column {column} (a binary file?)",
        )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        declared = language.detect_encoding(data) if language.detect_encoding else None
        if declared and declared.replace("_", "-").lower() not in {"utf-8", "utf8"}:
            try:
                return data.decode(declared).encode("utf-8"), declared
            except (LookupError, UnicodeDecodeError):
                pass
        line, column = _position(data, exc.start)
        raise NotParsed(
            path,
            "not_text",
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line}, column {column} "
            "cannot be decoded (save the file as UTF-8)",
        ) from None
    return data, "utf-8"


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and byte column of ``offset`` in ``data``."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1
