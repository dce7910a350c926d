"""The imports of a Python module, for contract checks.

Imports are read anywhere in the file with ``python_imports.scm``: ``from
a.b import x, y as z`` (relative at any depth), ``import a.b as m`` then
``m.attr``, ``import a.b`` then ``a.b.attr``. Names imported inside ``try:``
with an ``except ImportError`` (or broader) handler are anticipated to be
absent and never reported missing. ``m.__file__`` and the other attributes
every module has are not names taken from ``m``.
"""

from __future__ import annotations

import types
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from forge.contracts.extractor import (
    ImportedName,
    ImportRef,
    ParsedSource,
    imported,
    load_query,
    matches,
    node_text,
    position,
)
from forge.contracts.python.exports import specifier_text, target_names

if TYPE_CHECKING:
    from tree_sitter import Node

_IMPORT_ERRORS = ("ImportError", "ModuleNotFoundError", "Exception", "BaseException")


def imports(parsed: ParsedSource) -> list[ImportRef]:
    """Every import statement of the file, with the attribute uses of imported modules."""
    source = parsed.source
    query = load_query(parsed.tree.language, "python_imports.scm", package="forge.contracts.python")
    statements: list[Node] = []
    chains = _Chains(source)
    for _, found in matches(query, parsed.tree.root_node):
        if "attribute" in found:
            start = found["attribute.root"][0]
            chains.add(node_text(start, source), start, _chain(found["attribute"][0]))
        else:
            statements.extend([*found.get("import", []), *found.get("import_from", [])])
    for local in _bound_to_several_modules(statements, source):
        chains.forget(local)
    refs: list[ImportRef] = []
    plain: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    plain_at: dict[tuple[str, ...], Node] = {}
    for stmt in statements:
        guarded = _guarded(stmt, source)
        if stmt.type == "import_from_statement":
            refs.extend(_from_refs(stmt, source, chains, guarded))
            continue
        for name in stmt.children_by_field_name("name"):
            if name.type == "aliased_import":
                module = node_text(name.child_by_field_name("name") or name, source)
                alias = node_text(name.child_by_field_name("alias") or name, source)
                used = chains.get(alias, ())
                attributes = _attributes(used, source)
                sets = _assigned(used, source)
                refs.append(_ref(name, module, source, attributes, guarded, sets=sets))
            else:
                parts = tuple(part.strip() for part in node_text(name, source).split("."))
                for end in range(1, len(parts) + 1):
                    plain[parts[0]].add(parts[:end])
                    plain_at.setdefault(parts[:end], name)
    for root, modules in plain.items():
        members: dict[tuple[str, ...], list[list[Node]]] = defaultdict(list)
        for chain in chains.get(root, ()):
            names = (root, *(node_text(link, source) for link in chain))
            prefix = max(
                (m for m in modules if len(m) < len(names) and names[: len(m)] == m),
                key=len,
                default=None,
            )
            if prefix is not None:
                members[prefix].append(chain[len(prefix) - 1 :])
        for path in sorted(modules):
            where = plain_at[path]
            taken = _attributes(members[path], source)
            sets = _assigned(members[path], source)
            guarded = _guarded(where, source)
            refs.append(_ref(where, ".".join(path), source, taken, guarded, sets=sets))
    refs.sort(key=lambda ref: (ref.line, ref.column))
    return refs


def _bound_to_several_modules(statements: list[Node], source: bytes) -> set[str]:
    """Local names that imports of different modules bind.

    ``try: import cython`` / ``except ModuleNotFoundError: from sqlalchemy.util
    import cython`` (sqlalchemy's compiled modules): ``cython.Py_hash_t`` is
    read from whichever import ran, so it is no name taken from the fallback
    (nor from the other); forge cannot know which.
    """
    modules: dict[str, set[str]] = defaultdict(set)
    for stmt in statements:
        if stmt.type == "import_from_statement":
            specifier = specifier_text(stmt.child_by_field_name("module_name"), source)
            for node in stmt.children_by_field_name("name"):
                aliased = node.type == "aliased_import"
                target = node.child_by_field_name("name") if aliased else node
                alias = node.child_by_field_name("alias") if aliased else None
                name = node_text(target or node, source)
                local = node_text(alias, source) if alias is not None else name
                modules[local].add(f"{specifier}:{name}")
            continue
        for node in stmt.children_by_field_name("name"):
            if node.type == "aliased_import":
                as_name = node_text(node.child_by_field_name("alias") or node, source)
                modules[as_name].add(node_text(node.child_by_field_name("name") or node, source))
            else:
                root = node_text(node, source).split(".")[0].strip()
                modules[root].add(root)
    return {local for local, found in modules.items() if len(found) > 1}


def _from_refs(stmt: Node, source: bytes, chains: _Chains, guarded: bool) -> list[ImportRef]:
    specifier = specifier_text(stmt.child_by_field_name("module_name"), source)
    names: list[ImportedName] = []
    refs: list[ImportRef] = []
    for node in stmt.children_by_field_name("name"):
        target = node.child_by_field_name("name") if node.type == "aliased_import" else node
        alias = node.child_by_field_name("alias") if node.type == "aliased_import" else None
        name = node_text(target or node, source)
        local = node_text(alias, source) if alias is not None else name
        if name not in MODULE_ATTRIBUTES:  # `from ._parser import __doc__` (dateutil)
            names.append(imported(node, source, name, local))
        # `from pkg import sub` may import the submodule pkg/sub.py: then
        # `sub.attr` uses are names taken from it.
        submodule = specifier + name if specifier.endswith(".") else f"{specifier}.{name}"
        used = chains.get(local, ())
        members = _attributes(used, source)
        sets = _assigned(used, source)
        refs.append(_ref(node, submodule, source, members, guarded, tentative=True, sets=sets))
    module = stmt.child_by_field_name("module_name") or stmt
    return [_ref(module, specifier, source, names, guarded), *refs]


#: Attributes every module object has (``m.__file__``, ``m.__name__``): never exports to check.
MODULE_ATTRIBUTES = frozenset(dir(types.ModuleType("_"))) | {
    "__file__",
    "__dict__",
    "__cached__",
    "__builtins__",
    "__path__",
}


def _attributes(chains: Iterable[list[Node]], source: bytes) -> list[ImportedName]:
    """The first link of each attribute chain, as a name taken from the module.

    Not a name taken: one the file sets or deletes (``tags._glibc_version = []``
    in packaging's tests), one it also sets itself, wherever it reads it (toolz's tests
    set ``toolz.__test__ = {}``, then fill ``toolz.__test__[name]``: the file
    provides it, not the module), and one read where the file expects it to be
    missing (``with pytest.raises(AttributeError): pluggy.nope``).
    """
    chains = list(chains)
    assigned = _assigned(chains, source)
    found = []
    for chain in chains:
        use = chain[0].parent
        name = node_text(chain[0], source)
        if (
            name in MODULE_ATTRIBUTES
            or name in assigned
            or use is None
            or _stored(use)
            or _expects_failure(use, source)
        ):
            continue
        found.append(imported(chain[0], source, name))
    return found


def _assigned(chains: Iterable[list[Node]], source: bytes) -> set[str]:
    """The first links the file assigns (``config.db = x``; ``del config.db`` is no assignment)."""
    found = set()
    for chain in chains:
        use = chain[0].parent
        if (
            use is not None
            and _stored(use)
            and use.parent is not None
            and use.parent.type != "delete_statement"
        ):
            found.add(node_text(chain[0], source))
    return found


def _stored(node: Node) -> bool:
    """Whether ``node`` is a target of ``=`` (or of ``del``): it binds, it does not read."""
    child, parent = node, node.parent
    while parent is not None and parent.type in {"pattern_list", "tuple_pattern", "list_pattern"}:
        child, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type == "assignment":
        return parent.child_by_field_name("left") == child
    return parent.type == "delete_statement"


#: Context managers that expect their body to fail: a missing name there is the test.
_EXPECTS_FAILURE = ("raises(", "assertRaises(", "assertRaisesRegex(")


def _expects_failure(node: Node, source: bytes) -> bool:
    """Whether ``node`` sits in the body of ``with pytest.raises(...)`` or ``assertRaises``."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "with_statement" and parent.child_by_field_name("body") == child:
            clause = next((c for c in parent.named_children if c.type == "with_clause"), None)
            if clause is not None and any(
                marker in node_text(clause, source) for marker in _EXPECTS_FAILURE
            ):
                return True
        child, parent = parent, parent.parent
    return False


class _Chains:
    """Attribute chains by the name they start at, without those a function's local owns.

    ``import config`` then ``def load(config): config.debug``: that
    ``config`` is the parameter, not the module. Read lazily, per name asked.
    """

    def __init__(self, source: bytes) -> None:
        self._source = source
        self._found: dict[str, list[tuple[Node, list[Node]]]] = defaultdict(list)
        self._visible: dict[str, list[list[Node]]] = {}
        self._locals: dict[int, set[str]] = {}

    def add(self, name: str, start: Node, chain: list[Node]) -> None:
        self._found[name].append((start, chain))

    def forget(self, name: str) -> None:
        """Drop the chains of ``name``: no module can be said to own them."""
        self._found.pop(name, None)

    def get(self, name: str, default: Iterable[list[Node]] = ()) -> list[list[Node]]:
        if name not in self._found:
            return list(default)
        if name not in self._visible:
            self._visible[name] = [
                chain for start, chain in self._found[name] if not self._shadowed(start, name)
            ]
        return self._visible[name]

    def _shadowed(self, node: Node, name: str) -> bool:
        parent = node.parent
        while parent is not None:
            if parent.type in {"function_definition", "lambda"}:
                if parent.id not in self._locals:
                    self._locals[parent.id] = _function_locals(parent, self._source)
                if name in self._locals[parent.id]:
                    return True
            parent = parent.parent
        return False


def _function_locals(function: Node, source: bytes) -> set[str]:
    """Names a function binds itself: parameters and assignments (not imports), less ``global``."""
    names: set[str] = set()
    parameters = function.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else ():
        named = parameter.child_by_field_name("name")
        if parameter.type == "identifier":
            names.add(node_text(parameter, source))
        elif named is not None:
            names.add(node_text(named, source))
        else:
            names.update(
                node_text(c, source) for c in parameter.named_children if c.type == "identifier"
            )
    body = function.child_by_field_name("body")
    declared: set[str] = set()
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in {"function_definition", "class_definition", "lambda"}:
            names.update(target_names(node.child_by_field_name("name"), source))
            continue
        if kind in {"assignment", "augmented_assignment", "for_statement", "for_in_clause"}:
            names.update(target_names(node.child_by_field_name("left"), source))
        elif kind == "named_expression":
            names.update(target_names(node.child_by_field_name("name"), source))
        elif kind == "as_pattern":
            names.update(target_names(node.child_by_field_name("alias"), source))
        elif kind in {"global_statement", "nonlocal_statement"}:
            declared.update(node_text(c, source) for c in node.named_children)
        stack.extend(node.named_children)
    return names - declared


def _chain(innermost: Node) -> list[Node]:
    """The attribute names of a chain ``a.b.c`` from its innermost link: [b, c]."""
    links: list[Node] = []
    node: Node | None = innermost
    while node is not None and node.type == "attribute":
        attribute = node.child_by_field_name("attribute")
        if attribute is None:
            break
        links.append(attribute)
        parent = node.parent
        if (
            parent is None
            or parent.type != "attribute"
            or parent.child_by_field_name("object") != node
        ):
            break
        node = parent
    return links


def _guarded(node: Node, source: bytes) -> bool:
    """Whether ``node`` sits in a ``try:`` body whose handlers catch ImportError."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "try_statement" and parent.child_by_field_name("body") == child:
            for handler in parent.named_children:
                if handler.type not in {"except_clause", "except_group_clause"}:
                    continue
                caught = [c for c in handler.named_children if c.type != "block"]
                if not caught or any(
                    error in node_text(c, source) for c in caught for error in _IMPORT_ERRORS
                ):
                    return True
        child, parent = parent, parent.parent
    return False


def _ref(
    node: Node,
    specifier: str,
    source: bytes,
    names: list[ImportedName],
    guarded: bool,
    *,
    tentative: bool = False,
    sets: Iterable[str] = (),
) -> ImportRef:
    line, column = position(node, source)
    return ImportRef(
        specifier,
        line,
        column,
        tuple(names),
        guarded=guarded,
        tentative=tentative,
        sets=tuple(sorted(sets)),
    )
