"""The module's own JavaScript files stubbed or mocked in a test: :func:`js_mocks`.

Read: ``sinon.stub(calc, "mul")``, ``sinon.replace``, node:test's
``mock.method(calc, "mul")``, ``jest.spyOn(calc, "mul").mockReturnValue(6)``,
``jest.mock("../src/calc")``, ``vi.mock``, and ``calc.mul = () => 6``, with
``calc`` bound by an ``import`` or ``require`` of one of the module's files.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from typing import TYPE_CHECKING

from forge.test_runs.spec_findings import SpecFinding
from forge.test_runs.spec_js import descendants, language_of, node_text
from forge.test_runs.switched_off import ecmascript_parser

if TYPE_CHECKING:
    from forge.test_runs.spec_diff import Sources

_MOCKING = re.compile(r"^(sinon\.(stub|replace|fake)|mock\.method|t\.mock\.method|td\.replace)$")
_MODULE_MOCKS = {"jest.mock", "vi.mock", "jest.doMock", "vi.doMock", "proxyquire", "td.replace"}


def js_mocks(
    path: str, old: str | None, new: str, own_files: list[str], sources: Sources
) -> list[SpecFinding]:
    """Stubs and module mocks of the module's own files a JavaScript test file newly has."""
    own = {p for p in own_files if re.search(r"\.[cm]?[jt]sx?$", p)}
    before = Counter(target for *_, target in _mocks(path, old, own))
    found = []
    for line, column, target in _mocks(path, new, own):
        if before[target]:
            before[target] -= 1
            continue
        message = f"{path}: mocks {target}, the module's own code: the test no longer tests it"
        found.append(SpecFinding("mocked", path, "", message, line, column))
    return found


def _mocks(path: str, text: str | None, own: set[str]) -> list[tuple[int, int, str]]:
    if not text:
        return []
    source = text.encode()
    tree = ecmascript_parser(language_of(path)).parse(source)
    folder = posixpath.dirname(path)
    bound: dict[str, str] = {}
    found: list[tuple[int, int, str]] = []
    for node in descendants(tree.root_node):
        if node.type in {"import_statement", "variable_declarator"}:
            whole = node_text(source, node)
            specifier = re.search(r"""(?:from|require\()\s*['"]([^'"]+)['"]""", whole)
            module = _own(folder, specifier[1], own) if specifier else None
            if module:
                name = node.child_by_field_name("name")
                head = whole.split("from")[0] if name is None else node_text(source, name)
                for word in re.findall(r"\w+", head):
                    if word not in {"import", "as", "type"}:
                        bound[word] = module
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "member_expression":
                module = bound.get(node_text(source, left.child_by_field_name("object")))
                if module:
                    prop = node_text(source, left.child_by_field_name("property"))
                    found.append(
                        (node.start_point[0] + 1, node.start_point[1] + 1, f"{module}:{prop}")
                    )
        if node.type != "call_expression":
            continue
        callee = node_text(source, node.child_by_field_name("function"))
        arguments = node.child_by_field_name("arguments")
        args = arguments.named_children if arguments is not None else []
        where = (node.start_point[0] + 1, node.start_point[1] + 1)
        if callee in _MODULE_MOCKS and args and args[0].type == "string":
            module = _own(folder, node_text(source, args[0])[1:-1], own)
            if module:
                found.append((*where, module))
        elif (_MOCKING.match(callee) or callee in {"jest.spyOn", "vi.spyOn"}) and len(args) > 1:
            module = bound.get(node_text(source, args[0]))
            if module and (
                not callee.endswith("spyOn") or ".mock" in node_text(source, node.parent)
            ):
                found.append((*where, f"{module}:{node_text(source, args[1])[1:-1]}"))
    return found


def _own(folder: str, specifier: str, own: set[str]) -> str | None:
    if not specifier.startswith("."):
        return None
    base = posixpath.normpath(posixpath.join(folder, specifier))
    for suffix in ("", ".js", ".mjs", ".cjs", ".ts", "/index.js"):
        # ``require("..")`` from test/ is the package's own index.js, not "./index.js".
        candidate = posixpath.normpath(base + suffix)
        if candidate in own:
            return candidate
    return None
