"""``empty_module``: a module without code is a placeholder unless it is empty on purpose.

Each deliberate case is shaped from a real one (fastapi's and typer's tests), and each
sits beside a look-alike a worker leaves behind, which must still be found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Find

EMPTY = [(1, None, "empty_module")]

#: fastapi 0.165.0, tests/test_request_params/test_cookie/test_list.py, whole.
COOKIE_LIST = """\
# Currently, there is no way to pass multiple cookies with the same name.
# The only way to pass multiple values for cookie params is to serialize them using
# a comma as a delimiter, but this is not currently supported by Starlette.
"""

#: The Apache License header: prose with "may not", and no reason for the emptiness.
APACHE_HEADER = """\
# Copyright 2026 Example Inc.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
"""


@pytest.mark.parametrize(
    ("source", "filename"),
    [
        pytest.param(
            "# FastAPI doesn't currently support non-scalar Path parameters\n",
            "tests/test_request_params/test_path/test_list.py",
            id="fastapi-not-supported",
        ),
        pytest.param(
            "# Optional Path parameters are not supported\n",
            "tests/test_request_params/test_path/test_optional_str.py",
            id="fastapi-are-not-supported",
        ),
        pytest.param(
            COOKIE_LIST,
            "tests/test_request_params/test_cookie/test_list.py",
            id="fastapi-no-way",
        ),
        pytest.param(
            '"""Intentionally empty: the sync backend has nothing to run."""\n',
            "app/backends/sync.py",
            id="docstring-intentionally-empty",
        ),
        pytest.param(
            "// This module is intentionally left empty: Node has no DOM.\n",
            "src/dom.ts",
            id="ts-intentionally-empty",
        ),
        pytest.param(
            '"use strict";\n/* Windows is not supported. */\n', "src/win32.js", id="js-unsupported"
        ),
        pytest.param(
            "# No longer used: kept so that old imports keep working.\n",
            "app/compat.py",
            id="no-longer-used",
        ),
    ],
)
def test_comments_that_explain_the_emptiness_make_it_deliberate(
    source: str, filename: str, find: Find
) -> None:
    assert find(source, filename) == []


@pytest.mark.parametrize(
    ("source", "filename", "expected"),
    [
        pytest.param("", "app/service.py", EMPTY, id="truly-empty"),
        pytest.param(
            "# TODO: implement\n",
            "app/service.py",
            [(1, None, "empty_module"), (1, None, "todo_comment")],
            id="todo-implement",
        ),
        pytest.param(
            "# Path parameters\n",
            "tests/test_request_params/test_path/test_list.py",
            EMPTY,
            id="prose-without-a-reason",
        ),
        pytest.param(
            "# Optional Path parameters are not supported yet\n",
            "tests/test_request_params/test_path/test_optional_str.py",
            EMPTY,
            id="not-supported-yet",
        ),
        pytest.param("# Empty for now: not needed\n", "app/cache.py", EMPTY, id="for-now"),
        pytest.param(
            "# Not supported: stub, the real client is not written.\n",
            "app/client.py",
            EMPTY,
            id="stub",
        ),
        pytest.param(
            '"""User service: sign-up and login."""\n', "app/users.py", EMPTY, id="docstring"
        ),
        pytest.param(APACHE_HEADER, "app/service.py", EMPTY, id="license-header"),
        pytest.param(
            "# Models not used by the admin site; they do not depend on Django.\n",
            "app/models.py",
            EMPTY,
            id="description-with-negations",
        ),
        pytest.param("// nothing here\n", "src/dom.ts", EMPTY, id="ts-nothing-here"),
        pytest.param(
            "// Not implemented: Windows is not supported\n",
            "src/win32.js",
            EMPTY,
            id="js-not-implemented",
        ),
    ],
)
def test_comments_that_do_not_explain_the_emptiness_leave_a_placeholder(
    source: str, filename: str, expected: list[tuple[int, None, str]], find: Find
) -> None:
    assert find(source, filename) == expected


@pytest.mark.parametrize(
    "filename",
    [
        pytest.param("tests/assets/cli/empty_script.py", id="typer-empty-script"),
        pytest.param("cli/empty_script.py", id="empty-script"),
        pytest.param("empty.py", id="empty"),
        pytest.param("src/blank.js", id="blank"),
        pytest.param("src/emptyModule.ts", id="camel-case"),
        pytest.param("src/empty-file-2.mjs.js", id="numbered"),
    ],
)
def test_a_file_named_to_be_empty_is_deliberate(filename: str, find: Find) -> None:
    assert find("", filename) == []


@pytest.mark.parametrize(
    "filename",
    [
        pytest.param("src/EmptyState.tsx", id="component-named-after-a-feature"),
        pytest.param("cart/empty_cart.py", id="function-named-after-a-feature"),
        pytest.param("tests/test_empty.py", id="test-of-empty"),
        pytest.param("src/is_empty.py", id="empty-not-first"),
    ],
)
def test_a_name_that_only_mentions_empty_leaves_a_placeholder(filename: str, find: Find) -> None:
    assert find("", filename) == EMPTY


def test_a_marker_in_a_file_named_empty_is_still_found(find: Find) -> None:
    assert find("# TODO: implement\n", "empty_script.py") == [(1, None, "todo_comment")]


@pytest.mark.parametrize(
    "filename",
    [
        pytest.param("tests/assets/cli/app_other_name.py", id="typer-test-assets"),
        pytest.param("tests/fixtures/project/main.py", id="fixtures"),
        pytest.param("src/__fixtures__/config.js", id="jest-fixtures"),
        pytest.param("pkg/testdata/plugin.py", id="testdata"),
        pytest.param("test/data/input.ts", id="test-data"),
        pytest.param("src/__mocks__/fs.js", id="stand-in"),
    ],
)
def test_an_empty_test_input_or_stand_in_is_deliberate(filename: str, find: Find) -> None:
    assert find("", filename) == []


@pytest.mark.parametrize(
    "filename",
    [
        pytest.param("src/assets/index.ts", id="assets-outside-tests"),
        pytest.param("app/data/loader.py", id="data-outside-tests"),
        pytest.param("tests/test_cli.py", id="empty-test-module"),
        pytest.param("tests/helpers.py", id="empty-test-helper"),
    ],
)
def test_an_empty_module_beside_test_inputs_leaves_a_placeholder(filename: str, find: Find) -> None:
    assert find("", filename) == EMPTY
