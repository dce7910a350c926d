"""Precision, third sweep (forge issue 30): bodies that are empty on purpose in the peers'
own suites and real packages, each beside the placeholder it resembles, still found."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Find


DELIBERATE = [
    pytest.param(
        "const defaults = {\n  timeout: 1000,\n  run: () => {},\n  onError: () => {},\n};\n"
        "export default defaults;\n",
        "src/defaults.js",
        id="defaults-object",
    ),
    pytest.param(
        "export const options = {\n  hooks: {\n    beforeRequest: () => {},\n"
        "    afterResponse() {},\n  },\n};\n",
        "src/options.ts",
        id="hooks-in-options",
    ),
    pytest.param(
        "module.exports = {\n  meta: { type: 'problem' },\n  create: () => ({}),\n"
        "  onStart: () => {},\n};\n",
        "lib/rule.js",
        id="on-hook",
    ),
    pytest.param(
        "function run({ setup = () => {} } = {}) {\n  setup();\n}\nrun();\n",
        "src/run.js",
        id="parameter-default",
    ),
    pytest.param(
        "function Base() {}\nclass Child extends Base {\n  go() { return 1; }\n}\n",
        "src/base.js",
        id="constructor-as-a-class-base",
    ),
    pytest.param(
        "var util = require('util');\nfunction Stream() {}\nfunction Readable() { Stream.call(this); }\n"
        "util.inherits(Readable, Stream);\n",
        "lib/stream.js",
        id="constructor-inherited",
    ),
    pytest.param(
        "import click\n\n\nclass AliasedGroup(click.Group):\n"
        "    def get_command(self, ctx, name):\n        return super().get_command(ctx, name)\n\n\n"
        '@click.command(cls=AliasedGroup)\ndef cli():\n    """An example application that '
        'supports aliases."""\n\n\n@click.group(cls=AliasedGroup, chain=True)\n'
        'def tools():\n    """Tools."""\n',
        "examples/aliases/aliases.py",
        id="command-of-a-group-class",
    ),
    pytest.param("// TODO: implement\n", "tests/fixtures/todo.js", id="fixture"),
    pytest.param("# a comment only\n", "__testfixtures__/comment.py", id="testfixtures-folder"),
    pytest.param("/* nothing */\n", "test/test-fixtures/esm/a.js", id="test-fixtures-folder"),
]

PLACEHOLDERS = [
    pytest.param(
        "export const userService = {\n  getUser: () => {},\n  saveUser: () => {},\n};\n",
        "src/users.js",
        [(2, "getUser", "empty_body"), (3, "saveUser", "empty_body")],
        id="service-object",
    ),
    pytest.param(
        "function Parser() {}\nmodule.exports = Parser;\n",
        "lib/parser.js",
        [(1, "Parser", "empty_body")],
        id="constructor-nothing-builds-on",
    ),
    pytest.param(
        "import click\n\n\n@click.command(cls=click.Command)\ndef build():\n"
        '    """Build the site."""\n\n\n@click.group()\ndef cli():\n    pass\n\n\n'
        "@cli.command()\ndef deploy():\n    pass\n",
        "src/cli.py",
        [(6, "build", "docstring_only"), (16, "deploy", "pass")],
        id="commands",
    ),
    pytest.param(
        "// TODO: implement\nexport const x = 1;\n",
        "tests/fixtures/with-code.js",
        [(1, None, "todo_comment")],
        id="fixture-with-code",
    ),
    pytest.param(
        "// TODO: implement\n",
        "src/todo.js",
        [(1, None, "empty_module"), (1, None, "todo_comment")],
        id="todo",
    ),
]


@pytest.mark.parametrize(("source", "filename"), DELIBERATE)
def test_deliberate_bodies_are_left_alone(source: str, filename: str, find: Find) -> None:
    assert find(source, filename) == []


@pytest.mark.parametrize(("source", "filename", "expected"), PLACEHOLDERS)
def test_their_placeholder_look_alikes_are_found(
    source: str, filename: str, expected: list[object], find: Find
) -> None:
    assert find(source, filename) == expected
