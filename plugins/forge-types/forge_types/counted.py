"""What counts without a base: the one place of the rules (docs/types.md shows each).

Without a base revision nothing tells a new diagnostic from an old one, and most
projects have old ones. So only a diagnostic that means **the code cannot run
as written** counts (:data:`CANNOT_RUN`, less the part of a rule that means
something else: :func:`cannot_run`), and only **in the files the call lists**:
an importer's diagnostics are shown and counted only with a base, where they
are new or not. Some diagnostics of those rules do not mean the code cannot
run here, and never count without a base (:func:`never_counted`):

- an implicit re-export (``Module "pkg._impl" does not explicitly export
  attribute "os"``, pyright's ``reportPrivateImportUsage``): the name is there;
- a name gated by platform or version: under an ``if`` on ``sys.platform``,
  ``sys.version_info``, ``os.name`` (or its ``else``), in a ``try`` that catches
  ``ImportError``, or a module that exists only on another platform
  (``Module has no attribute "msvcrt"``);
- a standard-library name newer than the configured Python (``Module "enum"
  has no attribute "StrEnum"`` where the project says ``python_version =
  "3.10"``): the checker judges another version than the one that runs;
- a stub-only name: the diagnostic is in a stub (``.pyi``), which never runs;
- a member of an abstract type (``"TextIO" has no attribute "color"``, on
  ``object``, ``IO[...]``, ``TextIO``, ``BinaryIO``): the stubs' type is wider than
  the object at run time, which may well have it (click sets ``color`` on its
  pager's stream).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from forge_types.unions import lacking_on_one_side, optional_operand

if TYPE_CHECKING:
    from tree_sitter import Node

#: Per checker, the rules meaning the code cannot run as written: an undefined attribute
#: or method, a wrong argument count, an unknown keyword, a missing required argument, a
#: name an imported module does not export, a call of something not callable.
CANNOT_RUN: dict[str, frozenset[str]] = {
    "pyrefly": frozenset(
        {"missing-attribute", "bad-argument-count", "unexpected-keyword", "missing-argument",
         "missing-module-attribute", "not-callable"}
    ),
    "mypy": frozenset({"attr-defined", "call-arg", "operator"}),
    "ty": frozenset(
        {"unresolved-attribute", "missing-attribute", "too-many-positional-arguments",
         "unknown-argument", "missing-argument", "missing-module-member",
         "unresolved-import-name", "call-non-callable", "not-callable"}
    ),
    "pyright": frozenset({"reportAttributeAccessIssue", "reportCallIssue"}),
    "basedpyright": frozenset({"reportAttributeAccessIssue", "reportCallIssue"}),
    "tsc": frozenset(
        {"TS2339", "TS2551",  # property does not exist on type (did you mean)
         "TS2554", "TS2555",  # expected N arguments (at least N), got M
         "TS2353", "TS2561",  # object literal may only specify known properties
         "TS2305", "TS2724", "TS2614",  # module has no exported member
         "TS2349", "TS2348"}  # this expression is not callable
    ),
}  # fmt: skip

#: Per checker, the part of a :data:`CANNOT_RUN` rule that does not mean it.
_COVERS_MORE: dict[str, Callable[[str, str], bool]] = {
    # A member missing from one side of a union (None of an Optional, or a type spelled
    # A | B) may be narrowed away at run time: mypy (union-attr) and pyright
    # (reportOptionalMemberAccess) tell it apart; pyrefly says missing-attribute.
    "pyrefly": lambda rule, message: rule == "missing-attribute" and lacking_on_one_side(message),
    # operator is also an operand that may be None ("x" in an Optional).
    "mypy": lambda rule, message: rule == "operator" and optional_operand(message),
}

#: Standard-library modules that exist only on some platforms.
PLATFORM_MODULES = frozenset(
    {"msvcrt", "winreg", "_winreg", "winsound", "_winapi", "nt", "_overlapped", "msilib",
     "posix", "pwd", "grp", "termios", "tty", "pty", "fcntl", "resource", "syslog", "curses",
     "_curses", "readline", "crypt", "spwd", "nis", "ossaudiodev", "_posixsubprocess"}
)  # fmt: skip
#: A condition that gates code by platform or version.
_GATE = re.compile(
    r"\bsys\.(?:platform|version_info|implementation)\b|\bos\.name\b|\bplatform\.\w+\("
    r"|\b(?:WIN|WIN32|WINDOWS|IS_WIN\w*|IS_WINDOWS|MACOS|IS_MAC\w*|PY\d+\w*)\b"
)
#: An attribute missing on an abstract type (mypy's and pyright's quotes, pyrefly's class).
_ABSTRACT_OWNER = re.compile(
    r'^(?:Object of class `|Cannot access attribute "\w+" for class ")?"?'
    r"(?:object|IO\[[^\]]*\]|IO|TextIO|BinaryIO)[`\"]"
)
#: A name a diagnostic quotes: "name" (mypy, pyright) or `name` (pyrefly, ty).
_QUOTED = re.compile(r'"([\w.]+)"|`([\w.]+)`')


def cannot_run(kind: str, rule: str, message: str) -> bool:
    """Whether checker ``kind``'s diagnostic means the code cannot run as written."""
    if rule not in CANNOT_RUN.get(kind, frozenset()):
        return False
    covers_more = _COVERS_MORE.get(kind)
    return covers_more is None or not covers_more(rule, message)


def never_counted(path: str, rule: str, message: str, line_text: str, gated: bool) -> str | None:
    """Why a diagnostic never counts without a base (None: it may).

    ``line_text`` is its source line; ``gated``: it sits under a platform or version
    check (:func:`gating_condition` said so of an enclosing condition).
    """
    if "does not explicitly export" in message or rule == "reportPrivateImportUsage":
        return "an implicit re-export"
    if path.endswith(".pyi"):
        return "a stub-only name"
    if gated:
        return "gated by platform or version"
    if _ABSTRACT_OWNER.match(message):
        return "a member of an abstract type"
    names = [a or b for a, b in _QUOTED.findall(message)]
    if any(part in PLATFORM_MODULES for name in names for part in name.split(".")):
        return "a module of another platform"
    if _newer_stdlib_name(names, line_text):
        return "a standard-library name newer than the configured Python"
    return None


def gated(root_node: Node, line: int, column: int) -> bool:
    """Whether the 1-based (line, column) of a Python tree sits under a platform or version
    check: an ``if``/``elif``/conditional expression on one (its ``else`` too), or a ``try``
    whose handler catches ``ImportError``."""
    point = (max(line - 1, 0), max(column - 1, 0))
    node: Node | None = root_node.descendant_for_point_range(point, point)
    while node is not None:
        if node.type in ("if_statement", "elif_clause", "conditional_expression"):
            condition = node.child_by_field_name("condition")
            if node.type == "conditional_expression" and len(node.named_children) == 3:
                condition = node.named_children[1]
            if condition is not None and _GATE.search(_text(condition)):
                return True
        if node.type == "try_statement" and any(
            child.type == "except_clause" and _IMPORT_ERROR.search(_text(child).split(":")[0])
            for child in node.children
        ):
            return True
        node = node.parent
    return False


_IMPORT_ERROR = re.compile(r"\b(?:ImportError|ModuleNotFoundError)\b")


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def _newer_stdlib_name(names: list[str], line_text: str) -> bool:
    """A quoted name that a standard-library module has on the Python forge runs on.

    The module is quoted too (``Module "enum" has no attribute "StrEnum"``), or spelled
    before the name on the line (``enum.StrEnum``).
    """
    modules = [name for name in names if name.split(".")[0] in sys.stdlib_module_names]
    for name in names:
        found = re.search(rf"\b([\w.]+)\.{re.escape(name)}\b", line_text)
        if found is not None and found[1].split(".")[0] in sys.stdlib_module_names:
            modules.append(found[1])
    for module in modules:
        for name in names:
            if name != module and _has(module, name):
                return True
    return False


#: Standard-library modules whose import does something (opens a browser, prints).
_NOT_IMPORTED = frozenset(
    {"antigravity", "this", "__hello__", "__phello__", "idlelib", "turtledemo"}
)


def _has(module: str, name: str) -> bool:
    """Whether the standard-library ``module`` has ``name`` here (imported, never code of the
    project's: only modules of forge's own interpreter's standard library)."""
    if module.split(".")[0] in _NOT_IMPORTED:
        return False
    try:
        return hasattr(importlib.import_module(module), name)
    except Exception:  # a module of another platform, or one that fails to import here
        return False
