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
  assigned over (found by :mod:`forge_stubs.inheritance`, from
  :func:`class_shapes`, :func:`override_candidates` and :func:`class_assignments`);
- FastAPI webhook and callback declarations, which only OpenAPI reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePath

from tree_sitter import Node

from forge_stubs.functions import (
    FileFacts,
    Function,
    Placeholder,
    declines,
    empty_by_name,
    ignores_its_parameters,
    is_intentional,
    is_test_file,
    refusal_is_placeholder,
    says_abstract,
    says_not_implemented,
    shows_tests,
    stands_in,
)
from forge_stubs.options import StubOptions
from forge_stubs.source import Source

_NOT_IMPLEMENTED = {"NotImplementedError", "NotImplemented"}
_ABSTRACT_BASES = {"ABC", "Protocol"}
_ABSTRACT_METACLASSES = {"ABCMeta"}
#: ``BaseAdapter``, ``AbstractStore``, ``AuthBase``, ``RedirectMixin`` (not ``Database``).
_BASE_NAME = r"_*(?:Base|Abstract)(?:[A-Z_].*)?|.*[a-z0-9](?:Base|Mixin|Interface|ABC)"
_LITERALS = {"integer", "float", "string", "concatenated_string", "true", "false", "none"}
_CONTAINERS = {"list", "tuple", "set", "dictionary", "pair", "parenthesized_expression"}


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
        declaring_decorators=_hookspec_markers(src),
        overrides=overrides,
    )
    found = []
    for match in src.matches("python"):
        node, body = match["function"], match["body"]
        placeholder = _placeholder(src, body, options)
        if placeholder is not None and _deliberate(src, node, placeholder, facts, options):
            placeholder = None
        found.append(Function(node=node, name=_qualified_name(src, node), placeholder=placeholder))
    return found


def is_empty_module(src: Source) -> Node | None:
    """The module's root node when it holds nothing but a docstring, ``pass`` or ``...``."""
    root = src.tree.root_node
    statements = [child for child in root.named_children if child.type != "comment"]
    if statements and _is_docstring(statements[0]):
        statements = statements[1:]
    if all(_trivial_kind(statement) for statement in statements):
        return root
    return None


def _placeholder(src: Source, body: Node, options: StubOptions) -> Placeholder | None:
    statements = [child for child in body.named_children if child.type != "comment"]
    docstring = statements[0] if statements and _is_docstring(statements[0]) else None
    rest = statements[1:] if docstring else statements
    if not rest:
        return ("docstring_only", docstring) if docstring else None
    kinds = [_trivial_kind(statement) for statement in rest]
    if all(kinds):
        return (kinds[0], rest[0])  # type: ignore[return-value]
    if len(rest) != 1:
        return None
    if rest[0].type == "raise_statement" and _raises_placeholder(src, rest[0], options):
        return ("not_implemented", rest[0])
    if rest[0].type == "return_statement" and _returns_literal(rest[0]):
        return ("hardcoded_return", rest[0])
    return None


def _deliberate(
    src: Source, node: Node, placeholder: Placeholder, facts: FileFacts, options: StubOptions
) -> bool:
    """True when the body, though it looks like a placeholder, is what its author meant."""
    if _decorated_exempt(src, node, options.exempt_decorators | facts.declaring_decorators):
        return True
    if placeholder[0] in {"pass", "ellipsis", "docstring_only"} and _rendered_by_template(
        src, node
    ):
        return True
    if _under_type_checking(src, node):
        return True
    cls = _enclosing_class(node)
    if cls is not None and _is_base(src, cls, facts):
        return True
    own = _own_name(src, node)
    if facts.test_file and not _is_test(own, node):
        return True
    if (
        facts.example_tests
        and _is_test(own, node)
        and placeholder[0] in {"pass", "ellipsis", "docstring_only"}
    ):
        return True  # pytest's testing/example_scripts/: an empty test is the input
    if cls is not None and _rebound(src, own):
        return True
    if placeholder[0] in {"not_implemented", "hardcoded_return"}:
        return False
    parameters = _parameter_names(src, node, cls)
    if empty_by_name(own) or ignores_its_parameters(parameters):
        return True
    if _is_dunder(own) and not parameters:
        return True  # __init__(self) or __aenter__(self): nothing was given to do anything with
    if (cls is not None or _at_top_level(node)) and _handed_over(src, own, method=cls is not None):
        return True
    scope = _enclosing_function(node) if cls is None else None
    if scope is not None and _handed_over(src, own, method=False, scope=scope):
        return True  # pytest's HookRecorder: add_hookcall_monitoring(before, after)
    if _fallback_for_a_real_binding(src, node, own) or _replaced_later(src, node, own):
        return True
    if cls is not None and _says_no_op(src, cls, options):
        return True
    if cls is not None and own in _OPTION_HOOKS and _declares_no_options(src, cls):
        return True
    if cls is None and _undeclared_hookspec(src, node, own, facts.declaring_decorators):
        return True
    if cls is not None and _overrides_a_sibling(src, cls, own):
        return True
    if cls is not None and _qualified_name(src, node) in facts.overrides:
        return True  # it turns off what a base class of another file does
    if _declares_an_operation(src, node):
        return True
    if _default_for_a_parameter(src, node, own):
        return True
    docstring = _docstring(node)
    return docstring is not None and (
        is_intentional(src.text(docstring), options) or declines(src.text(docstring))
    )


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _handed_over(src: Source, name: str, *, method: bool, scope: Node | None = None) -> bool:
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


def _enclosing_function(node: Node) -> Node | None:
    """The function ``node`` is nested in, or None at module or class level."""
    current = node.parent
    while current is not None and current.type not in {"function_definition", "class_definition"}:
        current = current.parent
    return current if current is not None and current.type == "function_definition" else None


#: Clauses of an ``if`` or ``try`` whose blocks are alternatives to each other.
_BRANCHES = {"elif_clause", "else_clause", "except_clause", "except_group_clause"}


def _fallback_for_a_real_binding(src: Source, node: Node, name: str) -> bool:
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


def _replaced_later(src: Source, node: Node, name: str) -> bool:
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
        return _own_name(src, statement) == name and body is not None and not _is_empty(body)
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


#: Class names of null objects: ``NullHandler``, ``DummyRewriteHook``, ``NoopTracer``,
#: sqlalchemy's ``_empty_collection`` (not ``EmptyState``, whose name is a feature).
_NULL_OBJECT_NAME = re.compile(
    r"_*(?:Null|Dummy|Noop|NoOp|Nop)(?:[A-Z_].*)?|_*(?:null|dummy|noop|nop|empty)_.*"
)


#: What a null object's docstring says of it (not "override", which any class may mention).
_NO_OP_PHRASES = ("no-op", "noop", "no operation", "does nothing", "do nothing", "intentionally")


def _says_no_op(src: Source, cls: Node, options: StubOptions) -> bool:
    """A null object: a class whose docstring or name says it does nothing.

    ``\"\"\"A no-op import hook for when rewriting is disabled.\"\"\"`` (pytest's
    ``DummyRewriteHook``), logging's ``NullHandler`` ("This handler does
    nothing"), sqlalchemy's ``_empty_collection``: empty in every method on purpose.
    """
    if _NULL_OBJECT_NAME.fullmatch(_own_name(src, cls)):
        return True
    docstring = _docstring(cls)
    if docstring is None:
        return False
    # Only the phrases that say the class does nothing: a class docstring that
    # mentions overrides ("Settings with environment overrides") says nothing
    # about its methods' bodies.
    text = " ".join(src.text(docstring).split()).casefold()
    return is_intentional(text, options) and any(phrase in text for phrase in _NO_OP_PHRASES)


#: The option hooks of a distutils/setuptools command: with no options, empty is complete.
_OPTION_HOOKS = frozenset({"initialize_options", "finalize_options"})


def _declares_no_options(src: Source, cls: Node) -> bool:
    """A setup.py command with ``user_options = []``: nothing to initialize or finalize.

    distutils makes every command define ``initialize_options`` and
    ``finalize_options``; pyyaml's ``test`` command has no options, so
    ``pass`` is their whole implementation. A command that declares options
    and leaves them unset still counts.
    """
    body = cls.child_by_field_name("body")
    for member in body.named_children if body is not None else []:
        assignment = member.named_children[0] if member.named_children else None
        if member.type != "expression_statement" or assignment is None:
            continue
        left = assignment.child_by_field_name("left")
        right = assignment.child_by_field_name("right")
        if (
            assignment.type == "assignment"
            and left is not None
            and src.text(left) == "user_options"
            and right is not None
            and right.type == "list"
            and not right.named_children
        ):
            return True
    return False


def _undeclared_hookspec(src: Source, node: Node, name: str, markers: frozenset[str]) -> bool:
    """An undecorated hook specification beside decorated ones: pytest's ``hookspec.py``.

    In a module that binds a ``HookspecMarker``, a top-level function named
    with the prefix of the functions it decorates (``pytest_``) is a hook
    specification too: pytest's plugin manager reads every ``pytest_*``
    function of the module, decorated or not.
    """
    if not markers or not _at_top_level(node) or "_" not in name.strip("_"):
        return False
    prefix = name.split("_")[0] + "_"
    if prefix == "_":
        return False
    for statement in src.tree.root_node.named_children:
        if statement.type != "decorated_definition":
            continue
        definition = statement.child_by_field_name("definition")
        if definition is None or not _own_name(src, definition).startswith(prefix):
            continue
        if _decorated_exempt(src, definition, markers):
            return True
    return False


def _declares_an_operation(src: Source, node: Node) -> bool:
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
        if _last_name(src.text(owner)) == "webhooks":
            return True
        if routers is None:
            routers = set(_CALLBACK_ROUTES.findall(src.text(src.tree.root_node)))
        if src.text(owner) in routers:
            return True
    return False


#: ``callbacks=invoices_callback_router.routes``: the router's routes are a route's callbacks.
_CALLBACK_ROUTES = re.compile(r"\bcallbacks\s*=\s*([A-Za-z_][\w.]*)\.routes\b")


def _at_top_level(node: Node) -> bool:
    parent = node.parent
    if parent is not None and parent.type == "decorated_definition":
        parent = parent.parent
    return parent is not None and parent.type == "module"


def _rebound(src: Source, method: str) -> bool:
    """A method the instance replaces at run time: ``self.read = sock.recv``, ``setattr(self, "read", f)``."""
    name = re.escape(method)
    pattern = rf"\bself\.{name}\s*=[^=]|\bsetattr\(\s*self\s*,\s*[\"']{name}[\"']"
    return re.search(pattern, src.text(src.tree.root_node)) is not None


def _overrides_a_sibling(src: Source, cls: Node, method: str) -> bool:
    """A subclass's empty method that another class of the file defines: it turns that off.

    Jinja's ``FrameSymbolVisitor.visit_Block`` ("Stop visiting at blocks")
    answers a name ``RootVisitor`` and ``CodeGenerator`` define for real.
    """
    if not _base_names(src, cls):
        return False
    stack = [src.tree.root_node]
    while stack:
        current = stack.pop()
        if (
            current.type == "class_definition"
            and current != cls
            and method in _members(src, current)
        ):
            return True
        stack.extend(current.named_children)
    return False


def _members(src: Source, cls: Node) -> set[str]:
    """The names a class body binds: its methods and its assignments (``visit_Block = f``)."""
    body = cls.child_by_field_name("body")
    names: set[str] = set()
    for member in body.named_children if body is not None else []:
        if member.type == "decorated_definition":
            member = member.child_by_field_name("definition") or member
        if member.type == "function_definition":
            names.add(_own_name(src, member))
        elif member.type == "expression_statement" and member.named_children:
            assignment = member.named_children[0]
            while assignment.type == "assignment":
                left = assignment.child_by_field_name("left")
                if left is not None and left.type == "identifier":
                    names.add(src.text(left))
                assignment = assignment.child_by_field_name("right") or left or assignment
    return names


def _default_for_a_parameter(src: Source, node: Node, name: str) -> bool:
    """A nested function bound to a parameter's name: the default of an optional callback."""
    current = node.parent
    while current is not None and current.type != "function_definition":
        current = current.parent
    return current is not None and name in _parameter_names(src, current, None)


def _docstring(node: Node) -> Node | None:
    body = node.child_by_field_name("body")
    statements = [c for c in body.named_children if c.type != "comment"] if body else []
    return statements[0] if statements and _is_docstring(statements[0]) else None


def _trivial_kind(statement: Node) -> str | None:
    if statement.type == "pass_statement":
        return "pass"
    if statement.type == "expression_statement" and [c.type for c in statement.named_children] == [
        "ellipsis"
    ]:
        return "ellipsis"
    return None


def _is_docstring(statement: Node) -> bool:
    children = statement.named_children
    return (
        statement.type == "expression_statement"
        and len(children) == 1
        and children[0].type in {"string", "concatenated_string"}
    )


def _returns_literal(statement: Node) -> bool:
    values = statement.named_children
    return len(values) == 1 and _is_literal(values[0])


def _is_literal(node: Node) -> bool:
    if node.type in _LITERALS:
        return not any(child.type == "interpolation" for child in node.named_children)
    if node.type == "unary_operator":
        operand = node.child_by_field_name("argument")
        return operand is not None and _is_literal(operand)
    if node.type in _CONTAINERS:
        return all(_is_literal(child) for child in node.named_children if child.type != "comment")
    return False


def _raise_message(src: Source, raise_node: Node) -> tuple[str, str | None] | None:
    """The raised error's name and its message (None without a string message)."""
    exception = raise_node.named_children[0] if raise_node.named_children else None
    if exception is None:
        return None
    callee = exception.child_by_field_name("function") if exception.type == "call" else exception
    arguments = exception.child_by_field_name("arguments") if exception.type == "call" else None
    first = arguments.named_children[0] if arguments and arguments.named_children else None
    message: str | None = None
    if first is not None and first.type in _LITERALS - {"integer"}:
        message = src.text(first)
    elif first is not None:
        # A message built at run time ("Operator '%s' is not supported" % op.__name__,
        # "...".format(x), a variable): its words are those of its strings, and
        # a message without any is still one the author wrote, not a missing one.
        message = " ".join(src.text(string) for string in _strings_in(first))
    return _last_name(src.text(callee)) if callee is not None else "", message


def _strings_in(node: Node) -> list[Node]:
    """The string literals of an expression, in order (those of nested calls too)."""
    if node.type in {"string", "concatenated_string"}:
        return [node]
    return [string for child in node.named_children for string in _strings_in(child)]


def _raises_placeholder(src: Source, raise_node: Node, options: StubOptions) -> bool:
    """``raise NotImplementedError[(...)]`` marking missing code, or any error saying so."""
    raised = _raise_message(src, raise_node)
    if raised is None:
        return False
    name, message = raised
    if name in _NOT_IMPLEMENTED:
        return refusal_is_placeholder(message, options)
    return (
        message is not None
        and says_not_implemented(message, options)
        and not says_abstract(message)
    )


def _decorated_exempt(src: Source, node: Node, exempt: frozenset[str]) -> bool:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    for decorator in parent.named_children:
        if decorator.type != "decorator" or not decorator.named_children:
            continue
        expression = decorator.named_children[0]
        if expression.type == "call":
            expression = expression.child_by_field_name("function") or expression
        dotted = src.text(expression)
        if dotted in exempt or _last_name(dotted) in exempt:
            return True
    return False


#: Keyword arguments by which a view's decorator names the template that renders
#: it (werkzeug's examples, Pyramid's ``renderer=``, Django-style ``template_name=``).
_TEMPLATE_KEYWORDS = {"template", "template_name", "renderer"}


def _rendered_by_template(src: Source, node: Node) -> bool:
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


def _hookspec_markers(src: Source) -> frozenset[str]:
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
        if callee is not None and _last_name(src.text(callee)) == "HookspecMarker":
            names.add(src.text(left))
    return frozenset(names)


def _under_type_checking(src: Source, node: Node) -> bool:
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
        _last_name(src.text(condition)) == "TYPE_CHECKING"
    )


def _enclosing_class(node: Node) -> Node | None:
    """The class ``node`` is a direct member of (through a decorator), or None."""
    parent = node.parent
    if parent is not None and parent.type == "decorated_definition":
        parent = parent.parent
    if parent is None or parent.type != "block":
        return None
    owner = parent.parent
    return owner if owner is not None and owner.type == "class_definition" else None


def _base_names(src: Source, cls: Node) -> list[str]:
    """The last names of a class's bases and metaclass (``Protocol[T]`` gives ``Protocol``)."""
    bases = cls.child_by_field_name("superclasses")
    names = []
    for base in bases.named_children if bases is not None else []:
        if base.type == "keyword_argument":
            base = base.child_by_field_name("value") or base
        if base.type == "subscript":
            base = base.child_by_field_name("value") or base
        names.append(_last_name(src.text(base)))
    return names


def extended_classes(src: Source) -> frozenset[str]:
    """The last names of the classes this file's classes extend."""
    names: set[str] = set()
    stack = [src.tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "class_definition":
            names.update(_base_names(src, node))
        stack.extend(node.named_children)
    return frozenset(names)


def _is_base(src: Source, cls: Node, facts: FileFacts) -> bool:
    """A class meant to be extended: its empty methods are default hooks or abstract members."""
    bases = set(_base_names(src, cls))
    if bases & (_ABSTRACT_BASES | _ABSTRACT_METACLASSES):
        return True
    name_node = cls.child_by_field_name("name")
    name = src.text(name_node) if name_node is not None else ""
    if name in facts.extended or re.fullmatch(_BASE_NAME, name):
        return True
    return _declares_abstract_member(src, cls)


def _declares_abstract_member(src: Source, cls: Node) -> bool:
    """True when a method raises ``NotImplementedError("... must be implemented by a subclass")``."""
    body = cls.child_by_field_name("body")
    for member in body.named_children if body is not None else []:
        decorated = member.type == "decorated_definition"
        function = member.child_by_field_name("definition") if decorated else member
        block = function.child_by_field_name("body") if function is not None else None
        if function is None or function.type != "function_definition" or block is None:
            continue
        for statement in block.named_children:
            raised = _raise_message(src, statement) if statement.type == "raise_statement" else None
            if raised and raised[0] in _NOT_IMPLEMENTED and raised[1] and says_abstract(raised[1]):
                return True
    return False


def _is_test(name: str, node: Node) -> bool:
    """A test function pytest would collect: ``test*``, not nested in another function."""
    current = node.parent
    while current is not None:
        if current.type == "function_definition":
            return False
        current = current.parent
    return name.startswith("test")


def _parameter_names(src: Source, node: Node, cls: Node | None) -> list[str]:
    parameters = node.child_by_field_name("parameters")
    names = []
    for parameter in parameters.named_children if parameters is not None else []:
        identifier = parameter if parameter.type == "identifier" else _first_identifier(parameter)
        if identifier is not None:
            names.append(src.text(identifier))
    if cls is not None and names and names[0] in {"self", "cls"}:
        names = names[1:]
    return names


def _first_identifier(node: Node) -> Node | None:
    for child in node.named_children:
        if child.type == "identifier":
            return child
        found = _first_identifier(child) if child.type.endswith("pattern") else None
        if found is not None:
            return found
    return None


def _own_name(src: Source, node: Node) -> str:
    name = node.child_by_field_name("name")
    return src.text(name) if name is not None else ""


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


def _last_name(dotted: str) -> str:
    return dotted.rsplit(".", 1)[-1].strip()


#: Decorators that make a base class's method a declaration, not an implementation.
_DECLARING = frozenset(
    {"abstractmethod", "abstractproperty", "abstractclassmethod", "abstractstaticmethod"}
)


@dataclass(frozen=True)
class ClassShape:
    """A top-level class as its subclasses in other files see it."""

    #: Its bases as written (``NetworkStream``, ``base.NetworkStream``), metaclass aside.
    bases: tuple[str, ...]
    #: Its methods, each with whether it does real work (not abstract, not a placeholder body).
    methods: Mapping[str, bool]


def class_shapes(src: Source) -> dict[str, ClassShape]:
    """The file's top-level classes by name (the last one of a name wins, as at run time)."""
    shapes = {}
    for name, cls, methods in _top_level_classes(src):
        # An @overload signature is followed by the real definition: the last one wins.
        works = {
            _own_name(src, function): not _decorated_exempt(src, function, _DECLARING)
            and _does_work(src, block)
            for function, block in methods
        }
        shapes[name] = ClassShape(bases=_bases_as_written(src, cls), methods=works)
    return shapes


def override_candidates(src: Source) -> tuple[tuple[str, str], ...]:
    """(class, method) of each empty method of a top-level class.

    These are the methods whose verdict may depend on another file: a base class
    there, or the class this one is assigned over. Left empty over a method
    doing real work, they turn it off.
    """
    return tuple(
        (name, _own_name(src, function))
        for name, _, methods in _top_level_classes(src)
        for function, block in methods
        if _is_empty(block)
    )


def _top_level_classes(src: Source) -> Iterator[tuple[str, Node, list[tuple[Node, Node]]]]:
    """Each top-level class: its name, its node, and its methods (definition, body)."""
    for statement in src.tree.root_node.named_children:
        cls = _definition(statement)
        name = cls.child_by_field_name("name") if cls.type == "class_definition" else None
        if name is None:
            continue
        body = cls.child_by_field_name("body")
        methods = []
        for member in body.named_children if body is not None else []:
            function = _definition(member)
            block = function.child_by_field_name("body")
            if function.type == "function_definition" and block is not None:
                methods.append((function, block))
        yield src.text(name), cls, methods


def class_assignments(src: Source) -> tuple[tuple[str, str], ...]:
    """(target, name) of each ``module.Target = Name`` anywhere in the file: maybe a class swapped in.

    Both named as classes are (``CapWords``); attributes of ``self`` and ``cls`` are left out.
    """
    found = []
    stack = [src.tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "attribute" or right.type != "identifier":
            continue
        target, value = src.text(left), src.text(right)
        if (
            value[:1].isupper()
            and _last_name(target)[:1].isupper()
            and not target.startswith(("self.", "cls."))
        ):
            found.append((target, value))
    return tuple(sorted(found))


def _definition(node: Node) -> Node:
    """The class or function a ``decorated_definition`` decorates; any other node itself."""
    if node.type == "decorated_definition":
        return node.child_by_field_name("definition") or node
    return node


def _bases_as_written(src: Source, cls: Node) -> tuple[str, ...]:
    """A class's bases as dotted names (``Generic[T]`` gives ``Generic``), keywords left out."""
    bases = cls.child_by_field_name("superclasses")
    names = []
    for base in bases.named_children if bases is not None else []:
        if base.type == "subscript":
            base = base.child_by_field_name("value") or base
        if base.type in {"identifier", "attribute"}:
            names.append(src.text(base))
    return tuple(names)


def _statements(block: Node) -> list[Node]:
    """A body's statements after its docstring, comments left out."""
    statements = [child for child in block.named_children if child.type != "comment"]
    return statements[1:] if statements and _is_docstring(statements[0]) else statements


def _is_empty(block: Node) -> bool:
    """A body of nothing but a docstring, ``pass`` or ``...``."""
    return all(_trivial_kind(statement) for statement in _statements(block))


def _does_work(src: Source, block: Node) -> bool:
    """Whether a method's body does something: more than a docstring, ``pass``, ``...``,
    ``return None`` or ``raise NotImplementedError`` (whatever its message: a base's
    refusal declares a member).

    Another literal returned is a default a subclass may turn off: it counts as work.
    """
    statements = _statements(block)
    if all(_trivial_kind(statement) for statement in statements):
        return False
    if len(statements) != 1:
        return True
    if statements[0].type == "return_statement":
        value = statements[0].named_children
        return bool(value) and value[0].type != "none"
    if statements[0].type == "raise_statement":
        raised = _raise_message(src, statements[0])
        return raised is None or raised[0] not in _NOT_IMPLEMENTED
    return True
