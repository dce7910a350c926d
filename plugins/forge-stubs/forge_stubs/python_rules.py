"""Python placeholders: functions whose body is ``pass``, ``...``, a docstring, or a raise.

Exempt, because there the body is a declaration or a deliberate no-op rather
than a missing implementation:

- ``@abstractmethod``, ``@overload``, pluggy hook specifications (decorators
  made by ``HookspecMarker``, and undecorated functions with the decorated
  ones' prefix beside them), and decorators that give an empty body its
  meaning (``@click.group()``, ``@pytest.fixture``, event handlers), plus any
  the options add;
- members of ``Protocol`` and ``ABC`` classes and of base classes (named
  ``Base*``/``*Mixin``/..., extended in the same file, or declaring an
  abstract member by its error message): their empty methods are default hooks;
- functions under ``if TYPE_CHECKING:`` (or ``if ... and TYPE_CHECKING:``);
- views whose decorator names the template that renders them
  (``@export("/", template="static/index.html")``): the template is the page;
- in test code, every function that is not itself a test: fakes and hooks
  whose emptiness is the point (an empty ``test_*`` still counts);
- the no-op side of a conditional definition whose other branch binds the
  name for real, a declaration a later definition replaces with real code,
  and methods of a null object (by its docstring or its name);
- ``noop``, ``close``/``flush``/``__exit__`` with nothing to release, functions
  whose parameters are all ``_``-named, and docstrings that say why
  ("does nothing by default", "override");
- empty overrides of a method another class of the file defines, or that does
  real work in a base class of another file or in the class a drop-in is
  assigned over (found by :mod:`forge_stubs.inheritance`, from the class facts
  of :mod:`forge_stubs.python_classes`);
- FastAPI webhook and callback declarations, which only OpenAPI reads.

This module holds the entry points :mod:`forge_stubs.detect` calls
(:func:`functions`, :func:`is_empty_module`, and :func:`extended_classes`
from :mod:`forge_stubs.python_classes`) and :func:`_deliberate`, which applies
the exemptions in order. What a placeholder body looks like is
:mod:`forge_stubs.python_bodies`'s; the exemptions are decided in
:mod:`forge_stubs.python_classes` (bases, null objects, siblings),
:mod:`forge_stubs.python_declarations` (code other tools read) and
:mod:`forge_stubs.python_bindings` (how the file binds and uses the function).
"""

from __future__ import annotations

from pathlib import PurePath

from tree_sitter import Node

from forge_stubs.deferred import asserts_placeholder, refuses
from forge_stubs.functions import (
    FileFacts,
    Function,
    Placeholder,
    declines,
    empty_by_name,
    ignores_its_parameters,
    is_intentional,
    is_test_file,
    shows_tests,
    stands_in,
)
from forge_stubs.options import StubOptions
from forge_stubs.python_bindings import (
    default_for_a_parameter,
    fallback_for_a_real_binding,
    handed_over,
    rebound,
    replaced_later,
)
from forge_stubs.python_bodies import (
    docstring_of,
    is_docstring,
    raise_message,
    raises_placeholder,
    returns_literal,
    trivial_kind,
)
from forge_stubs.python_classes import (
    OPTION_HOOKS,
    declares_no_options,
    extended_classes,  # also part of the rules' interface: detect.extended_classes calls it
    is_base_class,
    is_null_object,
    overrides_a_sibling,
    overrides_concrete_base,
)
from forge_stubs.python_declarations import (
    a_group_by_its_class,
    declares_an_operation,
    hookspec_markers,
    rendered_by_template,
    undeclared_hookspec,
    under_type_checking,
)
from forge_stubs.python_syntax import at_top_level, decorated_exempt, own_name, parameter_names
from forge_stubs.source import Source


def functions(
    src: Source,
    options: StubOptions,
    path: PurePath,
    extended: frozenset[str],
    overrides: frozenset[str] = frozenset(),
) -> list[Function]:
    """Every function and method of the file, with its placeholder body if it has one.

    ``extended`` names classes other files extend, beside those this file extends;
    ``overrides`` the methods (``Class.method``) that override one doing real
    work in a base class of another file (:mod:`forge_stubs.inheritance`).
    """
    facts = FileFacts(
        test_file=is_test_file(path) or stands_in(path),
        example_tests=shows_tests(path),
        extended=extended_classes(src) | extended,
        declaring_decorators=hookspec_markers(src),
        overrides=overrides,
    )
    found = []
    for match in src.matches("python"):
        node, body = match["function"], match["body"]
        name = _qualified_name(src, node)
        placeholder = _placeholder(src, body, options, name.split("."))
        if placeholder is None:
            placeholder = _refused_override(src, node, body, facts)
        if placeholder is not None and _deliberate(src, node, placeholder, facts, options):
            placeholder = None
        found.append(Function(node=node, name=name, placeholder=placeholder))
    return found


def is_empty_module(src: Source) -> Node | None:
    """The module's root node when it holds nothing but a docstring, ``pass`` or ``...``."""
    root = src.tree.root_node
    statements = [child for child in root.named_children if child.type != "comment"]
    if statements and is_docstring(statements[0]):
        statements = statements[1:]
    if all(trivial_kind(statement) for statement in statements):
        return root
    return None


def _placeholder(
    src: Source, body: Node, options: StubOptions, names: list[str]
) -> Placeholder | None:
    statements = [child for child in body.named_children if child.type != "comment"]
    docstring = statements[0] if statements and is_docstring(statements[0]) else None
    rest = statements[1:] if docstring else statements
    if not rest:
        return ("docstring_only", docstring) if docstring else None
    kinds = [trivial_kind(statement) for statement in rest]
    if all(kinds):
        return (kinds[0], rest[0])  # type: ignore[return-value]
    if len(rest) != 1:
        return None
    if rest[0].type == "raise_statement" and raises_placeholder(src, rest[0], options, names):
        return ("not_implemented", rest[0])
    if rest[0].type == "return_statement" and returns_literal(rest[0]):
        return ("hardcoded_return", rest[0])
    if asserts_placeholder(src, rest[0], options):
        return ("not_implemented", rest[0])
    return None


def _refused_override(src: Source, node: Node, body: Node, facts: FileFacts) -> Placeholder | None:
    """``raise NotImplementedError(...)`` over a base's method that does real work.

    Whatever the message (``"discounted price"``), unless it explains a
    refusal (``"read-only"``): the subclass left the method unwritten.
    """
    statements = [child for child in body.named_children if child.type != "comment"]
    if statements and is_docstring(statements[0]):
        statements = statements[1:]
    if len(statements) != 1 or statements[0].type != "raise_statement":
        return None
    raised = raise_message(src, statements[0])
    if raised is None or raised[0] != "NotImplementedError" or refuses(raised[1]):
        return None
    cls = _enclosing_class(node)
    if cls is None:
        return None
    own = own_name(src, node)
    if overrides_concrete_base(src, cls, own) or _qualified_name(src, node) in facts.overrides:
        return ("not_implemented", statements[0])
    return None


def _deliberate(
    src: Source, node: Node, placeholder: Placeholder, facts: FileFacts, options: StubOptions
) -> bool:
    """True when the body, though it looks like a placeholder, is what its author meant."""
    if decorated_exempt(src, node, options.exempt_decorators | facts.declaring_decorators):
        return True
    if placeholder[0] in {"pass", "ellipsis", "docstring_only"} and (
        rendered_by_template(src, node) or a_group_by_its_class(src, node)
    ):
        return True
    if under_type_checking(src, node):
        return True
    cls = _enclosing_class(node)
    if cls is not None and is_base_class(src, cls, facts):
        return True
    own = own_name(src, node)
    if facts.test_file and not _is_test(own, node):
        return True
    if (
        facts.example_tests
        and _is_test(own, node)
        and placeholder[0] in {"pass", "ellipsis", "docstring_only"}
    ):
        return True  # pytest's testing/example_scripts/: an empty test is the input
    if cls is not None and rebound(src, own):
        return True
    if placeholder[0] in {"not_implemented", "hardcoded_return"}:
        return False
    parameters = parameter_names(src, node, cls)
    if empty_by_name(own) or ignores_its_parameters(parameters):
        return True
    if _is_dunder(own) and not parameters:
        return True  # __init__(self) or __aenter__(self): nothing was given to do anything with
    if (cls is not None or at_top_level(node)) and handed_over(src, own, method=cls is not None):
        return True
    scope = _enclosing_function(node) if cls is None else None
    if scope is not None and handed_over(src, own, method=False, scope=scope):
        return True  # pytest's HookRecorder: add_hookcall_monitoring(before, after)
    if fallback_for_a_real_binding(src, node, own) or replaced_later(src, node, own):
        return True
    if cls is not None and is_null_object(src, cls, options):
        return True
    if cls is not None and own in OPTION_HOOKS and declares_no_options(src, cls):
        return True
    if cls is None and undeclared_hookspec(src, node, own, facts.declaring_decorators):
        return True
    if cls is not None and overrides_a_sibling(src, cls, own):
        return True
    if cls is not None and _qualified_name(src, node) in facts.overrides:
        return True  # it turns off what a base class of another file does
    if declares_an_operation(src, node):
        return True
    if default_for_a_parameter(src, node, own):
        return True
    docstring = docstring_of(node)
    return docstring is not None and (
        is_intentional(src.text(docstring), options) or declines(src.text(docstring))
    )


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _is_test(name: str, node: Node) -> bool:
    """A test function pytest would collect: ``test*``, not nested in another function."""
    current = node.parent
    while current is not None:
        if current.type == "function_definition":
            return False
        current = current.parent
    return name.startswith("test")


def _enclosing_class(node: Node) -> Node | None:
    """The class ``node`` is a direct member of (through a decorator), or None."""
    parent = node.parent
    if parent is not None and parent.type == "decorated_definition":
        parent = parent.parent
    if parent is None or parent.type != "block":
        return None
    owner = parent.parent
    return owner if owner is not None and owner.type == "class_definition" else None


def _enclosing_function(node: Node) -> Node | None:
    """The function ``node`` is nested in, or None at module or class level."""
    current = node.parent
    while current is not None and current.type not in {"function_definition", "class_definition"}:
        current = current.parent
    return current if current is not None and current.type == "function_definition" else None


def _qualified_name(src: Source, node: Node) -> str:
    parts = []
    current: Node | None = node
    while current is not None:
        if current.type in {"function_definition", "class_definition"}:
            name = current.child_by_field_name("name")
            if name is not None:
                parts.append(src.text(name))
        current = current.parent
    return ".".join(reversed(parts))
