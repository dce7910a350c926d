"""What oxc-python 0.1.1's parser alone gets wrong, put right around it.

oxc's parser runs here without oxc's semantic pass, and the binding has no
option for it, so the early errors node and tsc report that need more than
the grammar are found on the tree it returns (:func:`early_error`), each
behind a text pattern that rules almost every file out before any tree is
read:

- ``import``/``export`` in a script (a ``.cjs`` file): oxc-python's
  ``"script"`` goal accepts module declarations; node refuses them;
- ``let`` declared by ``let`` or ``const`` (``let let = 1``): "let is
  disallowed as a lexically bound name" (a plain name; the binding exposes
  no destructuring pattern, so ``let [let] = x`` stays unseen);
- ``import type A, { B }``: a type-only import with a default and named
  bindings (TypeScript's TS1363).

And one of oxc 0.1.1's own gaps: in a sloppy script, ``let`` followed by a
token that cannot start a declaration (``let`` alone, ``let++``, ``let, x``,
``let ? a : b``, a label ``let:``) is an identifier, which it refuses.
:func:`let_as_identifier` respells those ``let`` (same length, so every
place stays put) for a second parse.
"""

from __future__ import annotations

import bisect
import importlib
import re
from typing import Any

#: `let` where no declaration can start: not followed by a name, `[` or `{` (nor a
#: backslash, an escaped name). As a keyword it always is, so this is an identifier.
_LET_IDENTIFIER = re.compile(r"\blet\b(?!\s*[\w$\[{\\])")
#: Same length as `let`: every offset of the file stays where it was.
_LET_RESPELLED = "$et"
_MODULE_WORDS = re.compile(r"\b(?:import|export)\b")
_LEXICAL_LET = re.compile(r"\b(?:let|const)\s+let\b")
_FIRST_BINDING_LET = re.compile(r"(?:let|const)\s+(let)\b")
_TYPE_ONLY_BOTH = re.compile(r"\bimport\s+type\s+[\w$]+\s*,")
_TYPE_ONLY = re.compile(r"import\s+type\s")
_MODULE_DECLARATIONS = {
    "ImportDeclaration": "Cannot use import statement outside a module",
    "ExportNamedDeclaration": "Unexpected token 'export': export outside a module",
    "ExportDefaultDeclaration": "Unexpected token 'export': export outside a module",
    "ExportAllDeclaration": "Unexpected token 'export': export outside a module",
}
_TYPE_ONLY_MESSAGE = (
    "A type-only import can specify a default import or named bindings, but not both"
)


def let_as_identifier(source: str) -> str | None:
    """``source`` with each ``let`` that can only be an identifier respelled, or None if none."""
    respelled = _LET_IDENTIFIER.sub(_LET_RESPELLED, source)
    return None if respelled == source else respelled


def early_error(program: Any, source: str, goal: str) -> tuple[str, int] | None:
    """The first early error in a tree oxc accepted: (message, UTF-8 offset in ``source``)."""
    statements = _top_level(program, goal)
    if goal == "commonjs" and _MODULE_WORDS.search(source):
        for statement in statements:
            message = _MODULE_DECLARATIONS.get(statement.type)
            if message is not None:
                return message, int(statement.span.start)
    for candidate in _LEXICAL_LET.finditer(source):
        found = _lexical_let(statements, source, candidate.start())
        if found is not None:
            return found
    if goal in ("ts", "tsx", "dts") and _TYPE_ONLY_BOTH.search(source):
        return _type_only_with_both(statements, source)
    return None


def _top_level(program: Any, goal: str) -> list[Any]:
    """The file's top-level statements (CommonJS is parsed wrapped in one function)."""
    if goal != "commonjs":
        return list(program.body)
    try:
        return list(program.body[0].expression.body.body)
    except (AttributeError, IndexError):
        return []


def _lexical_let(statements: list[Any], source: str, at: int) -> tuple[str, int] | None:
    """``let`` bound by the declaration the text at ``at`` may start, if it is one."""
    # By name (the caller parsed with it): its stubs do not declare the extension's functions.
    walk = importlib.import_module("oxc_python").walk
    # Walking a tree costs ~75 us a node from Python: only the statement holding the text.
    offset = len(source[:at].encode("utf-8"))
    spans = [int(statement.span.end) for statement in statements]
    index = bisect.bisect_right(spans, offset)
    if index == len(statements) or int(statements[index].span.start) > offset:
        return None  # between statements: in a comment
    for node, _depth in walk(statements[index]):
        if getattr(node, "type", None) != "VariableDeclaration" or node.span.start != offset:
            continue
        # By its text: the binding lists no declarator of a `for (let x of ...)` head.
        text = node.get_text(source)
        found = _FIRST_BINDING_LET.match(text)
        if found is not None:
            return "let is disallowed as a lexically bound name", offset + found.start(1)
    return None


def _type_only_with_both(statements: list[Any], source: str) -> tuple[str, int] | None:
    for statement in statements:
        if statement.type != "ImportDeclaration":
            continue
        kinds = {specifier.type for specifier in statement.specifiers}
        if (
            "ImportDefaultSpecifier" in kinds
            and len(kinds) > 1
            and _TYPE_ONLY.match(statement.get_text(source))
        ):
            return _TYPE_ONLY_MESSAGE, int(statement.span.start)
    return None
