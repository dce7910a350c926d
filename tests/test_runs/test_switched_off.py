"""Tests newly switched off by a change: skip/only/ignore markers and emptied test bodies."""

from __future__ import annotations

import pytest

from forge.test_runs.file_kinds import is_test_file
from forge.test_runs.switched_off import newly_switched_off, switched_off

PY_OLD = """\
import pytest

def helper():
    pass

def test_login():
    assert login("ada")

def test_logout():
    with pytest.raises(KeyError):
        logout("nobody")

@pytest.mark.skip(reason="flaky since 2019")
def test_old_skip():
    assert False

class TestCart:
    def test_total(self):
        self.assertEqual(total([1, 2]), 3)
"""

PY_NEW = """\
import pytest
import unittest

def helper():
    pass

@pytest.mark.skip(reason="later")
def test_login():
    assert login("ada")

def test_logout():
    logout("nobody")

@pytest.mark.skip(reason="flaky since 2019")
def test_old_skip():
    assert False

class TestCart:
    @pytest.mark.xfail
    def test_total(self):
        self.assertEqual(total([1, 2]), 3)

    def test_empty(self):
        pytest.skip("not today")

    @unittest.skipIf(True, "never")
    def test_checked(self):
        check_roundtrip(1)
"""


def test_python_markers_and_emptied_tests() -> None:
    found = newly_switched_off("tests/test_app.py", PY_OLD, PY_NEW)
    assert [(f.kind, f.test, f.line) for f in found] == [
        ("skip", "test_login", 7),
        ("no_assertion", "test_logout", 11),
        ("skip", "TestCart.test_total", 19),
        ("skip", "TestCart.test_empty", 24),
        ("skip", "TestCart.test_checked", 26),
    ]
    assert found[0].message == "test_login: @pytest.mark.skip added"
    assert found[1].message == "test_logout has no assertion"
    assert found[3].message == "TestCart.test_empty: pytest.skip() added"


def test_a_marker_that_was_already_there_is_not_new_even_when_it_moved() -> None:
    moved = "# a comment\n\n\n" + PY_OLD
    assert newly_switched_off("tests/app.py", PY_OLD, moved) == []
    assert [f.test for f in switched_off("test_app.py", PY_OLD)] == ["test_old_skip"]


def test_a_new_file_counts_everything_and_a_conditional_skip_is_not_a_switch() -> None:
    text = (
        "import sys, pytest\n\n"
        "def test_posix():\n"
        "    if sys.platform == 'win32':\n"
        "        pytest.skip('posix only')\n"
        "    assert sys.platform\n\n"
        "def test_nothing():\n"
        "    pass\n"
    )
    found = newly_switched_off("test_new.py", None, text)
    assert [(f.kind, f.test) for f in found] == [("no_assertion", "test_nothing")]


JS_OLD = """\
import { describe, it, expect } from "vitest";

describe("cart", () => {
  it("adds", () => {
    expect(add(1, 2)).toBe(3);
  });
  it("removes", () => {
    assert.equal(remove([1], 1).length, 0);
  });
  it.skip("was skipped already", () => {});
});
"""

JS_NEW = """\
import { describe, it, expect } from "vitest";

describe.only("cart", () => {
  it.skip("adds", () => {
    expect(add(1, 2)).toBe(3);
  });
  it("removes", () => {
    remove([1], 1);
  });
  it.skip("was skipped already", () => {});
  xit("pending", () => expect(1).toBe(1));
  test.todo("divides");
});
"""


@pytest.mark.parametrize("path", ["cart.test.js", "cart.test.ts", "cart.test.tsx"])
def test_javascript_and_typescript_markers_and_emptied_tests(path: str) -> None:
    found = newly_switched_off(path, JS_OLD, JS_NEW)
    assert [(f.kind, f.test, f.line) for f in found] == [
        ("only", "cart", 3),
        ("skip", "adds", 4),
        ("no_assertion", "removes", 7),
        ("skip", "pending", 11),
        ("skip", "divides", 12),
    ]
    assert (
        found[0].message
        == "cart: describe.only added: every other test in the file is switched off"
    )


GO_OLD = """\
package cart

import "testing"

func TestAdd(t *testing.T) {
\tif got := Add(1, 2); got != 3 {
\t\tt.Errorf("Add = %d", got)
\t}
}

func TestRemove(t *testing.T) {
\tcheckRemove(t, []int{1})
}
"""

GO_NEW = """\
package cart

import "testing"

func TestAdd(t *testing.T) {
\tt.Skip("later")
\tif got := Add(1, 2); got != 3 {
\t\tt.Errorf("Add = %d", got)
\t}
}

func TestRemove(t *testing.T) {
\tRemove([]int{1})
}
"""


def test_go_skips_and_emptied_tests() -> None:
    found = newly_switched_off("cart_test.go", GO_OLD, GO_NEW)
    assert [(f.kind, f.test, f.line, f.message) for f in found] == [
        ("skip", "TestAdd", 6, "TestAdd: t.Skip() added"),
        ("no_assertion", "TestRemove", 12, "TestRemove has no assertion"),
    ]


def test_rust_ignore() -> None:
    old = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(1, 1);\n    }\n}\n"
    new = old.replace("    #[test]\n", '    #[test]\n    #[ignore = "slow"]\n')
    found = newly_switched_off("src/lib.rs", old, new)
    assert [(f.kind, f.test, f.line, f.column) for f in found] == [("skip", "adds", 4, 5)]


def test_files_that_do_not_parse_or_are_not_code_give_nothing() -> None:
    assert newly_switched_off("test_x.py", None, "def test_x(:\n") == []
    assert newly_switched_off("x.test.js", None, "it.skip('a', () => {") == []
    assert newly_switched_off("notes.md", None, "it.skip('a')") == []


def test_only_test_files_are_read() -> None:
    app_code = "def test_connection():\n    return ping()\n"
    assert newly_switched_off("src/db.py", None, app_code) == []
    assert [f.test for f in newly_switched_off("src/db_test.py", None, app_code)] == [
        "test_connection"
    ]
    assert is_test_file("web/__tests__/cart.ts", "")
    assert is_test_file("cart.spec.mjs", "")
    assert is_test_file("pkg/cart_test.go", "")
    assert is_test_file("src/lib.rs", "#[cfg(test)]\nmod tests {}\n")
    assert not is_test_file("src/lib.rs", "pub fn f() {}\n")
    assert not is_test_file("tests/fixtures/data.json", "")
