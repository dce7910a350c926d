"""Python classes: which are meant to be extended or do nothing, and what other files see of them.

A class is a base, its empty methods default hooks or abstract members
(:func:`is_base_class`), when it is a ``Protocol`` or ``ABC`` (or has
``ABCMeta``), is named like one (``Base*``/``*Mixin``/...), is extended in
the same file or another (:func:`extended_classes`), or declares an abstract
member by its error message. A null object says by its docstring or its name
that it does nothing (:func:`is_null_object`); a setup.py command without
options has nothing to initialize (:func:`declares_no_options`); an empty
method another class of the file defines turns that off
(:func:`overrides_a_sibling`).

For :mod:`forge_stubs.inheritance`, which follows bases to other files: each
top-level class's bases and methods doing real work (:func:`class_shapes`),
its empty methods (:func:`override_candidates`), and the classes the file
assigns over others (:func:`class_assignments`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from tree_sitter import Node

from forge_stubs.functions import FileFacts, is_intentional, says_abstract
from forge_stubs.options import StubOptions
from forge_stubs.python_bodies import (
    NOT_IMPLEMENTED_ERRORS,
    docstring_of,
    does_work,
    is_empty_body,
    raise_message,
)
from forge_stubs.python_syntax import decorated_exempt, last_name, own_name
from forge_stubs.source import Source

_ABSTRACT_BASES = {"ABC", "Protocol"}


_ABSTRACT_METACLASSES = {"ABCMeta"}


#: ``BaseAdapter``, ``AbstractStore``, ``AuthBase``, ``RedirectMixin`` (not ``Database``).
_BASE_NAME = r"_*(?:Base|Abstract)(?:[A-Z_].*)?|.*[a-z0-9](?:Base|Mixin|Interface|ABC)"


def _base_names(src: Source, cls: Node) -> list[str]:
    """The last names of a class's bases and metaclass (``Protocol[T]`` gives ``Protocol``)."""
    bases = cls.child_by_field_name("superclasses")
    names = []
    for base in bases.named_children if bases is not None else []:
        if base.type == "keyword_argument":
            base = base.child_by_field_name("value") or base
        if base.type == "subscript":
            base = base.child_by_field_name("value") or base
        names.append(last_name(src.text(base)))
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


def is_base_class(src: Source, cls: Node, facts: FileFacts) -> bool:
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
            raised = raise_message(src, statement) if statement.type == "raise_statement" else None
            if (
                raised
                and raised[0] in NOT_IMPLEMENTED_ERRORS
                and raised[1]
                and says_abstract(raised[1])
            ):
                return True
    return False


#: Class names of null objects: ``NullHandler``, ``DummyRewriteHook``, ``NoopTracer``,
#: sqlalchemy's ``_empty_collection`` (not ``EmptyState``, whose name is a feature).
_NULL_OBJECT_NAME = re.compile(
    r"_*(?:Null|Dummy|Noop|NoOp|Nop)(?:[A-Z_].*)?|_*(?:null|dummy|noop|nop|empty)_.*"
)


#: What a null object's docstring says of it (not "override", which any class may mention).
_NO_OP_PHRASES = ("no-op", "noop", "no operation", "does nothing", "do nothing", "intentionally")


def is_null_object(src: Source, cls: Node, options: StubOptions) -> bool:
    """A null object: a class whose docstring or name says it does nothing.

    ``\"\"\"A no-op import hook for when rewriting is disabled.\"\"\"`` (pytest's
    ``DummyRewriteHook``), logging's ``NullHandler`` ("This handler does
    nothing"), sqlalchemy's ``_empty_collection``: empty in every method on purpose.
    """
    if _NULL_OBJECT_NAME.fullmatch(own_name(src, cls)):
        return True
    docstring = docstring_of(cls)
    if docstring is None:
        return False
    # Only the phrases that say the class does nothing: a class docstring that
    # mentions overrides ("Settings with environment overrides") says nothing
    # about its methods' bodies.
    text = " ".join(src.text(docstring).split()).casefold()
    return is_intentional(text, options) and any(phrase in text for phrase in _NO_OP_PHRASES)


#: The option hooks of a distutils/setuptools command: with no options, empty is complete.
OPTION_HOOKS = frozenset({"initialize_options", "finalize_options"})


def declares_no_options(src: Source, cls: Node) -> bool:
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


def overrides_a_sibling(src: Source, cls: Node, method: str) -> bool:
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


def overrides_concrete_base(src: Source, cls: Node, method: str) -> bool:
    """A method a base class defined in the file implements for real (does work)."""
    bases = set(_base_names(src, cls))
    if not bases:
        return False
    stack = [src.tree.root_node]
    while stack:
        current = stack.pop()
        if current.type == "class_definition" and current != cls:
            name = current.child_by_field_name("name")
            if name is not None and src.text(name) in bases:
                found = _method_body(src, current, method)
                if found is not None and does_work(src, found):
                    return True
        stack.extend(current.named_children)
    return False


def _method_body(src: Source, cls: Node, method: str) -> Node | None:
    body = cls.child_by_field_name("body")
    for member in body.named_children if body is not None else []:
        if member.type == "decorated_definition":
            member = member.child_by_field_name("definition") or member
        if member.type == "function_definition" and own_name(src, member) == method:
            return member.child_by_field_name("body")
    return None


def _members(src: Source, cls: Node) -> set[str]:
    """The names a class body binds: its methods and its assignments (``visit_Block = f``)."""
    body = cls.child_by_field_name("body")
    names: set[str] = set()
    for member in body.named_children if body is not None else []:
        if member.type == "decorated_definition":
            member = member.child_by_field_name("definition") or member
        if member.type == "function_definition":
            names.add(own_name(src, member))
        elif member.type == "expression_statement" and member.named_children:
            assignment = member.named_children[0]
            while assignment.type == "assignment":
                left = assignment.child_by_field_name("left")
                if left is not None and left.type == "identifier":
                    names.add(src.text(left))
                assignment = assignment.child_by_field_name("right") or left or assignment
    return names


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
            own_name(src, function): not decorated_exempt(src, function, _DECLARING)
            and does_work(src, block)
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
        (name, own_name(src, function))
        for name, _, methods in _top_level_classes(src)
        for function, block in methods
        if is_empty_body(block)
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
            and last_name(target)[:1].isupper()
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
