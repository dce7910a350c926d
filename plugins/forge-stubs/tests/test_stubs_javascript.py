"""JavaScript, TypeScript and TSX placeholders: each case a small file, in each grammar it fits."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Find

ALL = ("a.js", "a.ts", "a.tsx")
TS = ("a.ts", "a.tsx")

POSITIVES = [
    pytest.param("function f() {}\n", [(1, "f", "empty_body")], id="function"),
    pytest.param("function* gen() {\n}\n", [(1, "gen", "empty_body")], id="generator"),
    pytest.param("const f = () => {};\n", [(1, "f", "empty_body")], id="arrow"),
    pytest.param("let f = async function () {};\n", [(1, "f", "empty_body")], id="expression"),
    pytest.param("export default function () {}\n", [(1, "default", "empty_body")], id="default"),
    pytest.param(
        "class A {\n  m() {}\n  static s() {\n    // nothing yet\n  }\n  f = () => {};\n}\n",
        [(2, "A.m", "empty_body"), (3, "A.s", "empty_body"), (6, "A.f", "empty_body")],
        id="methods-and-fields",
    ),
    pytest.param(
        "const api = {\n  get() {},\n  put: function () {},\n};\n",
        [(2, "get", "empty_body"), (3, "put", "empty_body")],
        id="object-members",
    ),
    pytest.param(
        "module.exports.run = () => {};\n",
        [(1, "module.exports.run", "empty_body")],
        id="commonjs",
    ),
    pytest.param(
        'function f() {\n  throw new Error("Not implemented");\n}\n',
        [(2, "f", "not_implemented")],
        id="throw-new-error",
    ),
    pytest.param(
        "const f = () => {\n  throw Error(`TODO: wire the API`);\n};\n",
        [(2, "f", "not_implemented")],
        id="throw-call-template-todo",
    ),
    pytest.param(
        "class A {\n  m() {\n    throw new NotImplementedError();\n  }\n}\n",
        [(3, "A.m", "not_implemented")],
        id="throw-not-implemented-class",
    ),
    pytest.param(
        "function f() {\n  throw 'unimplemented';\n}\n",
        [(2, "f", "not_implemented")],
        id="throw-string",
    ),
    pytest.param(
        "app.get('/x', (req, res) => {\n  throw new Error('not implemented');\n});\n",
        [(2, "<anonymous>", "not_implemented")],
        id="anonymous-callback-that-throws",
    ),
    pytest.param(
        "function f() {\n  // TODO: implement\n  return 1;\n}\n",
        [(2, "f", "todo_comment")],
        id="line-comment",
    ),
    pytest.param(
        "/*\n * Parser.\n * FIXME: write this\n */\nexport const x = 1;\n",
        [(3, None, "todo_comment")],
        id="block-comment-marker-line",
    ),
    pytest.param(
        "function f() {\n  // TODO: implement\n}\n",
        [(1, "f", "empty_body")],
        id="comment-in-flagged-body-not-repeated",
    ),
    pytest.param(
        '"use strict";\n// nothing here\n', [(1, None, "empty_module")], id="empty-module"
    ),
]

NEGATIVES = [
    pytest.param("function f() {\n  return 1;\n}\n", id="real-body"),
    pytest.param("const f = () => 0;\n", id="expression-arrow"),
    pytest.param("p.catch(() => {});\nel.on('x', function () {});\n", id="anonymous-callbacks"),
    pytest.param("function f() {} // intentionally empty\n", id="intentional-trailing"),
    pytest.param("// no-op by design\nconst noop = () => {};\n", id="intentional-above"),
    pytest.param("function f() {\n  /* Intentionally empty. */\n}\n", id="intentional-inside"),
    pytest.param(
        "function f(x) {\n  if (!x) throw new Error('not implemented');\n  return x;\n}\n",
        id="conditional-throw",
    ),
    pytest.param("function f() {\n  throw new Error('bad input');\n}\n", id="other-throw"),
    pytest.param(
        "// TODO: rename once the API settles\nexport const x = 1;\n", id="todo-not-about-code"
    ),
    pytest.param("export { a } from './a';\nexport * from './b';\n", id="reexports-only"),
]


@pytest.mark.parametrize("filename", ALL)
@pytest.mark.parametrize(("source", "expected"), POSITIVES)
def test_js_ts_placeholders_are_found(
    source: str, expected: list[object], filename: str, find: Find
) -> None:
    assert find(source, filename) == expected


@pytest.mark.parametrize("filename", ALL)
@pytest.mark.parametrize("source", NEGATIVES)
def test_js_ts_non_placeholders_pass(source: str, filename: str, find: Find) -> None:
    assert find(source, filename) == []


@pytest.mark.parametrize("filename", TS)
@pytest.mark.parametrize(
    "source",
    [
        pytest.param("declare function g(): void;\ndeclare class C { m(): void; }\n", id="declare"),
        pytest.param(
            "declare module 'm' {\n  export function f(): void;\n}\n", id="declare-module"
        ),
        pytest.param("interface I {\n  m(): void;\n  n: () => void;\n}\n", id="interface"),
        pytest.param(
            "abstract class A {\n  abstract m(): void;\n  n(): number { return 1; }\n}\n",
            id="abstract-member",
        ),
        pytest.param(
            "function f(x: string): string;\nfunction f(x: number): number;\n"
            "function f(x: any) { return x; }\n",
            id="overload-signatures",
        ),
        pytest.param(
            "class S {\n  constructor(private readonly db: Db, public name: string) {}\n}\n",
            id="parameter-properties",
        ),
        pytest.param("type T = { f(): void };\n", id="type-literal"),
    ],
)
def test_typescript_declarations_pass(source: str, filename: str, find: Find) -> None:
    assert find(source, filename) == []


def test_plain_empty_constructor_is_flagged(find: Find) -> None:
    assert find("class S {\n  constructor(db) {}\n}\n", "a.js") == [
        (2, "S.constructor", "empty_body")
    ]


def test_tsx_component_with_empty_handler(find: Find) -> None:
    source = (
        "export function Button() {\n"
        "  const onClick = () => {};\n"
        "  return <button onClick={() => {}}>{/* TODO: implement */}</button>;\n"
        "}\n"
    )
    assert find(source, "a.tsx") == [
        (2, "Button.onClick", "empty_body"),
        (3, "Button", "todo_comment"),
    ]


def test_declaration_files_are_recognised() -> None:
    from pathlib import PurePath

    from forge_stubs.detect import is_declaration_file

    assert is_declaration_file(PurePath("types/index.d.ts"))
    assert is_declaration_file(PurePath("stubs/mod.pyi"))
    assert not is_declaration_file(PurePath("src/index.ts"))
