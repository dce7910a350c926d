"""Empty JavaScript and TypeScript bodies that are what their author meant, not placeholders.

:func:`deliberate` is asked about each body that looks like a placeholder;
the cases it knows are listed in :mod:`forge_stubs.javascript_rules`.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from forge_stubs.functions import FileFacts, Placeholder, empty_by_name, ignores_its_parameters
from forge_stubs.javascript_names import CLASSES, FUNCTIONS, class_name
from forge_stubs.source import Source

#: Calls whose callback is a test: its empty body is an empty test.
_TEST_CALLS = frozenset({"it", "test", "specify"})
_NOT_RUN = frozenset({"skip", "todo"})


def deliberate(
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
        or _option_or_hook(src, node)
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
    pattern = re.compile(
        rf"(?<![\w$.]){own}\.prototype\b|\bnew\s+{own}(?![\w$])"
        # ...or a base: `class C extends F`, `util.inherits(C, F)`, `F.call(this)`.
        rf"|\bextends\s+{own}(?![\w$.])|\binherits\(\s*[\w$.]+\s*,\s*{own}\s*\)"
        rf"|(?<![\w$.]){own}\.(?:call|apply)\(\s*this\b"
    )
    return pattern.search(src.text(src.tree.root_node)) is not None


#: Names of objects that hold options, defaults and hooks: an empty function there is a default.
_OPTIONS_NAME = re.compile(
    r"(?i)option|opts$|default|config|setting|hooks?$|handlers?$|callbacks?$|listeners?$"
)
#: Keys of hooks a caller may leave as no-ops: `onError`, `beforeRequest`, `afterEach`.
_HOOK_KEY = re.compile(r"(?:on|before|after)(?:[A-Z_$]|$)")


def _option_or_hook(src: Source, node: Node) -> bool:
    """An empty function in an options, defaults or hooks object, or under a hook's key.

    ``const defaults = {timeout: 1000, run: () => {}}``, ``{hooks: {beforeRequest: () => {}}}``,
    ``{onStart: () => {}}``: a default the caller may replace, as got's and ky's options
    do. ``export const userService = {getUser: () => {}}`` is an API left undone, and counts.
    """
    member = node.parent if node.parent is not None and node.parent.type == "pair" else node
    if member.type not in {"pair", "method_definition"}:
        return False
    key = member.child_by_field_name("key" if member.type == "pair" else "name")
    if key is not None and _HOOK_KEY.match(src.text(key).strip("'\"")):
        return True
    names = []
    current = member.parent
    while current is not None and current.type == "object":
        holder = current.parent
        while holder is not None and holder.type in {"parenthesized_expression", "as_expression"}:
            holder = holder.parent
        if holder is None:
            break
        if holder.type == "pair":
            names.append(holder.child_by_field_name("key"))
            current = holder.parent
            continue
        if holder.type == "variable_declarator":
            names.append(holder.child_by_field_name("name"))
        elif holder.type in {"assignment_expression", "assignment_pattern"}:
            names.append(holder.child_by_field_name("left"))
        break
    return any(
        found is not None and _OPTIONS_NAME.search(src.text(found).rsplit(".", 1)[-1])
        for found in names
    )


def _overrides_a_sibling(src: Source, node: Node) -> bool:
    """A subclass's empty method that another class of the file defines: it turns that off.

    hono's ``LatticeV2Processor extends EventProcessor`` has ``getCookies() {}``.
    """
    body = node.parent if node.type == "method_definition" else None
    cls = body.parent if body is not None else None
    name = node.child_by_field_name("name")
    if cls is None or cls.type not in CLASSES or name is None:
        return False
    if not any(child.type == "class_heritage" for child in cls.children):
        return False
    stack = [src.tree.root_node]
    while stack:
        other = stack.pop()
        stack.extend(other.named_children)
        if other.type not in CLASSES or other == cls:
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
        if current.type in FUNCTIONS and owner in _parameter_names(src, current):
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


def _in_base_class(src: Source, node: Node, facts: FileFacts) -> bool:
    """A method of an abstract class or of a class the file extends: a default hook."""
    if node.type != "method_definition":
        return False
    body = node.parent
    cls = body.parent if body is not None else None
    if cls is None or cls.type not in CLASSES:
        return False
    name = class_name(src, cls)
    return cls.type == "abstract_class_declaration" or (name is not None and name in facts.extended)
