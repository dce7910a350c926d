"""The exports of a JavaScript-family module (JavaScript, TypeScript, TSX), for contract checks.

ES module statements are read from the top level of the tree (so names
declared inside ``declare module '...' {}`` or ``namespace N {}`` blocks are
never the file's exports); CommonJS exports are read by
:mod:`forge.contracts.ecmascript.commonjs` and join them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forge.contracts.ecmascript.commonjs import CommonJSExports, read_common_js, replace_exports
from forge.contracts.ecmascript.syntax import (
    declared_names,
    keyword_tokens,
    specifier_names,
    string_value,
)
from forge.contracts.extractor import ExportSet, ParsedSource, node_text

if TYPE_CHECKING:
    from tree_sitter import Node


def exports(parsed: ParsedSource) -> ExportSet:
    """ES module exports of the top level, then CommonJS exports (see module docs)."""
    source = parsed.source
    root = parsed.tree.root_node
    names: set[str] = set()
    stars: list[tuple[str, int]] = []
    namespaces: dict[str, str] = {}  # name -> specifier of the module it is the namespace of
    star_imports: dict[str, str] = {}  # import * as c from './c': c -> './c'
    default_alias: str | None = None
    cjs = CommonJSExports()
    esm = False
    # TypeScript's "export declarations" (`export {...}`, `export * from`,
    # `export =`, `export default`): without any, a declaration file exports
    # every top-level declaration.
    export_declarations = False
    for stmt in root.named_children:
        if stmt.type == "import_statement":
            esm = True
            star_imports.update(_namespace_imports(stmt, source))
        if stmt.type != "export_statement":
            continue
        esm = True
        tokens = keyword_tokens(stmt)
        declaration = stmt.child_by_field_name("declaration")
        specifier = stmt.child_by_field_name("source")
        if declaration is None and "namespace" not in tokens:
            export_declarations = True
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
                if target.type == "identifier":  # `export default b` of `import * as b`
                    namespaces["default"] = "\0" + node_text(target, source)
        elif "=" in tokens:  # TypeScript `export = value`
            value = next((c for c in stmt.named_children if c.type != "comment"), None)
            if value is not None:
                replace_exports(cjs, value, root, source)
        elif "namespace" in tokens:  # `export as namespace UMDGlobal`: a global, not an export
            continue
        elif declaration is not None:
            names.update(declared_names(declaration, source))
        else:
            for child in stmt.named_children:
                if child.type == "namespace_export":  # export * as ns from
                    for name in (string_value(c, source) for c in child.named_children):
                        names.add(name)
                        if specifier is not None:
                            namespaces[name] = string_value(specifier, source)
                elif child.type == "export_clause":
                    for spec in child.named_children:
                        if spec.type == "export_specifier":
                            local, exported = specifier_names(spec, source)
                            names.add(exported)
                            if specifier is None:  # a local: maybe an imported namespace
                                namespaces.setdefault(exported, "\0" + local)
            if (
                "*" in tokens
                and specifier is not None
                and not any(c.type == "namespace_export" for c in stmt.named_children)
            ):
                stars.append((string_value(specifier, source), stmt.start_point[0] + 1))
    if esm and not export_declarations and _declaration_file(parsed):
        names.update(
            name
            for stmt in root.named_children
            if stmt.type != "export_statement"
            for name in declared_names(stmt, source)
        )
    read_common_js(cjs, parsed)
    if cjs.used:
        names |= cjs.names
        # An ES import of a CommonJS module gets module.exports as its default.
        if not esm:
            names.add("default")
        default_alias = default_alias or cjs.default_alias
        stars.extend(cjs.star_sources)
    # `export { c }` of `import * as c from './c'`: the namespace of './c'.
    resolved = {
        name: star_imports.get(target[1:]) if target.startswith("\0") else target
        for name, target in namespaces.items()
    }
    return ExportSet(
        namespaces=tuple(sorted((n, t) for n, t in resolved.items() if t is not None)),
        names=frozenset(names),
        implicit=frozenset(cjs.implicit - names) if cjs.used else frozenset(),
        star_sources=tuple(stars),
        open_reason=cjs.open_reason,
        default_alias=default_alias,
    )


def _declaration_file(parsed: ParsedSource) -> bool:
    """A ``.d.ts`` (``.d.mts``, ``.d.cts``, ``.d.x.ts``) file: every statement is ambient.

    TypeScript's binder makes such a module an export context unless it has
    an export declaration: fastify's ``types/hooks.d.ts`` declares ``type
    HookHandlerDoneFunction = ...`` without ``export`` and ``fastify.d.ts``
    imports it.
    """
    name = parsed.path.name
    return name.endswith((".d.ts", ".d.mts", ".d.cts")) or (".d." in name and name.endswith(".ts"))


def _namespace_imports(stmt: Node, source: bytes) -> dict[str, str]:
    """``import * as c from './c'``: {``c``: ``./c``}."""
    specifier = stmt.child_by_field_name("source")
    if specifier is None:
        return {}
    return {
        node_text(binding, source): string_value(specifier, source)
        for clause in stmt.named_children
        if clause.type == "import_clause"
        for part in clause.named_children
        if part.type == "namespace_import"
        for binding in part.named_children
    }
