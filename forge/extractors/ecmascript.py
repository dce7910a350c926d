"""Exports and imports of the JavaScript family (JavaScript, TypeScript, TSX) for contract checks.

ES module statements are read from the top level of the tree (so names
declared inside ``declare module '...' {}`` or ``namespace N {}`` blocks are
never the file's exports); CommonJS forms and ``require()`` / ``import()``
calls are found anywhere with the queries in ``javascript_exports.scm``,
``javascript_imports.scm`` and, for TypeScript, ``typescript_imports.scm``.

Specifiers resolve the way TypeScript and Node do for relative paths: a
``.js`` written in a TypeScript import names the ``.ts`` file (``.mjs``:
``.mts``, ``.cjs``: ``.cts``, ``.jsx``: ``.tsx``), extensionless specifiers
try each extension, a directory means its ``index.*``. Bare specifiers
resolve through the nearest tsconfig's (or jsconfig's) ``paths`` and
``baseUrl``; packages resolve to nothing, and :meth:`EcmascriptExtractor.diagnose`
says whether they are built in, declared or installed.
"""

# Resolution runs for every import of every file: plain os.path strings.
# ruff: noqa: PTH112, PTH113, PTH116, PTH118, PTH120, PTH122

from __future__ import annotations

import fnmatch
import functools
import os
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forge.contracts import (
    ExportSet,
    ImportContext,
    ImportedName,
    ImportRef,
    ParsedSource,
    captures,
    close_names,
    did_you_mean,
    imported,
    load_query,
    matches,
    node_text,
    position,
)
from forge.extractors.node_packages import (
    NodeProject,
    ambient_modules,
    node_builtins,
    npm_package_name,
    read_jsonc,
    which_node,
)
from forge.extractors.packages import scan_folder

if TYPE_CHECKING:
    from tree_sitter import Node, Query

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

_NAMED_DECLARATIONS = {
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "interface_declaration",
    "type_alias_declaration",
    "enum_declaration",
    "internal_module",
    "module",
    "function_signature",
}
#: Declarations whose members are their static properties (an enum's are not).
_CALLABLE_DECLARATIONS = {
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "function_signature",
    "class",
}
_VALUE_DECLARATIONS = {"lexical_declaration", "variable_declaration"}
_FUNCTION_LIKE = {
    "function_expression",
    "function",
    "arrow_function",
    "class",
    "generator_function",
    "generator_function_declaration",
}


def _string(node: Node, source: bytes) -> str:
    """A string literal's contents (or an identifier's text)."""
    text = node_text(node, source)
    return text[1:-1] if node.type == "string" else text


def _tokens(node: Node) -> set[str]:
    return {child.type for child in node.children if not child.is_named}


def pattern_names(node: Node | None, source: bytes) -> list[str]:
    """The names a binding pattern binds (``{a, b: c, ...d}``, ``[x, y = 1]``, ``name``)."""
    if node is None:
        return []
    kind = node.type
    if kind in {"identifier", "shorthand_property_identifier_pattern"}:
        return [node_text(node, source)]
    if kind == "pair_pattern":
        return pattern_names(node.child_by_field_name("value"), source)
    if kind in {"object_assignment_pattern", "assignment_pattern"}:
        return pattern_names(node.child_by_field_name("left"), source)
    if kind in {"object_pattern", "array_pattern", "rest_pattern"}:
        return [name for child in node.named_children for name in pattern_names(child, source)]
    return []


def declared_names(node: Node, source: bytes) -> list[str]:
    """Names an exported declaration binds (``export const {a, b} = ...``: a, b)."""
    kind = node.type
    if kind in _NAMED_DECLARATIONS:
        name = node.child_by_field_name("name")
        # `declare module "x" {}` is named by a string: an ambient module, not a binding.
        return [node_text(name, source)] if name is not None and name.type != "string" else []
    if kind in _VALUE_DECLARATIONS:
        return [
            name
            for declarator in node.named_children
            if declarator.type == "variable_declarator"
            for name in pattern_names(declarator.child_by_field_name("name"), source)
        ]
    if kind == "ambient_declaration":  # export declare const|function|class|namespace ...
        return [name for child in node.named_children for name in declared_names(child, source)]
    if kind == "import_alias":  # export import A = B.C
        first = node.named_children[0] if node.named_children else None
        return [node_text(first, source)] if first is not None else []
    return []


def _specifier_names(spec: Node, source: bytes) -> tuple[str, str]:
    """(name in the other module, name here) of an import or export specifier."""
    name_node = spec.child_by_field_name("name")
    alias_node = spec.child_by_field_name("alias")
    name = _string(name_node, source) if name_node is not None else "default"
    if alias_node is not None:
        return name, _string(alias_node, source)
    if name_node is not None and spec.children and spec.children[-1].type == "default":
        return name, "default"  # export { a as default }
    return name, name


@dataclass
class _CommonJS:
    names: set[str] = field(default_factory=set)
    open_reason: str | None = None
    default_alias: str | None = None
    star_sources: list[tuple[str, int]] = field(default_factory=list)
    used: bool = False


class EcmascriptExtractor:
    """The contract extractor of JavaScript, TypeScript and TSX (one family: they import each other)."""

    family = "ecmascript"

    def __init__(self, *, typescript: bool) -> None:
        self.typescript = typescript
        self._import_queries = ("javascript_imports.scm",) + (
            ("typescript_imports.scm",) if typescript else ()
        )
        self._declaration_queries = (
            "javascript_declarations.scm",
            "typescript_parameters.scm" if typescript else "javascript_parameters.scm",
        )

    # -- exports ------------------------------------------------------------

    def exports(self, parsed: ParsedSource) -> ExportSet:
        """ES module exports of the top level, then CommonJS exports (see module docs)."""
        source = parsed.source
        root = parsed.tree.root_node
        names: set[str] = set()
        stars: list[tuple[str, int]] = []
        default_alias: str | None = None
        cjs = _CommonJS()
        esm = False
        for stmt in root.named_children:
            if stmt.type != "export_statement":
                continue
            esm = True
            tokens = _tokens(stmt)
            declaration = stmt.child_by_field_name("declaration")
            specifier = stmt.child_by_field_name("source")
            if "default" in tokens:
                names.add("default")
                target = declaration or stmt.child_by_field_name("value")
                if target is not None:
                    found = (
                        [node_text(target, source)]
                        if target.type == "identifier"
                        else declared_names(target, source)
                    )
                    default_alias = found[0] if found else None
            elif "=" in tokens:  # TypeScript `export = value`
                value = next((c for c in stmt.named_children if c.type != "comment"), None)
                if value is not None:
                    self._replace(cjs, value, root, source)
            elif "namespace" in tokens:  # `export as namespace UMDGlobal`: a global, not an export
                continue
            elif declaration is not None:
                names.update(declared_names(declaration, source))
            else:
                for child in stmt.named_children:
                    if child.type == "namespace_export":  # export * as ns from
                        names.update(_string(c, source) for c in child.named_children)
                    elif child.type == "export_clause":
                        names.update(
                            _specifier_names(spec, source)[1]
                            for spec in child.named_children
                            if spec.type == "export_specifier"
                        )
                if (
                    "*" in tokens
                    and specifier is not None
                    and not any(c.type == "namespace_export" for c in stmt.named_children)
                ):
                    stars.append((_string(specifier, source), stmt.start_point[0] + 1))
        self._common_js(cjs, parsed)
        if cjs.used:
            names |= cjs.names
            # An ES import of a CommonJS module gets module.exports as its default.
            if not esm:
                names.add("default")
            default_alias = default_alias or cjs.default_alias
            stars.extend(cjs.star_sources)
        return ExportSet(
            names=frozenset(names),
            star_sources=tuple(stars),
            open_reason=cjs.open_reason,
            default_alias=default_alias,
        )

    def _common_js(self, cjs: _CommonJS, parsed: ParsedSource) -> None:
        source = parsed.source
        root = parsed.tree.root_node
        query = load_query(parsed.tree.language, "javascript_exports.scm")
        events: list[tuple[int, str, Node]] = []
        for _, found in matches(query, root):
            for capture in ("replace", "name", "alias_name", "star_source"):
                for node in found.get(capture, ()):
                    events.append((node.start_byte, capture, node))
        alias_live = True
        for _, capture, node in sorted(events, key=lambda event: event[0]):
            cjs.used = True
            if capture == "replace":
                alias_live = _keeps_exports_alias(node, source) or _assigned_to_exports(node)
                cjs.names.clear()
                cjs.star_sources.clear()
                cjs.open_reason = None
                cjs.default_alias = None
                self._replace(cjs, node, root, source)
            elif capture == "star_source":
                cjs.star_sources.append((node_text(node, source), node.start_point[0] + 1))
            elif capture == "name" or alias_live:
                cjs.names.add(node_text(node, source))

    def _replace(self, cjs: _CommonJS, value: Node, root: Node, source: bytes) -> None:
        """``module.exports = value`` (or ``export = value``): the new export set."""
        cjs.used = True
        cjs.names.add("default")
        while value.type in {"assignment_expression", "parenthesized_expression"}:
            inner = value.child_by_field_name("right") or (
                value.named_children[0] if value.named_children else None
            )
            if inner is None:
                break
            value = inner
        line = value.start_point[0] + 1
        if value.type == "object":
            self._object_keys(cjs, value, source, line)
        elif value.type in _FUNCTION_LIKE:
            name = value.child_by_field_name("name")
            cjs.default_alias = node_text(name, source) if name is not None else None
        elif value.type == "call_expression" and _is_require(value, source):
            argument = value.child_by_field_name("arguments")
            strings = [c for c in argument.named_children if c.type == "string"] if argument else []
            if strings:
                cjs.star_sources.append((_string(strings[0], source), line))
        elif value.type == "identifier":
            self._identifier(cjs, node_text(value, source), root, source, line)
        else:
            cjs.open_reason = (
                f"line {line}: module.exports is assigned a computed value "
                f"({value.type.replace('_', ' ')}), so its members cannot be known"
            )

    def _object_keys(self, cjs: _CommonJS, value: Node, source: bytes, line: int) -> None:
        for member in value.named_children:
            if member.type == "shorthand_property_identifier":
                cjs.names.add(node_text(member, source))
            elif member.type in {"pair", "method_definition"}:
                key = member.child_by_field_name("key") or member.child_by_field_name("name")
                if key is None or key.type == "computed_property_name":
                    cjs.open_reason = f"line {line}: module.exports has a computed key"
                else:
                    cjs.names.add(_string(key, source))
            elif member.type == "spread_element":
                cjs.open_reason = f"line {line}: module.exports spreads another object"

    def _identifier(self, cjs: _CommonJS, name: str, root: Node, source: bytes, line: int) -> None:
        """``module.exports = name``: a top-level function, class or object literal.

        TypeScript merges a function (or class) with a namespace of the same
        name (``function f() {}`` + ``namespace f { export const v }``): the
        namespace's exports are then members of the exported value too.
        """
        cjs.default_alias = name
        known = False
        for stmt in _top_level_declarations(root):
            if stmt.type in _VALUE_DECLARATIONS:
                for declarator in stmt.named_children:
                    declared = declarator.child_by_field_name("name")
                    if declared is None or node_text(declared, source) != name:
                        continue
                    value = declarator.child_by_field_name("value")
                    if value is not None and value.type == "object":
                        self._object_keys(cjs, value, source, line)
                        known = True
                    elif value is not None and value.type in _FUNCTION_LIKE:
                        known = True
                continue
            declared = stmt.child_by_field_name("name")
            if declared is None or node_text(declared, source) != name:
                continue
            if stmt.type in {"internal_module", "module"}:
                # Members of a `declare namespace` are exported without saying so.
                ambient = stmt.parent is not None and stmt.parent.type == "ambient_declaration"
                body = stmt.child_by_field_name("body")
                for member in body.named_children if body is not None else ():
                    if member.type == "export_statement":
                        member = member.child_by_field_name("declaration") or member
                    elif not ambient:
                        continue
                    cjs.names.update(declared_names(member, source))
                known = True
            elif stmt.type in _CALLABLE_DECLARATIONS:
                cjs.names.update(_static_members(stmt, source))
                known = True
        if known:
            cjs.names.update(_static_properties(name, root, source))
            return
        cjs.open_reason = (
            f"line {line}: module.exports = {name}, whose members cannot be read statically"
        )

    # -- imports ------------------------------------------------------------

    def imports(self, parsed: ParsedSource) -> list[ImportRef]:
        """Import statements, re-exports, ``require()`` and ``import()`` (see module docs)."""
        source = parsed.source
        root = parsed.tree.root_node
        query = load_query(parsed.tree.language, *self._import_queries)
        members: dict[str, list[Node]] = defaultdict(list)
        types: dict[str, list[Node]] = defaultdict(list)
        calls: list[tuple[str, Node, Node]] = []
        for _, found in matches(query, root):
            if "member.object" in found:
                obj = found["member.object"][0]
                members[node_text(obj, source)].extend(found["member.property"])
            if "type.object" in found:
                obj = found["type.object"][0]
                types[node_text(obj, source)].extend(found["type.property"])
            for kind in ("require", "dynamic_import"):
                if kind in found:
                    calls.append((kind, found[kind][0], found["source"][0]))
        both = _merged(members, types)
        shadows = _Shadows(
            root, source, load_query(parsed.tree.language, *self._declaration_queries)
        )
        refs: list[ImportRef] = []
        for stmt in root.named_children:
            if stmt.type == "import_statement":
                # A binding of `import type` is never a value: a value-position
                # `ns.x` is some other variable of that name.
                typed = "type" in _tokens(stmt)
                uses = types if typed else both
                refs.append(self._import_statement(stmt, source, uses, shadows))
            elif stmt.type == "export_statement" and stmt.child_by_field_name("source"):
                refs.append(self._reexport(stmt, source))
        for kind, call, specifier in calls:
            refs.append(self._call(kind, call, specifier, source, both, shadows))
        refs.sort(key=lambda ref: (ref.line, ref.column))
        return refs

    def _import_statement(
        self, stmt: Node, source: bytes, members: dict[str, list[Node]], shadows: _Shadows
    ) -> ImportRef:
        specifier = stmt.child_by_field_name("source")
        names: list[ImportedName] = []
        for clause in stmt.named_children:
            if clause.type == "import_require_clause":  # import x = require("./y")
                specifier = clause.child_by_field_name("source")
                binding = clause.named_children[0]
                names.extend(_members(binding, members, source, shadows))
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    names.append(imported(part, source, "default", node_text(part, source)))
                elif part.type == "namespace_import":
                    for binding in part.named_children:
                        names.extend(_members(binding, members, source, shadows))
                elif part.type == "named_imports":
                    for spec in part.named_children:
                        if spec.type == "import_specifier":
                            name, local = _specifier_names(spec, source)
                            names.append(imported(spec, source, name, local))
        return self._ref(stmt, specifier, source, names)

    def _reexport(self, stmt: Node, source: bytes) -> ImportRef:
        names = [
            imported(spec, source, _specifier_names(spec, source)[0])
            for clause in stmt.named_children
            if clause.type == "export_clause"
            for spec in clause.named_children
            if spec.type == "export_specifier"
        ]
        return self._ref(stmt, stmt.child_by_field_name("source"), source, names)

    def _call(
        self,
        kind: str,
        call: Node,
        specifier: Node,
        source: bytes,
        members: dict[str, list[Node]],
        shadows: _Shadows,
    ) -> ImportRef:
        names: list[ImportedName] = []
        context = call.parent
        if kind == "dynamic_import" and context is not None and context.type == "await_expression":
            call, context = context, context.parent
        if context is not None and context.type == "member_expression":
            prop = context.child_by_field_name("property")
            if prop is not None and prop.type == "property_identifier":
                names.append(imported(prop, source, node_text(prop, source)))
        elif context is not None and context.type == "variable_declarator":
            binding = context.child_by_field_name("name")
            if binding is not None and binding.type == "identifier":
                names.extend(_members(binding, members, source, shadows))
            elif binding is not None and binding.type == "object_pattern":
                names.extend(_destructured(binding, source))
        elif context is not None and context.type == "assignment_expression":
            left = context.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                names.extend(_members(left, members, source, shadows))
        return self._ref(call, specifier, source, names)

    @staticmethod
    def _ref(
        node: Node, specifier: Node | None, source: bytes, names: list[ImportedName]
    ) -> ImportRef:
        # A finding about the import points at the specifier, as editors do.
        line, column = position(specifier if specifier is not None else node, source)
        text = _string(specifier, source) if specifier is not None else ""
        return ImportRef(specifier=text, line=line, column=column, names=tuple(names))

    # -- resolution ---------------------------------------------------------

    def resolve(self, specifier: str, importer: Path, root: Path) -> Path | None:
        """The file a specifier names: relative (see module docs), or through tsconfig ``paths``/``baseUrl``."""
        typescript = importer.name.endswith(TS_SUFFIXES) or self.typescript
        if _relative(specifier):
            return self._file(Path(os.path.normpath(importer.parent / specifier)), typescript)
        aliases = tsconfig_for(importer.parent)
        if aliases is None or ":" in specifier:
            return None
        for base in aliases.targets(specifier):
            found = self._file(base, typescript)
            if found is not None:
                return found
        if aliases.base_url is not None:
            return self._file(Path(os.path.normpath(aliases.base_url / specifier)), typescript)
        return None

    @staticmethod
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

    def _file(self, base: Path, typescript: bool) -> Path | None:
        """The regular file ``base`` names, or None."""
        for candidate in self._candidates(base, typescript):
            if os.path.isfile(candidate):
                return Path(candidate)
        return None

    # -- findings -----------------------------------------------------------

    def diagnose(self, specifier: str, importer: Path, context: ImportContext) -> str | None:
        """Why ``specifier`` (which resolved to no file) cannot be imported; None if it can or forge cannot know.

        A relative specifier or a tsconfig path alias must name a file; a
        ``node:`` specifier a Node builtin; a bare one a builtin or a package
        declared in a ``package.json`` or installed in a ``node_modules`` above
        the importer. Without node to ask for its builtins, or with no
        ``package.json`` and no ``node_modules`` at all, forge says nothing.
        """
        if "?" in specifier or "#" in specifier or "*" in specifier:
            return None  # bundler queries, subpath imports, globs: not files to find
        typescript = importer.name.endswith(TS_SUFFIXES) or self.typescript
        if _relative(specifier):
            base = Path(os.path.normpath(importer.parent / specifier))
            if any(os.path.lexists(c) for c in self._candidates(base, typescript)):
                return None  # a FIFO, a device, a broken link: there, but no module to read
            near = self._near(specifier, importer.parent, typescript)
            return f"'{specifier}' resolves to no file{did_you_mean(near)}"
        builtins = context.remember("node-builtins", lambda: node_builtins(which_node()))
        if specifier.startswith("node:"):
            if builtins is None or specifier in builtins or specifier[5:] in builtins:
                return None
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
                    for near in self._near_path(target, typescript)
                ]
                return (
                    f"'{specifier}' resolves to no file through the path alias '{pattern}'"
                    f"{did_you_mean(near)}"
                )
        package = npm_package_name(specifier)
        if package is None or builtins is None or package in builtins or specifier in builtins:
            return None
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

    def _near(self, specifier: str, folder: Path, typescript: bool) -> list[str]:
        """Existing specifiers like ``specifier`` with one path segment respelled."""
        prefix = specifier[: len(specifier) - len(specifier.lstrip("./"))]
        segments = specifier[len(prefix) :].split("/")
        found: list[str] = []
        for index, segment in enumerate(segments):
            current = Path(os.path.normpath(folder / prefix / "/".join(segments[:index])))
            if (current / segment).exists() and index < len(segments) - 1:
                continue
            stem, extension = _split_extension(segment)
            entries = {
                _split_extension(entry.name)[0]: entry.name for entry in scan_folder(current)
            }
            for near in close_names(stem, entries):
                respelled = near + extension if extension or index < len(segments) - 1 else near
                candidate = "/".join([*segments[:index], respelled, *segments[index + 1 :]])
                if self._file(Path(os.path.normpath(folder / (prefix + candidate))), typescript):
                    found.append(prefix + candidate)
            break
        return found

    def _near_path(self, target: Path, typescript: bool) -> list[str]:
        """Existing files like ``target`` (a path alias's target), as paths from the alias base."""
        stem, extension = _split_extension(target.name)
        entries = {
            _split_extension(entry.name)[0]: entry.name for entry in scan_folder(target.parent)
        }
        found = []
        for near in close_names(stem, entries):
            if self._file(target.with_name(near + extension), typescript) is not None:
                found.append(near + extension)
        return found

    def star_visible(self, name: str) -> bool:
        """``export * from`` takes every name but the default."""
        return name != "default"


def _relative(specifier: str) -> bool:
    return specifier.startswith(("./", "../", "/")) or specifier in {".", ".."}


def _split_extension(name: str) -> tuple[str, str]:
    """``options.d.ts`` -> (``options``, ``.d.ts``); ``utils`` -> (``utils``, ``"")."""
    for extension in (".d.ts", ".d.mts", ".d.cts", *TS_ORDER, ".json"):
        if name.endswith(extension) and len(name) > len(extension):
            return name[: -len(extension)], extension
    return name, ""


@dataclass(frozen=True)
class PathAliases:
    """A tsconfig's (or jsconfig's) ``compilerOptions.baseUrl`` and ``paths``."""

    base: Path
    base_url: Path | None
    paths: tuple[tuple[str, tuple[str, ...]], ...]

    def pattern_for(self, specifier: str) -> str | None:
        """The ``paths`` pattern ``specifier`` matches (exact first, then the longest prefix)."""
        best: tuple[int, str] | None = None
        for pattern, _ in self.paths:
            if "*" not in pattern:
                if pattern == specifier:
                    return pattern
                continue
            head, _, tail = pattern.partition("*")
            if (
                specifier.startswith(head)
                and specifier.endswith(tail)
                and (len(specifier) >= len(head) + len(tail))
            ) and (best is None or len(head) > best[0]):
                best = (len(head), pattern)
        return best[1] if best else None

    def targets(self, specifier: str) -> list[Path]:
        """The paths ``specifier`` stands for under its matching pattern."""
        pattern = self.pattern_for(specifier)
        if pattern is None:
            return []
        head, star, tail = pattern.partition("*")
        middle = specifier[len(head) : len(specifier) - len(tail)] if star else ""
        root = self.base_url or self.base
        return [
            Path(os.path.normpath(root / target.replace("*", middle)))
            for target in dict(self.paths)[pattern]
        ]


def tsconfig_for(folder: Path) -> PathAliases | None:
    """The path aliases of the nearest ``tsconfig.json`` (or ``jsconfig.json``) above ``folder``."""
    current = str(folder)
    while True:
        for name in ("tsconfig.json", "jsconfig.json"):
            path = os.path.join(current, name)
            if os.path.isfile(path):
                return _aliases(path, os.stat(path).st_mtime_ns)
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


@functools.lru_cache(maxsize=64)
def _aliases(path: str, mtime: int) -> PathAliases | None:
    """``path``'s ``baseUrl`` and ``paths``, following relative ``extends`` (``mtime`` keys the cache)."""
    options: dict[str, object] = {}
    seen: set[str] = set()
    current: str | None = path
    paths_base = base_url_base = os.path.dirname(path)
    while current is not None and current not in seen and len(seen) < 10:
        seen.add(current)
        config = read_jsonc(current)
        if config is None:
            break
        compiler = config.get("compilerOptions")
        if isinstance(compiler, dict):
            here = os.path.dirname(current)
            if "paths" in compiler and "paths" not in options:
                options["paths"] = compiler["paths"]
                paths_base = here
            if "baseUrl" in compiler and "baseUrl" not in options:
                options["baseUrl"] = compiler["baseUrl"]
                base_url_base = here
        extends = config.get("extends")
        current = None
        if isinstance(extends, str) and extends.startswith("."):
            parent = os.path.normpath(os.path.join(os.path.dirname(path), extends))
            current = parent if parent.endswith(".json") else parent + ".json"
    base_url = options.get("baseUrl")
    raw = options.get("paths")
    paths = tuple(
        (pattern, tuple(t for t in targets if isinstance(t, str)))
        for pattern, targets in (raw.items() if isinstance(raw, dict) else ())
        if isinstance(pattern, str) and isinstance(targets, list)
    )
    if not isinstance(base_url, str) and not paths:
        return None
    return PathAliases(
        base=Path(paths_base),
        base_url=Path(os.path.normpath(os.path.join(base_url_base, base_url)))
        if isinstance(base_url, str)
        else None,
        paths=paths,
    )


def _is_require(call: Node, source: bytes) -> bool:
    function = call.child_by_field_name("function")
    return function is not None and node_text(function, source) == "require"


def _keeps_exports_alias(replace: Node, source: bytes) -> bool:
    """``module.exports = exports = {...}`` keeps ``exports.x = ...`` meaningful."""
    node = replace
    while node.type == "assignment_expression":
        left = node.child_by_field_name("left")
        if left is not None and node_text(left, source) == "exports":
            return True
        right = node.child_by_field_name("right")
        if right is None:
            break
        node = right
    return False


def _static_members(declaration: Node, source: bytes) -> set[str]:
    """A class's ``static`` methods and fields (none for a function)."""
    body = declaration.child_by_field_name("body")
    if body is None or body.type != "class_body":
        return set()
    found: set[str] = set()
    for member in body.named_children:
        if "static" not in _tokens(member) and not any(c.type == "static" for c in member.children):
            continue
        key = member.child_by_field_name("name") or member.child_by_field_name("property")
        if key is not None and key.type in {"property_identifier", "private_property_identifier"}:
            found.add(node_text(key, source))
    return found


def _top_level_declarations(root: Node) -> Iterator[Node]:
    """Top-level declarations, looking into ``declare ...`` and ``namespace`` statements."""
    for stmt in root.named_children:
        if stmt.type in {"ambient_declaration", "expression_statement"}:
            yield from stmt.named_children
        else:
            yield stmt


def _assigned_to_exports(replace: Node) -> bool:
    """``exports = module.exports = value`` (express's form) also keeps the alias."""
    inner = replace.parent  # the `module.exports = value` assignment
    outer = inner.parent if inner is not None else None
    while outer is not None and outer.type == "parenthesized_expression":
        inner, outer = outer, outer.parent
    if outer is None or outer.type != "assignment_expression":
        return False
    left = outer.child_by_field_name("left")
    return (
        outer.child_by_field_name("right") == inner
        and left is not None
        and (left.type == "identifier" and left.text == b"exports")
    )


def _static_properties(name: str, root: Node, source: bytes) -> set[str]:
    """``name.prop = ...`` assignments at the top level (properties of an exported function)."""
    found: set[str] = set()
    for stmt in root.named_children:
        if stmt.type != "expression_statement" or not stmt.named_children:
            continue
        expression = stmt.named_children[0]
        if expression.type != "assignment_expression":
            continue
        left = expression.child_by_field_name("left")
        if left is None or left.type != "member_expression":
            continue
        obj, prop = left.child_by_field_name("object"), left.child_by_field_name("property")
        if obj is not None and prop is not None and node_text(obj, source) == name:
            found.add(node_text(prop, source))
    return found


def _merged(*uses: dict[str, list[Node]]) -> dict[str, list[Node]]:
    """Member uses of value and type positions together, in source order."""
    merged: dict[str, list[Node]] = defaultdict(list)
    for use in uses:
        for name, nodes in use.items():
            merged[name].extend(nodes)
    for nodes in merged.values():
        nodes.sort(key=lambda node: node.start_byte)
    return merged


def _members(
    binding: Node, members: dict[str, list[Node]], source: bytes, shadows: _Shadows
) -> list[ImportedName]:
    """``binding.member`` uses in the binding's scope, each an imported name.

    A use inside a function, block, loop or ``catch`` that declares a
    variable of the same name is that variable's, not the module's
    (``import * as checks``, then ``const checks = def.checks; checks.length``).
    """
    name = node_text(binding, source)
    uses = members.get(name, ())
    if not uses:
        return []
    home = _scope_of(binding)
    if home is None:
        return []
    inner = [
        (start, end)
        for start, end in shadows.scopes(name)
        if home.start_byte <= start and end <= home.end_byte and (start, end) != home.byte_range
    ]
    return [
        imported(prop, source, node_text(prop, source))
        for prop in uses
        if home.start_byte <= prop.start_byte < home.end_byte
        and not any(start <= prop.start_byte < end for start, end in inner)
    ]


class _Shadows:
    """Where names are declared below the top level: the byte ranges of their scopes.

    Read with one query over the file, the first time a binding has uses.
    """

    def __init__(self, root: Node, source: bytes, query: Query) -> None:
        self._root, self._source, self._query = root, source, query
        self._declared: dict[str, list[Node]] | None = None
        self._ranges: dict[str, list[tuple[int, int]]] = {}

    def scopes(self, name: str) -> list[tuple[int, int]]:
        """The byte ranges of the scopes below the top level that declare ``name``."""
        if self._declared is None:
            self._declared = defaultdict(list)
            for node in captures(self._query, self._root).get("declared", ()):
                self._declared[node_text(node, self._source)].append(node)
        if name not in self._ranges:
            scopes = (_scope_of(node) for node in self._declared.get(name, ()))
            self._ranges[name] = [
                scope.byte_range
                for scope in scopes
                if scope is not None and scope.type != "program"
            ]
        return self._ranges[name]


#: Nodes that open a scope for ``let``/``const``/parameters (``var`` is approximated by them).
_SCOPES = {
    "program",
    "statement_block",
    "function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "method_definition",
    "generator_function",
    "generator_function_declaration",
    "for_statement",
    "for_in_statement",
    "catch_clause",
}


def _scope_of(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type not in _SCOPES:
        parent = parent.parent
    return parent


def _destructured(pattern: Node, source: bytes) -> list[ImportedName]:
    """Keys of ``const {a, b: c} = require(...)`` (a rest element takes no name)."""
    names: list[ImportedName] = []
    for part in pattern.named_children:
        if part.type == "shorthand_property_identifier_pattern":
            names.append(imported(part, source, node_text(part, source)))
        elif part.type == "object_assignment_pattern":
            left = part.child_by_field_name("left")
            if left is not None:
                names.append(imported(left, source, node_text(left, source)))
        elif part.type == "pair_pattern":
            key = part.child_by_field_name("key")
            if key is not None and key.type in {"property_identifier", "string"}:
                names.append(imported(key, source, _string(key, source)))
    return names


JAVASCRIPT = EcmascriptExtractor(typescript=False)
TYPESCRIPT = EcmascriptExtractor(typescript=True)
