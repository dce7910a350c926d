"""JavaScript and TypeScript placeholders: empty bodies and bodies that only throw "not implemented".

Signatures without a body (TypeScript overloads, ``declare``, interface and
abstract members) never match the query. Exempt besides: anything inside a
``declare`` block; members of abstract classes and of classes another class of
the file extends (default hooks); a throw whose message declares an abstract
member ("must be implemented by subclasses"); and empty bodies that are
values rather than units of work left undone:

- an anonymous function, or one in an object literal, handed to a call
  (``promise.catch(() => {})``, ``onClick={() => {}}``, ``{then: () => {}}``,
  ``createSlice({reducers: {reset() {}}})``);
- a no-op stored at run time (``this.flush = async () => {}``,
  ``x.check ?? (x.check = () => {})``, ``e.persist = () => {}`` on a
  parameter), or held by a ``let`` its scope assigns again;
- a cast for the type checker: ``assertCast<T>(v: any): asserts v is T {}``;
- ``noop`` and friends, ``close``/``flush``/``dispose`` with nothing to
  release, functions whose parameters are all ``_``-named (``assertIs<T>(_arg:
  T): void {}``), and a constructor whose parameters are TypeScript parameter
  properties (``constructor(private readonly db: Db) {}``);
- in test code, everything but the tests themselves: an empty ``it(...)`` or
  ``test(...)`` body still counts.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from tree_sitter import Node

from forge_stubs.functions import (
    FileFacts,
    Function,
    Placeholder,
    empty_by_name,
    ignores_its_parameters,
    is_test_file,
    refusal_is_placeholder,
    says_abstract,
    says_not_implemented,
    stands_in,
)
from forge_stubs.options import StubOptions
from forge_stubs.source import Source

_EXTENDS = r"extends\s+([\w$.]+)"
#: Calls whose callback is a test: its empty body is an empty test.
_TEST_CALLS = frozenset({"it", "test", "specify"})
_NOT_RUN = frozenset({"skip", "todo"})

_CLASSES = {"class_declaration", "abstract_class_declaration", "class"}
_STRINGS = {"string", "template_string"}
_LITERALS = _STRINGS | {"number", "true", "false", "null", "undefined"}
_FUNCTIONS = {
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "generator_function",
    "arrow_function",
    "method_definition",
}


def functions(
    src: Source,
    options: StubOptions,
    path: PurePath,
    extended: frozenset[str],
    overrides: frozenset[str] = frozenset(),
) -> list[Function]:
    """Every function of the file with a body, with its placeholder body if it has one.

    ``extended`` names classes other files extend, beside those this file extends;
    ``overrides`` the methods (``Class.method``) that override one doing real
    work in a base class of another file.
    """
    facts = FileFacts(
        test_file=is_test_file(path) or stands_in(path),
        extended=extended_classes(src) | extended,
        overrides=overrides,
    )
    found = []
    for match in src.matches("javascript"):
        node, body = match["function"], match["body"]
        name = _name(src, node)
        placeholder = None if _in_ambient(node) else _placeholder(src, node, body, options)
        if placeholder is not None and _deliberate(src, node, name, placeholder, facts):
            placeholder = None
        found.append(Function(node=node, name=name or "<anonymous>", placeholder=placeholder))
    return found


def _deliberate(
    src: Source, node: Node, name: str | None, placeholder: Placeholder, facts: FileFacts
) -> bool:
    """True when the body, though it looks like a placeholder, is what its author meant."""
    if _test_callback(src, node):
        return False
    if facts.test_file or _in_base_class(src, node, facts):
        return True
    if placeholder[0] != "empty_body":
        return False
    return (
        name is None
        or empty_by_name(name.rsplit(".", 1)[-1])
        or ignores_its_parameters(_parameter_names(src, node))
        or _stored_value(src, node)
        or _parameter_properties_only(node, name)
        or _constructor_of_a_prototype(src, name)
        or _overrides_a_sibling(src, node)
        or name in facts.overrides
        or _in_fallback_object(src, node)
        or _asserts_own_type_parameter(src, node)
        or _initial_value_of_a_rebound_variable(src, node)
    )


def _asserts_own_type_parameter(src: Source, node: Node) -> bool:
    """``function assertCast<T>(v: any): asserts v is T {}``: a cast for the type checker.

    Redux Toolkit's ``tsHelpers.ts``. ``T`` is the function's own unconstrained
    type parameter, which nothing at run time can test: the empty body is the
    whole implementation. ``asserts v is User {}`` is a check left undone.
    """
    returned = node.child_by_field_name("return_type")
    asserts = returned.named_children[0] if returned and returned.named_children else None
    predicate = asserts.named_children[0] if asserts and asserts.named_children else None
    if predicate is None or predicate.type != "type_predicate":
        return False
    asserted = predicate.child_by_field_name("type")
    parameters = node.child_by_field_name("type_parameters")
    if asserted is None or asserted.type != "type_identifier" or parameters is None:
        return False
    for parameter in parameters.named_children:
        name = parameter.child_by_field_name("name")
        if name is not None and src.text(name) == src.text(asserted):
            return parameter.child_by_field_name("constraint") is None
    return False


def _initial_value_of_a_rebound_variable(src: Source, node: Node) -> bool:
    """``let unsubscribe = () => {}`` that its scope assigns again: a default until then.

    Redux Toolkit's listener middleware keeps a no-op ``unsubscribe`` until the
    listener is added. A ``const``, or a ``let`` never assigned again, is a
    definition, and counts.
    """
    declarator = node.parent
    declaration = declarator.parent if declarator is not None else None
    if declarator is None or declarator.type != "variable_declarator" or declaration is None:
        return False
    if declaration.type not in {"lexical_declaration", "variable_declaration"}:
        return False
    if declaration.type == "lexical_declaration" and src.text(declaration).startswith("const"):
        return False
    name = declarator.child_by_field_name("name")
    scope = declaration.parent
    if name is None or name.type != "identifier" or scope is None:
        return False
    own = src.text(name)
    stack = list(scope.named_children)
    while stack:
        current = stack.pop()
        stack.extend(current.named_children)
        if current.type in {"assignment_expression", "augmented_assignment_expression"}:
            left = current.child_by_field_name("left")
            if left is not None and left.type == "identifier" and src.text(left) == own:
                return True
    return False


def _constructor_of_a_prototype(src: Source, name: str) -> bool:
    """An empty constructor the file builds on: ``F.prototype = ...`` or ``new F``.

    Babel's ``function Generator() {}``, lodash's ``function object() {}``.
    """
    own = re.escape(name.rsplit(".", 1)[-1])
    pattern = re.compile(rf"(?<![\w$.]){own}\.prototype\b|\bnew\s+{own}(?![\w$])")
    return pattern.search(src.text(src.tree.root_node)) is not None


def _overrides_a_sibling(src: Source, node: Node) -> bool:
    """A subclass's empty method that another class of the file defines: it turns that off.

    hono's ``LatticeV2Processor extends EventProcessor`` has ``getCookies() {}``.
    """
    body = node.parent if node.type == "method_definition" else None
    cls = body.parent if body is not None else None
    name = node.child_by_field_name("name")
    if cls is None or cls.type not in _CLASSES or name is None:
        return False
    if not any(child.type == "class_heritage" for child in cls.children):
        return False
    stack = [src.tree.root_node]
    while stack:
        other = stack.pop()
        stack.extend(other.named_children)
        if other.type not in _CLASSES or other == cls:
            continue
        other_body = other.child_by_field_name("body")
        for member in other_body.named_children if other_body is not None else []:
            member_name = member.child_by_field_name("name")
            if member_name is not None and src.text(member_name) == src.text(name):
                return True
    return False


def _in_fallback_object(src: Source, node: Node) -> bool:
    """A member of the no-op side of ``ready ? {real members} : {no-op members}``.

    axios' cookie helpers give environments without cookies ``{write() {}, ...}``:
    the other branch of the conditional implements the same member for real.
    """
    member = node.parent if node.parent is not None and node.parent.type == "pair" else node
    key = member.child_by_field_name("key" if member.type == "pair" else "name")
    own_object = member.parent
    branch = own_object
    while (
        branch is not None
        and branch.parent is not None
        and (branch.parent.type == "parenthesized_expression")
    ):
        branch = branch.parent
    conditional = branch.parent if branch is not None else None
    if key is None or own_object is None or own_object.type != "object" or conditional is None:
        return False
    if conditional.type != "ternary_expression":
        return False
    sides = [conditional.child_by_field_name(f) for f in ("consequence", "alternative")]
    other = next((side for side in sides if side is not None and side != branch), None)
    while other is not None and other.type == "parenthesized_expression":
        other = other.named_children[0] if other.named_children else None
    if other is None or other.type != "object":
        return False
    for sibling in other.named_children:
        sibling_key = sibling.child_by_field_name("key" if sibling.type == "pair" else "name")
        if sibling_key is not None and src.text(sibling_key) == src.text(key):
            return True
    return False


def is_empty_module(src: Source) -> Node | None:
    """The program node when it holds no statement (comments and ``"use strict"`` aside)."""
    root = src.tree.root_node
    for child in root.named_children:
        if child.type in {"comment", "hash_bang_line"}:
            continue
        if child.type == "expression_statement" and [c.type for c in child.named_children] == [
            "string"
        ]:
            continue  # a directive such as "use strict"
        return None
    return root


def _placeholder(src: Source, node: Node, body: Node, options: StubOptions) -> Placeholder | None:
    statements = [child for child in body.named_children if child.type != "comment"]
    if not statements:
        return ("empty_body", body)
    if len(statements) == 1 and statements[0].type == "return_statement":
        values = statements[0].named_children
        if len(values) == 1 and _is_literal(values[0]):
            return ("hardcoded_return", statements[0])
    if len(statements) == 1 and statements[0].type == "throw_statement":
        thrown = statements[0].named_children[0] if statements[0].named_children else None
        if thrown is not None and _throws_placeholder(src, thrown, options):
            return ("not_implemented", statements[0])
    return None


def _is_literal(node: Node) -> bool:
    if node.type in _LITERALS:
        return not any(child.type == "template_substitution" for child in node.named_children)
    if node.type == "unary_expression":
        operand = node.child_by_field_name("argument")
        return operand is not None and _is_literal(operand)
    if node.type == "pair":
        value = node.child_by_field_name("value")
        return value is not None and _is_literal(value)
    if node.type in {"array", "object", "parenthesized_expression"}:
        return all(_is_literal(child) for child in node.named_children if child.type != "comment")
    return False


def _throws_placeholder(src: Source, thrown: Node, options: StubOptions) -> bool:
    """``new Error("not implemented")``, ``Error("TODO")``, ``new NotImplementedError()``, a string."""
    if thrown.type in _STRINGS:
        return says_not_implemented(src.text(thrown), options)
    if thrown.type not in {"new_expression", "call_expression"}:
        return False
    callee = thrown.child_by_field_name(
        "constructor" if thrown.type == "new_expression" else "function"
    )
    arguments = thrown.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments and arguments.named_children else None
    message = src.text(first) if first is not None and first.type in _STRINGS else None
    if callee is not None and "notimplemented" in src.text(callee).lower().replace("_", ""):
        return refusal_is_placeholder(message, options)
    return (
        message is not None
        and says_not_implemented(message, options)
        and not says_abstract(message)
    )


def _parameter_properties_only(node: Node, name: str) -> bool:
    """A TS constructor whose parameters are properties does its work in the signature."""
    if node.type != "method_definition" or name.rsplit(".", 1)[-1] != "constructor":
        return False
    parameters = node.child_by_field_name("parameters")
    return parameters is not None and any(
        child.type in {"accessibility_modifier", "readonly", "override_modifier"}
        for parameter in parameters.named_children
        for child in parameter.children
    )


def _test_callback(src: Source, node: Node) -> bool:
    """True for the body of ``it("...", () => {...})`` and the like (not ``it.skip``)."""
    arguments = node.parent
    call = arguments.parent if arguments is not None else None
    if arguments is None or arguments.type != "arguments" or call is None:
        return False
    callee = call.child_by_field_name("function")
    parts = src.text(callee).split(".") if callee is not None else []
    return bool(parts) and parts[0] in _TEST_CALLS and not _NOT_RUN.intersection(parts)


def _stored_value(src: Source, node: Node) -> bool:
    """A function that is a value: in an object handed to a call, or a no-op stored at run time."""
    parent = node.parent
    if parent is not None and parent.type == "arguments":
        return True  # app.use(function handler(req, res) {}): named, still a callback
    # `{then: () => {}}` and `{reducers: {reset() {}}}` (a method in an object
    # literal), however deep in the object handed to the call.
    if parent is not None and (
        parent.type == "pair" or (node.type == "method_definition" and parent.type == "object")
    ):
        current = parent.parent if parent.type == "pair" else parent
        while current is not None and current.type in {"object", "array", "pair"}:
            current = current.parent
        return current is not None and current.type == "arguments"
    if parent is None or parent.type != "assignment_expression":
        return False
    left = parent.child_by_field_name("left")
    # `onResult = () => {}` rebinds a callback; work left undone would be declared.
    if left is not None and (left.type == "identifier" or src.text(left).startswith("this.")):
        return True
    if left is not None and _member_of_a_parameter(src, left):
        return True
    outer = parent.parent
    while outer is not None and outer.type == "parenthesized_expression":
        outer = outer.parent
    operator = outer.child_by_field_name("operator") if outer is not None else None
    return (
        outer is not None
        and outer.type == "binary_expression"
        and operator is not None
        and (src.text(operator) in {"??", "||"})
    )


def _member_of_a_parameter(src: Source, left: Node) -> bool:
    """``e.persist = () => {}`` where ``e`` is a parameter of an enclosing function.

    preact's compat gives every event a no-op ``persist``: a value stored on
    an object the function received, as ``this.flush = ...`` is on its own.
    ``exports.x = ...`` and ``Foo.prototype.x = ...`` define the module's API,
    and count.
    """
    target = left.child_by_field_name("object") if left.type == "member_expression" else None
    if target is None or target.type != "identifier":
        return False
    owner = src.text(target)
    current = left.parent
    while current is not None:
        if current.type in _FUNCTIONS and owner in _parameter_names(src, current):
            return True
        current = current.parent
    return False


def _parameter_names(src: Source, node: Node) -> list[str]:
    single = node.child_by_field_name("parameter")
    if single is not None:
        return [src.text(single)]
    parameters = node.child_by_field_name("parameters")
    names = []
    for parameter in parameters.named_children if parameters is not None else []:
        if parameter.type == "comment":
            continue
        target = parameter.child_by_field_name("pattern") or parameter
        target = target.child_by_field_name("left") or target
        if target.type == "rest_pattern" and target.named_children:
            target = target.named_children[0]
        names.append(src.text(target) if target.type == "identifier" else "")
    return names


def extended_classes(src: Source) -> frozenset[str]:
    """The last names of the classes this file's classes extend."""
    names: set[str] = set()
    for heritage in src.captures("classes", "heritage"):
        names.update(name.rsplit(".", 1)[-1] for name in re.findall(_EXTENDS, src.text(heritage)))
    return frozenset(names)


def _in_base_class(src: Source, node: Node, facts: FileFacts) -> bool:
    """A method of an abstract class or of a class the file extends: a default hook."""
    if node.type != "method_definition":
        return False
    body = node.parent
    cls = body.parent if body is not None else None
    if cls is None or cls.type not in _CLASSES:
        return False
    name = _class_name(src, cls)
    return cls.type == "abstract_class_declaration" or (name is not None and name in facts.extended)


def _class_name(src: Source, cls: Node) -> str | None:
    """A class's own name, else the name it is bound to: ``var Subscribable = class {...}``.

    Bundlers (esbuild, tsup) compile ``export class Subscribable`` to the
    anonymous form; its subclasses still say ``extends Subscribable``.
    """
    name = cls.child_by_field_name("name")
    if name is not None:
        return src.text(name)
    parent = cls.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    field = {"variable_declarator": "name", "assignment_expression": "left"}.get(
        parent.type if parent is not None else ""
    )
    target = parent.child_by_field_name(field) if parent is not None and field else None
    if target is None or target.type not in {"identifier", "member_expression"}:
        return None
    return src.text(target).rsplit(".", 1)[-1]


def _in_ambient(node: Node) -> bool:
    current = node.parent
    while current is not None:
        if current.type == "ambient_declaration":
            return True
        current = current.parent
    return False


def _own_name(src: Source, node: Node) -> str | None:
    """The name a function gets from itself or from what it is assigned to."""
    name = node.child_by_field_name("name")
    if name is not None:
        return src.text(name)
    parent = node.parent
    if parent is None:
        return None
    field = {
        "variable_declarator": "name",
        "assignment_expression": "left",
        "pair": "key",
        "public_field_definition": "name",
        "field_definition": "property",
    }.get(parent.type)
    target = parent.child_by_field_name(field) if field else None
    if target is not None:
        return src.text(target)
    if parent.type == "export_statement":
        return "default"
    return None


def _name(src: Source, node: Node) -> str | None:
    """``Outer.method`` through enclosing classes and named functions; None when anonymous."""
    own = _own_name(src, node)
    if own is None:
        return None
    parts = [own]
    current = node.parent
    while current is not None:
        if current.type in _CLASSES:
            parts.append(_class_name(src, current) or "<class>")
        elif current.type in _FUNCTIONS and (outer := _own_name(src, current)) is not None:
            parts.append(outer)
        current = current.parent
    return ".".join(reversed(parts))
