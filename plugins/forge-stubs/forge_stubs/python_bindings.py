"""How a Python file binds and uses a function, where that makes an empty body deliberate.

- a function the file hands over and never calls (``{"on_end": self.on_end}``,
  ``typer.Typer(callback=old_callback)``): :func:`handed_over`;
- the no-op side of a conditional definition whose other branch binds the
  name for real (:func:`fallback_for_a_real_binding`), and a declaration a
  later definition replaces with real code (:func:`replaced_later`);
- a method the instance replaces at run time (``self.read = sock.recv``):
  :func:`rebound`;
- a nested function named after a parameter of the function around it, the
  default of an optional callback: :func:`default_for_a_parameter`.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from forge_stubs.python_bodies import is_empty_body
from forge_stubs.python_syntax import own_name, parameter_names
from forge_stubs.source import Source


def handed_over(src: Source, name: str, *, method: bool, scope: Node | None = None) -> bool:
    """A function the file (or ``scope``, for a nested one) hands over and never calls.

    ``{"on_end": self.on_end}`` (starlette), ``typer.Typer(callback=old_callback)``,
    ``pluginmanager.add_hookcall_monitoring(before, after)`` inside a method.
    Only code counts: a name in a string (``__all__ = ["name"]``) is no use.
    """
    uses: list[Node] = []
    stack = [scope if scope is not None else src.tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if method and node.type == "attribute":
            owner, attribute = (
                node.child_by_field_name("object"),
                node.child_by_field_name("attribute"),
            )
            if (
                owner is not None
                and attribute is not None
                and src.text(owner) == "self"
                and src.text(attribute) == name
            ):
                uses.append(node)
        elif not method and node.type == "identifier" and src.text(node) == name:
            parent = node.parent
            if parent is None or parent.type not in {"function_definition", "attribute"}:
                uses.append(node)
    if scope is not None and not any(_passed_to_a_call(use) for use in uses):
        return False  # a nested function returned (a factory's product) is its own code
    return bool(uses) and not any(
        use.parent is not None
        and use.parent.type == "call"
        and use.parent.child_by_field_name("function") == use
        for use in uses
    )


def _passed_to_a_call(use: Node) -> bool:
    """Whether ``use`` is an argument of a call: ``register(after)``, ``f(callback=after)``."""
    parent = use.parent
    if parent is not None and parent.type == "keyword_argument":
        parent = parent.parent
    return parent is not None and parent.type == "argument_list"


#: Clauses of an ``if`` or ``try`` whose blocks are alternatives to each other.
_BRANCHES = {"elif_clause", "else_clause", "except_clause", "except_group_clause"}


def fallback_for_a_real_binding(src: Source, node: Node, name: str) -> bool:
    """The no-op side of a conditional definition: another branch binds the name for real.

    ``if os.environ.get("_ARGCOMPLETE"): def try_argcomplete(p): autocomplete(p)``
    ``else: def try_argcomplete(p): pass`` (pytest), or ``try: from colorama
    import init`` / ``except ImportError: def init(): pass``: without the
    feature, doing nothing is the implementation. Another branch that is
    itself a placeholder, or no other branch, does not count.
    """
    parent = node.parent
    definition = parent if parent is not None and parent.type == "decorated_definition" else node
    block = definition.parent
    branch = block.parent if block is not None else None
    owner = branch.parent if branch is not None and branch.type in _BRANCHES else branch
    if block is None or owner is None or owner.type not in {"if_statement", "try_statement"}:
        return False
    return any(
        _binds_for_real(src, member, name)
        for other in _branch_blocks(owner)
        if other != block
        for member in other.named_children
    )


def replaced_later(src: Source, node: Node, name: str) -> bool:
    """A definition that a later one of the same scope replaces with real code.

    sqlalchemy documents ``def and_(initial_clause, *clauses): ...`` for type
    checkers and readers, then ``if not TYPE_CHECKING: def and_(*clauses):``
    does the work: the first never runs. A later placeholder, or an earlier
    real definition, does not count (the placeholder is what runs).
    """
    parent = node.parent
    definition = parent if parent is not None and parent.type == "decorated_definition" else node
    sibling = definition.next_named_sibling
    while sibling is not None:
        if _binds_for_real(src, sibling, name, values=False):
            return True
        if sibling.type in {"if_statement", "try_statement"} and any(
            _binds_for_real(src, member, name, values=False)
            for block in _branch_blocks(sibling)
            for member in block.named_children
        ):
            return True
        sibling = sibling.next_named_sibling
    return False


def _branch_blocks(owner: Node) -> list[Node]:
    """The blocks of an ``if`` or ``try`` that run instead of each other (not ``finally``)."""
    blocks = []
    for child in owner.named_children:
        if child.type == "block":  # the if's consequence, the try's body
            blocks.append(child)
        elif child.type in _BRANCHES:
            blocks.extend(c for c in child.named_children if c.type == "block")
    return blocks


def _binds_for_real(src: Source, statement: Node, name: str, *, values: bool = True) -> bool:
    """Whether ``statement`` binds ``name`` to something real: a working def, an import, a value.

    Without ``values``, an assignment does not count: ``f = wrap(f)`` after
    ``def f(): pass`` keeps the placeholder running.
    """
    if statement.type == "decorated_definition":
        statement = statement.child_by_field_name("definition") or statement
    if statement.type == "function_definition":
        body = statement.child_by_field_name("body")
        return own_name(src, statement) == name and body is not None and not is_empty_body(body)
    if statement.type in {"import_statement", "import_from_statement"}:
        for item in statement.children_by_field_name("name"):
            bound = item.child_by_field_name("alias") if item.type == "aliased_import" else item
            if bound is not None and src.text(bound).split(".")[0].strip() == name:
                return True
        return False
    if values and statement.type == "expression_statement" and statement.named_children:
        assignment = statement.named_children[0]
        left = assignment.child_by_field_name("left") if assignment.type == "assignment" else None
        return left is not None and src.text(left) == name
    return False


def rebound(src: Source, method: str) -> bool:
    """A method the instance replaces at run time: ``self.read = sock.recv``, ``setattr(self, "read", f)``."""
    name = re.escape(method)
    pattern = rf"\bself\.{name}\s*=[^=]|\bsetattr\(\s*self\s*,\s*[\"']{name}[\"']"
    return re.search(pattern, src.text(src.tree.root_node)) is not None


def default_for_a_parameter(src: Source, node: Node, name: str) -> bool:
    """A nested function bound to a parameter's name: the default of an optional callback."""
    current = node.parent
    while current is not None and current.type != "function_definition":
        current = current.parent
    return current is not None and name in parameter_names(src, current, None)
