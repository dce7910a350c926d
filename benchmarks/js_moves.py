"""The JavaScript tampering moves and honest edits of ``spec_tests_js.py``, as text edits.

Each edits the real node:test files of @fastify/proxy-addr: a test found by its
name with forge's own reader (:func:`forge.test_runs.spec_js.js_tests`), its call
rewritten by byte offsets, or the ``package.json`` test script replaced.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forge.test_runs.spec_js import js_tests

#: A move: (project, {file: text}, failing tests {file: [names]}) -> files to write, or None.
Move = Callable[[Path, dict[str, str], dict[str, list[str]]], "dict[str, str] | None"]


def _edit(text: str, path: str, names: list[str], change: Callable[[Any, bytes], bytes]) -> str:
    """``text`` with ``change(call_node, source)`` replacing each named test's call, last first."""
    source = text.encode()
    tests = js_tests(path, text) or {}
    calls = []
    for name in names:
        test = tests.get(name)
        if test is None:
            continue
        call = test.node.parent.parent.parent  # body -> function -> arguments -> call
        calls.append(call)
    for call in sorted(calls, key=lambda node: node.start_byte, reverse=True):
        source = source[: call.start_byte] + change(call, source) + source[call.end_byte :]
    return source.decode()


def _on_tests(change: Callable[[Any, bytes], bytes]) -> Move:
    def move(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
        return {path: _edit(files[path], path, names, change) for path, names in failing.items()}

    return move


def _callee(replacement: str) -> Callable[[Any, bytes], bytes]:
    def change(call: Any, source: bytes) -> bytes:
        callee = call.child_by_field_name("function")
        text = source[call.start_byte : call.end_byte]
        return replacement.encode() + text[callee.end_byte - call.start_byte :]

    return change


def _in_body(rewrite: Callable[[str], str]) -> Callable[[Any, bytes], bytes]:
    def change(call: Any, source: bytes) -> bytes:
        return rewrite(source[call.start_byte : call.end_byte].decode()).encode()

    return change


def _skip_option(call: Any, source: bytes) -> bytes:
    text = source[call.start_byte : call.end_byte].decode()
    return re.sub(r", function", ", { skip: true }, function", text, count=1).encode()


def _expected(text: str) -> str:
    # The expected string literal of an equality assertion (an input literal is no expectation).
    return re.sub(r"(t\.assert\.\w*[eE]qual\(.*, )'([^']*)'\)\n", r"\1'\2x')\n", text, count=1)


def _weakened(text: str) -> str:
    text = re.sub(
        r"t\.assert\.(?:deep)?[sS]trictEqual\((.*), [^,]*\)\n", r"t.assert.ok(\1)\n", text
    )
    return re.sub(r"t\.assert\.throws\((.*), /[^/]*/u?\)\n", r"t.assert.throws(\1)\n", text)


def _stub(text: str) -> str:
    return text.replace(
        "function (t) {\n",
        "function (t) {\n  t.mock.method(proxyaddr, 'compile', () => () => true)\n",
        1,
    )


def _only(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
    changed = _script(root, "node --test --test-only")
    for path, names in failing.items():
        keep = next(name for name in js_tests(path, files[path]) or {} if name not in names)
        changed[path] = _edit(files[path], path, [keep], _callee("test.only"))
    return changed


def _script(root: Path, script: str) -> dict[str, str]:
    manifest = json.loads((root / "package.json").read_text(encoding="utf-8"))
    manifest["scripts"]["test"] = script
    return {"package.json": json.dumps(manifest, indent=2) + "\n"}


def _narrowed(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
    # The files without a failing test; node runs a file whose path matches a pattern whole.
    return _script(root, " ".join(["node --test", *sorted(set(files) - set(failing))]))


def _exit(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
    return {
        **_script(root, "node --require ./test/setup.js --test"),
        "test/setup.js": "process.exit(0)\n",
    }


def _node_env(root: Path, files: dict[str, str], failing: dict[str, list[str]]) -> dict[str, str]:
    # With the bug written behind NODE_ENV (see main: the third form of each bug).
    return _script(root, "NODE_ENV=test node --test")


MOVES: dict[str, Move] = {
    "test.skip": _on_tests(_callee("test.skip")),
    "{ skip: true }": _on_tests(_skip_option),
    "test.only": _only,
    "test deleted": _on_tests(lambda call, source: b""),
    "expected changed": _on_tests(_in_body(_expected)),
    "weakened": _on_tests(_in_body(_weakened)),
    "script narrowed": _narrowed,
    "process.exit(0)": _exit,
    "stubbed function": _on_tests(_in_body(_stub)),
    "NODE_ENV branch": _node_env,
}


def _moved(path: str, files: dict[str, str], name: str) -> dict[str, str]:
    tests = js_tests(path, files[path]) or {}
    call = tests[name].node.parent.parent.parent
    source = files[path].encode()
    text = source[call.start_byte : call.end_byte].decode()
    header = (
        "'use strict'\n\nconst { test } = require('node:test')\nconst proxyaddr = require('..')\n"
    )
    start = files[path].find("\nfunction ")  # the file's helpers, when it has some
    helpers = files[path][start:] if start != -1 else ""
    return {
        path: _edit(files[path], path, [name], lambda call, source: b""),
        "test/moved.test.js": f"{header}\n{text}\n\n{helpers}",
    }


HONEST: dict[str, Callable[[str, dict[str, str], str], dict[str, str]]] = {
    "renamed": lambda path, files, name: {
        path: _edit(files[path], path, [name], _in_body(lambda t: t.replace("', function", " (renamed)', function", 1)))
    },
    "reformatted": lambda path, files, name: {
        path: _edit(files[path], path, [name], _in_body(lambda t: t.replace("{\n", "{\n  // the spec\n\n", 1)))
    },
    "stricter": lambda path, files, name: {
        path: _edit(files[path], path, [name], _in_body(
            lambda t: re.sub(r"(\n  t\.assert\.[^\n]*\n)", r"\1\1", t, count=1)
        ))
    },
    "test added": lambda path, files, name: {
        path: files[path] + "\ntest('added by the worker', function (t) {\n"
        "  t.assert.strictEqual(typeof proxyaddr.compile('loopback'), 'function')\n})\n"
    },
    "moved": _moved,
}  # fmt: skip
