"""Python functions that are declarations another tool reads, not code that runs.

- functions under ``if TYPE_CHECKING:`` (or ``if ... and TYPE_CHECKING:``),
  for type checkers (:func:`under_type_checking`);
- pluggy hook specifications: functions decorated by a name bound to
  ``HookspecMarker(...)`` (:func:`hookspec_markers`), and undecorated ones
  with the decorated ones' prefix beside them (:func:`undeclared_hookspec`);
- views whose decorator names the template that renders them
  (``@export("/", template="static/index.html")``): the template is the page
  (:func:`rendered_by_template`);
- FastAPI webhook and callback declarations, which only OpenAPI reads
  (:func:`declares_an_operation`).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from forge_stubs.python_syntax import at_top_level, decorated_exempt, last_name, own_name
from forge_stubs.source import Source


def under_type_checking(src: Source, node: Node) -> bool:
    """True inside the body of ``if TYPE_CHECKING:``: declarations for type checkers.

    Also ``if sys.version_info >= (3, 11) and TYPE_CHECKING:`` (aiohttp's
    typed ``ClientSession.get``): a conjunction with ``TYPE_CHECKING`` is
    false whenever the code runs. ``or`` and ``not`` are not: the body runs.
    """
    child, current = node, node.parent
    while current is not None:
        if current.type == "if_statement" and child == current.child_by_field_name("consequence"):
            condition = current.child_by_field_name("condition")
            if condition is not None and _requires_type_checking(src, condition):
                return True
        child, current = current, current.parent
    return False


def _requires_type_checking(src: Source, condition: Node) -> bool:
    """Whether ``condition`` holds only when ``TYPE_CHECKING`` does (it, or ``x and`` it)."""
    if condition.type == "parenthesized_expression" and condition.named_children:
        return _requires_type_checking(src, condition.named_children[0])
    if condition.type == "boolean_operator":
        operator = condition.child_by_field_name("operator")
        if operator is None or src.text(operator) != "and":
            return False
        return any(
            side is not None and _requires_type_checking(src, side)
            for side in (
                condition.child_by_field_name("left"),
                condition.child_by_field_name("right"),
            )
        )
    return condition.type in {"identifier", "attribute"} and (
        last_name(src.text(condition)) == "TYPE_CHECKING"
    )


def hookspec_markers(src: Source) -> frozenset[str]:
    """Module-level names bound to ``HookspecMarker(...)``: ``hookspec = pluggy.HookspecMarker("x")``."""
    names = set()
    for statement in src.tree.root_node.named_children:
        assignment = statement.named_children[0] if statement.named_children else None
        if statement.type != "expression_statement" or assignment is None:
            continue
        left, right = (
            assignment.child_by_field_name("left"),
            assignment.child_by_field_name("right"),
        )
        if assignment.type != "assignment" or left is None or right is None:
            continue
        callee = right.child_by_field_name("function") if right.type == "call" else None
        if callee is not None and last_name(src.text(callee)) == "HookspecMarker":
            names.add(src.text(left))
    return frozenset(names)


def undeclared_hookspec(src: Source, node: Node, name: str, markers: frozenset[str]) -> bool:
    """An undecorated hook specification beside decorated ones: pytest's ``hookspec.py``.

    In a module that binds a ``HookspecMarker``, a top-level function named
    with the prefix of the functions it decorates (``pytest_``) is a hook
    specification too: pytest's plugin manager reads every ``pytest_*``
    function of the module, decorated or not.
    """
    if not markers or not at_top_level(node) or "_" not in name.strip("_"):
        return False
    prefix = name.split("_")[0] + "_"
    if prefix == "_":
        return False
    for statement in src.tree.root_node.named_children:
        if statement.type != "decorated_definition":
            continue
        definition = statement.child_by_field_name("definition")
        if definition is None or not own_name(src, definition).startswith(prefix):
            continue
        if decorated_exempt(src, definition, markers):
            return True
    return False


#: Keyword arguments by which a view's decorator names the template that renders
#: it (werkzeug's examples, Pyramid's ``renderer=``, Django-style ``template_name=``).
_TEMPLATE_KEYWORDS = {"template", "template_name", "renderer"}


#: A command class that is a group of commands (click's ``Group``, an ``AliasedGroup``,
#: ``MultiCommand``, ``CommandCollection``, typer's ``TyperGroup``).
_GROUP_CLASS = re.compile(r"Group|MultiCommand|CommandCollection")


def a_group_by_its_class(src: Source, node: Node) -> bool:
    """``@click.command(cls=AliasedGroup)``: a command decorator that makes a group.

    click's aliases example: the group's body is its help text, as with
    ``@click.group()``. ``@click.command(cls=click.Command)`` left empty still counts.
    """
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    for decorator in parent.named_children:
        call = decorator.named_children[0] if decorator.named_children else None
        if call is None or call.type != "call":
            continue
        function = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if function is None or arguments is None or last_name(src.text(function)) != "command":
            continue
        for argument in arguments.named_children:
            name = argument.child_by_field_name("name")
            value = argument.child_by_field_name("value")
            if (
                argument.type == "keyword_argument"
                and name is not None
                and src.text(name) == "cls"
                and value is not None
                and _GROUP_CLASS.search(last_name(src.text(value)))
            ):
                return True
    return False


def rendered_by_template(src: Source, node: Node) -> bool:
    """Whether a decorator hands the function a template to render: ``@export("/", template="x.html")``.

    The template is the page; the view has nothing to compute. An empty view
    whose decorator names no template (``@export("/broken")``) still counts.
    """
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    for decorator in parent.named_children:
        call = decorator.named_children[0] if decorator.named_children else None
        arguments = call.child_by_field_name("arguments") if call and call.type == "call" else None
        for argument in arguments.named_children if arguments is not None else ():
            name = argument.child_by_field_name("name")
            value = argument.child_by_field_name("value")
            if (
                argument.type == "keyword_argument"
                and name is not None
                and src.text(name) in _TEMPLATE_KEYWORDS
                and value is not None
                and value.type == "string"
            ):
                return True
    return False


def declares_an_operation(src: Source, node: Node) -> bool:
    """A FastAPI webhook or callback: OpenAPI documents it, nothing ever runs its body.

    ``@app.webhooks.post("new-subscription")``, and ``@router.post(...)`` on a
    router whose ``router.routes`` the file hands to a route as ``callbacks=``.
    A route of the app or of any other router is served: empty, it is a placeholder.
    """
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    routers: set[str] | None = None
    for decorator in parent.named_children:
        expression = decorator.named_children[0] if decorator.named_children else None
        callee = expression.child_by_field_name("function") if expression is not None else None
        owner = callee.child_by_field_name("object") if callee is not None else None
        if expression is None or expression.type != "call" or owner is None:
            continue
        if last_name(src.text(owner)) == "webhooks":
            return True
        if routers is None:
            routers = set(_CALLBACK_ROUTES.findall(src.text(src.tree.root_node)))
        if src.text(owner) in routers:
            return True
    return False


#: ``callbacks=invoices_callback_router.routes``: the router's routes are a route's callbacks.
_CALLBACK_ROUTES = re.compile(r"\bcallbacks\s*=\s*([A-Za-z_][\w.]*)\.routes\b")
