"""Precision on real JavaScript and TypeScript: each case is shaped like a pattern found in
got, zod, express, hono and friends, and must give no finding; beside them, the agent's
placeholders they resemble, which must still be found."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Find


JS_DELIBERATE = [
    pytest.param("const noop = () => { };\nfunction nop() {}\n", "dist/core/index.js", id="noop"),
    pytest.param(
        "class Request {\n  _destroy(error, callback) {\n    this.flush = async () => { };\n  }\n}\n",
        "dist/core/index.js",
        id="noop-stored-at-run-time",
    ),
    pytest.param(
        "// @ts-expect-error FIXME\nthis._internals.hooks[event] = [...hooks];\n",
        "dist/core/options.js",
        id="directive-fixme",
    ),
    pytest.param(
        "export function assertIs<T>(_arg: T): void {}\n"
        "export const assertEqual = <A, B>(_: AssertEqual<A, B>): void => {};\n"
        "export function assert<T>(_: any): asserts _ is T {}\n"
        "export const anyProcessor = (_schema, _ctx, _json, _params) => {\n};\n",
        "src/v4/core/util.ts",
        id="type-level-assertions",
    ),
    pytest.param(
        "const Class = class {\n  constructor(..._args: any[]) {}\n};\n",
        "src/v4/core/util.ts",
        id="rest-underscore-constructor",
    ),
    pytest.param(
        "(_b = inst._zod).check ?? (_b.check = () => { });\n", "v4/core/checks.js", id="default"
    ),
    pytest.param(
        "z.parse({ then: () => {}, catch: {} });\n"
        "app.get('/', function(req, res){});\nrequest(app).get('/').end(function(){});\n"
        "app.use(function handler(req, res, next) {});\n",
        "lib/app.js",
        id="callbacks-in-arguments",
    ),
    pytest.param(
        "abstract class Shape {\n  onResize() {}\n  abstract area(): number;\n}\n"
        "class Widget {\n  render() {}\n}\nclass Button extends Widget {\n  render() { return 1; }\n}\n",
        "src/shapes.ts",
        id="base-classes",
    ),
    pytest.param(
        "class Repo {\n  find() {\n    throw new Error('find must be implemented by subclasses');\n"
        "  }\n}\n",
        "src/repo.ts",
        id="abstract-message",
    ),
    pytest.param(
        "test('async parse', async () => {\n  const goodData = () => {};\n"
        "  // const badData = 'XXX';\n  expect(1).toBe(1);\n});\n"
        "it.skip('later', () => {});\nbeforeEach(() => {});\n",
        "src/tests/async-parsing.test.ts",
        id="test-doubles-and-skips",
    ),
]

JS_DELIBERATE += [
    pytest.param(
        "export default env.standard ?\n  {\n    write(name, value) { document.cookie = name + value; },\n"
        "    read(name) { return find(name); },\n"
        "    remove(name) { this.write(name, '', Date.now() - 86400000); }\n  } :\n"
        "  // Non-standard browser env (web workers, react-native) lack needed support.\n"
        "  {\n    write() {},\n    read() { return null; },\n    remove: function remove() {}\n  };\n",
        "lib/helpers/cookies.js",
        id="axios-fallback-object",
    ),
    pytest.param(
        "export default {\n  assert: {\n    notStrictEqual: (a, b) => {\n      // noop.\n    },\n"
        "  },\n  process: {\n    // exit is noop browser:\n    exit: () => {},\n  },\n};\n",
        "lib/shim.js",
        id="yargs-noop-comments",
    ),
    pytest.param(
        "export default {\n  y18n: {\n    setLocale: () => {},\n    updateLocale: () => {},\n"
        "  },\n  process: {\n    emitWarning: (warning, name) => {},\n  },\n};\n",
        "lib/platform-shims/browser.js",
        id="yargs-platform-shims",
    ),
    pytest.param(
        "function Generator() {}\nfunction GeneratorFunction() {}\n"
        "GeneratorFunction.prototype = Object.create(Generator.prototype);\n",
        "dist/axios.js",
        id="babel-empty-constructors",
    ),
]

JS_DELIBERATE += [
    pytest.param(
        "function createManagedIterator(iterable, onResult) {\n  function cleanup() {\n"
        "    state = 'done';\n    onResult = () => {};\n  }\n  return cleanup;\n}\n",
        "dist/resolveResponse.js",
        id="callback-rebound-to-a-no-op",
    ),
    pytest.param(
        "class EventProcessor {\n  getCookies(event, headers) {\n    return headers;\n  }\n}\n"
        "var LatticeV2Processor = class extends EventProcessor {\n  getCookies() {}\n};\n",
        "dist/adapter/aws-lambda/handler.js",
        id="empty-override-of-a-sibling",
    ),
    pytest.param(
        "function baseLodash() {\n  // No operation performed.\n}\n"
        "var baseCreate = (function() {\n  function object() {}\n  return function(proto) {\n"
        "    object.prototype = proto;\n    var result = new object;\n    return result;\n  };\n"
        "}());\n",
        "_baseLodash.js",
        id="lodash-no-operation-and-constructor",
    ),
    pytest.param(
        "// FIXME:\n// - the generics here are probably unnecessary\n"
        "export function transform(x) {\n  return x;\n}\n",
        "src/transformer.js",
        id="fixme-explained-on-the-next-line",
    ),
    # Redux Toolkit 2.14's query/core/buildSlice.ts: reducers that only name actions.
    pytest.param(
        "const subscriptionSlice = createSlice({\n  name: 'subscriptions',\n"
        "  reducers: {\n    unsubscribeQueryResult(d, a) {\n      // Dummy\n    },\n"
        "    internal_getRTKQSubscriptions() {},\n  },\n})\n",
        "src/query/core/buildSlice.ts",
        id="methods-of-an-object-handed-to-a-call",
    ),
    # Redux Toolkit 2.14's query/tsHelpers.ts: a cast the type checker reads.
    pytest.param(
        "export function assertCast<T>(v: any): asserts v is T {}\n",
        "src/query/tsHelpers.ts",
        id="assertion-of-the-functions-own-type-parameter",
    ),
    # Redux Toolkit 2.14's listenerMiddleware/index.ts: a no-op until the listener is added.
    pytest.param(
        "const take = async (predicate) => {\n  let unsubscribe = () => {}\n"
        "  const p = new Promise((resolve, reject) => {\n"
        "    const stop = start(predicate, resolve)\n"
        "    unsubscribe = () => {\n      stop()\n      reject()\n    }\n  })\n"
        "  try {\n    return await p\n  } finally {\n    unsubscribe()\n  }\n}\n",
        "src/listenerMiddleware/index.ts",
        id="let-rebound-later",
    ),
    # preact 11's compat/src/render.js: every event gets a no-op persist().
    pytest.param(
        "let oldEventHook = options.event;\noptions.event = e => {\n"
        "  if (oldEventHook) e = oldEventHook(e);\n  e.persist = () => {};\n"
        "  return (e.nativeEvent = e);\n};\n",
        "compat/src/render.js",
        id="no-op-stored-on-a-parameter",
    ),
    # TanStack Query 5's build/modern/subscribable.js, msw 2's lib/browser bundle:
    # `export class Subscribable` compiled to an anonymous class bound to a var.
    pytest.param(
        "var Subscribable = class {\n  onSubscribe() {}\n  onUnsubscribe() {}\n};\n"
        "var FocusManager = class extends Subscribable {\n  onSubscribe() {\n"
        "    this.setup();\n  }\n};\n",
        "build/modern/focusManager.js",
        id="hooks-of-an-anonymous-class-the-file-extends",
    ),
]

JS_PLACEHOLDERS = [
    pytest.param(
        "test('masking', () => {});\nit('works', function () {\n});\n",
        "src/tests/masking.test.ts",
        [(1, "<anonymous>", "empty_body"), (2, "<anonymous>", "empty_body")],
        id="empty-tests",
    ),
    pytest.param(
        "export function createUser(data) {}\nexport const deleteUser = (id) => {};\n",
        "src/users.ts",
        [(1, "createUser", "empty_body"), (2, "deleteUser", "empty_body")],
        id="definitions-left-empty",
    ),
    pytest.param(
        "export function price() {\n  // placeholder until the pricing API exists\n"
        "  return 9.99;\n}\n",
        "src/shop.ts",
        [(3, "price", "hardcoded_return")],
        id="hardcoded-under-placeholder-comment",
    ),
    pytest.param(
        "export const api = {\n  fetchUser(id) {},\n  saveUser(user) {}\n};\n"
        "export function Header() {}\n",
        "src/api.js",
        [
            (2, "fetchUser", "empty_body"),
            (3, "saveUser", "empty_body"),
            (5, "Header", "empty_body"),
        ],
        id="object-and-component-left-empty",
    ),
    pytest.param(
        "exports.handler = function () {};\nmodule.exports.run = () => {};\n"
        "class Animal {\n  speak() {}\n}\n// TODO:\n// implement paging\n"
        "// FIXME\nexport const page = 1;\n",
        "src/handler.js",
        [
            (1, "exports.handler", "empty_body"),
            (2, "module.exports.run", "empty_body"),
            (4, "Animal.speak", "empty_body"),
            (6, None, "todo_comment"),
            (8, None, "todo_comment"),
        ],
        id="look-alikes-of-deliberate-bodies",
    ),
    pytest.param(
        "// TODO: implement paging\nexport const page = 1;\n",
        "src/page.ts",
        [(1, None, "todo_comment")],
        id="todo-implement",
    ),
    pytest.param(
        "export const api = {\n  reducers: {\n    reset() {},\n  },\n};\n"
        "export function assertUser(v: unknown): asserts v is User {}\n"
        "export function assertOne<T extends string>(v: any): asserts v is T {}\n"
        "export function load() {\n  let save = () => {};\n  const drop = () => {};\n"
        "  return [save, drop];\n}\n"
        "function wire(e) {\n  exports.persist = () => {};\n  Event.prototype.stop = () => {};\n}\n",
        "src/store.ts",
        [
            (3, "reset", "empty_body"),
            (6, "assertUser", "empty_body"),
            (7, "assertOne", "empty_body"),
            (9, "load.save", "empty_body"),
            (10, "load.drop", "empty_body"),
            (14, "wire.exports.persist", "empty_body"),
            (15, "wire.Event.prototype.stop", "empty_body"),
        ],
        id="look-alikes-of-values-and-casts",
    ),
    pytest.param(
        "var Subscribable = class {\n  onSubscribe() {}\n};\n"
        "var Store = class {\n  findCookie() {}\n};\n"
        "var FocusManager = class extends Subscribable {};\n",
        "src/store.js",
        [(5, "Store.findCookie", "empty_body")],
        id="anonymous-class-nothing-extends",
    ),
]


@pytest.mark.parametrize(("source", "filename"), JS_DELIBERATE)
def test_deliberate_js_ts_is_left_alone(source: str, filename: str, find: Find) -> None:
    assert find(source, filename) == []


@pytest.mark.parametrize(("source", "filename", "expected"), JS_PLACEHOLDERS)
def test_js_ts_placeholders_still_found(
    source: str, filename: str, expected: list[object], find: Find
) -> None:
    assert find(source, filename) == expected


def test_a_comment_quoting_another_comments_marker_is_not_one(find: Find) -> None:
    quoting = (
        "DEFENDED = {\n"
        '    # "# TODO: implement auth-int": the branch really is missing upstream.\n'
        '    ("httpx/_auth.py", "todo_comment"),\n'
        "}\n"
    )
    assert find(quoting, "tests/test_real.py") == []
    asking = 'def f():\n    # TODO: implement "auth-int"\n    pass\n'
    assert find(asking, "src/auth.py") != []
