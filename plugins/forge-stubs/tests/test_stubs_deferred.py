"""Placeholders the body-shape rules missed (issue 40, item 11), through the installed CLI:
each fails ``stub_check``, and its finished twin passes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import MakeFile, RunForge

#: (file, the placeholder, (line, function, kind), the finished twin).
CASES = [
    pytest.param(
        "shop.py",
        """
        class Base:
            def price(self, x):
                return x * 2


        class Shop(Base):
            def price(self, x):
                raise NotImplementedError("discounted price")
        """,
        (8, "Shop.price", "not_implemented"),
        """
        class Base:
            def price(self, x):
                return x * 2


        class Shop(Base):
            def price(self, x):
                return super().price(x) * 0.9
        """,
        id="concrete-override-raises",
    ),
    pytest.param(
        "cart.py",
        """
        def total(items):
            total = sum(items)
            return total  # TODO: apply the discount
        """,
        (3, "total", "todo_comment"),
        """
        def total(items, discount):
            total = sum(items)
            return total - discount
        """,
        id="python-return-todo",
    ),
    pytest.param(
        "refund.py",
        """
        def refund(order):
            assert False, "not written yet"
        """,
        (2, "refund", "not_implemented"),
        """
        def refund(order):
            assert order.paid, "only a paid order is refunded"
            return order.total
        """,
        id="assert-false",
    ),
    pytest.param(
        "compute.js",
        """
        export function compute(a) {
          return null; // TODO: compute
        }
        """,
        (2, "compute", "todo_comment"),
        """
        export function compute(a) {
          return a * 2;
        }
        """,
        id="js-return-null-todo",
    ),
    pytest.param(
        "tax.js",
        """
        export function withTax(cents) {
          // TODO: add sales tax
          return cents;
        }
        """,
        (2, "withTax", "todo_comment"),
        """
        export function withTax(cents) {
          return Math.round(cents * 1.08);
        }
        """,
        id="js-todo-above-return",
    ),
]


@pytest.mark.parametrize(("name", "placeholder", "expected", "finished"), CASES)
def test_placeholder_fails_and_its_finished_twin_passes(
    make_file: MakeFile,
    run_forge: RunForge,
    name: str,
    placeholder: str,
    expected: tuple[int, str, str],
    finished: str,
) -> None:
    make_file(name, placeholder)
    done = run_forge("validate", "--files", name, "--json")
    result = next(r for r in json.loads(done.stdout)["results"] if r["type"] == "stub_check")
    assert not result["passed"], result
    first = result["findings"][0]
    assert (first["line"], first["function"], first["kind"]) == expected

    make_file(name, finished)
    done = run_forge("validate", "--files", name, "--json")
    result = next(r for r in json.loads(done.stdout)["results"] if r["type"] == "stub_check")
    assert result["passed"], result


#: Finished code that looks close: never a placeholder.
FINISHED = {
    "frozen.py": """
        class Store:
            def put(self, key, value):
                self.data[key] = value


        class FrozenStore(Store):
            def put(self, key, value):
                raise NotImplementedError("a frozen store is read-only")
        """,
    "unreachable.py": """
        def kind(x):
            assert False
        """,
    "later.js": """
        export function total(items) {
          // TODO: remove this wrapper in v5
          return items;
        }
        """,
    "note.py": """
        def load(path):
            data = path.read_text()
            return data  # TODO: cache by mtime once the daemon exists
        """,
}


def test_finished_code_that_looks_close_passes(make_file: MakeFile, run_forge: RunForge) -> None:
    for name, source in FINISHED.items():
        make_file(name, source)
    done = run_forge("validate", "--files", *FINISHED, "--json")
    stubs = [r for r in json.loads(done.stdout)["results"] if r["type"] == "stub_check"]
    assert {r["target"]: r["passed"] for r in stubs} == dict.fromkeys(FINISHED, True)
