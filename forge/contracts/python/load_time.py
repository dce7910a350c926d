"""Python errors a parser cannot see, that happen when a module is loaded or its code runs.

- :func:`checking_only_uses`: a name bound only under ``if TYPE_CHECKING:`` and
  used where it is evaluated at run time (``return Order(-t)``): ``NameError``.
  Annotations are never counted as uses (``from __future__ import
  annotations``, strings, and Python 3.14's lazy annotations make them fine),
  nor names a function or class binds itself.
- :func:`module_steps`: what a module does at its top level, in order (binds
  names, imports modules unconditionally), for :mod:`forge.contracts.python.cycles`.

Read from the tree-sitter tree; precision first: whatever may bind a name
(``from x import *``, ``globals()``, a module ``__getattr__``) binds every name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from forge.contracts.extractor import node_text, position

if TYPE_CHECKING:
    from tree_sitter import Node

#: Text that may bind any module-level name at run time.
_DYNAMIC = (b"globals()", b"sys.modules[__name__]", b"def __getattr__")
_SCOPES = ("function_definition", "class_definition", "lambda")
_BLOCKS = (
    "if_statement", "try_statement", "with_statement", "for_statement", "while_statement",
    "block", "else_clause", "elif_clause", "except_clause", "finally_clause", "match_statement",
    "case_clause", "decorated_definition", "except_group_clause",
)  # fmt: skip


@dataclass(frozen=True)
class Use:
    """A run-time use of a name bound only under ``if TYPE_CHECKING:``."""

    name: str
    line: int
    column: int
    #: Where the name is bound (under TYPE_CHECKING).
    bound_line: int


def is_type_checking(node: Node, source: bytes) -> bool:
    """Whether an ``if`` statement's condition is ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    condition = node.child_by_field_name("condition")
    if condition is None:
        return False
    text = node_text(condition, source)
    return text == "TYPE_CHECKING" or text.endswith(".TYPE_CHECKING")


def bound_names(node: Node, source: bytes) -> set[str]:
    """Names a statement binds in its scope (not inside nested functions or classes)."""
    found: set[str] = set()
    kind = node.type
    if kind in ("function_definition", "class_definition"):
        name = node.child_by_field_name("name")
        return {node_text(name, source)} if name is not None else set()
    if kind == "import_statement":
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                alias = child.child_by_field_name("alias")
                found.add(node_text(alias, source) if alias is not None else "")
            else:
                found.add(node_text(child, source).split(".")[0])
        return found
    if kind == "import_from_statement":
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                alias = child.child_by_field_name("alias")
                if alias is not None:
                    found.add(node_text(alias, source))
            else:
                found.add(node_text(child, source))
        return found
    if kind in ("assignment", "augmented_assignment", "for_statement", "for_in_clause"):
        left = node.child_by_field_name("left")
        return _identifiers(left, source) if left is not None else set()
    if kind in ("as_pattern", "with_item", "named_expression", "type_alias_statement"):
        target = node.child_by_field_name("alias") or node.child_by_field_name("name")
        return _identifiers(target, source) if target is not None else set()
    if kind in _SCOPES:
        return found
    for child in node.named_children:
        found |= bound_names(child, source)
    return found


def _identifiers(node: Node, source: bytes) -> set[str]:
    if node.type == "identifier":
        return {node_text(node, source)}
    if node.type in ("attribute", "subscript"):
        return set()
    found: set[str] = set()
    for child in node.named_children:
        found |= _identifiers(child, source)
    return found


def binds_anything(source: bytes) -> bool:
    """Whether the module may bind names forge cannot see (``globals()``, ``__getattr__``)."""
    return any(text in source for text in _DYNAMIC)


def checking_only_uses(root: Node, source: bytes) -> list[Use]:
    """Run-time uses of names bound only under a module-level ``if TYPE_CHECKING:``."""
    if binds_anything(source):
        return []
    guarded: dict[str, int] = {}
    runtime: set[str] = set()
    for statement in root.named_children:
        if (
            statement.type == "import_from_statement"
            and statement.child_by_field_name("name") is None
        ):
            return []  # from x import *: any name may be bound at run time
        if statement.type == "if_statement" and is_type_checking(statement, source):
            block = statement.child_by_field_name("consequence")
            for inner in block.named_children if block is not None else []:
                for name in bound_names(inner, source):
                    guarded.setdefault(name, position(inner, source)[0])
            for branch in statement.children_by_field_name("alternative"):
                runtime |= bound_names(branch, source)
        else:
            runtime |= bound_names(statement, source)
    names = {name: line for name, line in guarded.items() if name not in runtime}
    if not names:
        return []
    uses: list[Use] = []
    _collect(root, source, names, frozenset(), uses)
    return uses


def _collect(
    node: Node, source: bytes, names: dict[str, int], local: frozenset[str], uses: list[Use]
) -> None:
    kind = node.type
    if kind in (
        "type",
        "string",
        "import_statement",
        "import_from_statement",
        "future_import_statement",
    ):
        return  # annotations, strings and imports evaluate no name of these
    if kind == "if_statement" and is_type_checking(node, source):
        for branch in node.children_by_field_name("alternative"):
            _collect(branch, source, names, local, uses)
        return
    if kind in _SCOPES:
        local = local | _scope_bindings(node, source)
    if kind == "identifier":
        name = node_text(node, source)
        if name in names and name not in local and _read_here(node):
            line, column = position(node, source)
            uses.append(Use(name, line, column, names[name]))
        return
    for child in node.named_children:
        _collect(child, source, names, local, uses)


def _read_here(node: Node) -> bool:
    """Whether an identifier is a name read, not an attribute's or a keyword argument's name."""
    parent = node.parent
    if parent is None:
        return True
    if parent.type == "attribute" and parent.child_by_field_name("attribute") == node:
        return False
    if parent.type == "keyword_argument" and parent.child_by_field_name("name") == node:
        return False
    return parent.type not in (
        "dotted_name",
        "aliased_import",
        "global_statement",
        "nonlocal_statement",
    )


def _scope_bindings(node: Node, source: bytes) -> set[str]:
    """The names a function, lambda or class binds itself (parameters, assignments, imports)."""
    found: set[str] = set()
    parameters = node.child_by_field_name("parameters")
    if parameters is not None:
        for parameter in parameters.named_children:
            name = parameter.child_by_field_name("name")
            target = name if name is not None else parameter
            if target.type == "identifier":
                found.add(node_text(target, source))
            else:
                found |= {
                    node_text(child, source)
                    for child in target.named_children
                    if child.type == "identifier"
                }
    body = node.child_by_field_name("body")
    stack = list(body.named_children) if body is not None else []
    while stack:
        current = stack.pop()
        found |= bound_names(current, source)
        if current.type not in _SCOPES:
            stack.extend(current.named_children)
    return found


@dataclass
class Step:
    """One top-level statement of a module: what it binds, and the module it imports if any."""

    line: int
    column: int
    binds: set[str] = field(default_factory=set)
    #: The module imported, unconditionally, as written (``.pricing``, ``shop.pricing``).
    specifier: str | None = None
    #: The names a ``from`` import takes from it (empty: ``import x``).
    takes: tuple[str, ...] = ()
    #: ``from x import *``, a ``globals()`` update: any name may be bound from here on.
    binds_any: bool = False


def module_steps(root: Node, source: bytes) -> list[Step]:
    """The module's top-level statements in order; imports under ``if``/``try`` bind, never import."""
    steps: list[Step] = []
    dynamic = binds_anything(source)
    for statement in root.named_children:
        line, column = position(statement, source)
        step = Step(line, column, binds=bound_names(statement, source), binds_any=dynamic)
        if statement.type == "import_from_statement":
            module = statement.child_by_field_name("module_name")
            step.specifier = node_text(module, source) if module is not None else None
            step.takes = tuple(
                node_text(child.child_by_field_name("name") or child, source)
                for child in statement.children_by_field_name("name")
            )
            step.binds_any = step.binds_any or not step.takes
        elif statement.type == "import_statement":
            for child in statement.children_by_field_name("name"):
                dotted = (
                    child.child_by_field_name("name") if child.type == "aliased_import" else child
                )
                if dotted is not None:
                    steps.append(Step(line, column, specifier=node_text(dotted, source)))
        steps.append(step)
    return steps
