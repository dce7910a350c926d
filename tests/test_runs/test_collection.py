"""Comparing two pytest collections by id: what went missing, and what was only renamed."""

from __future__ import annotations

from forge.test_runs.collection import Collected, Shape, body_shape, missing

BASE = '''\
import pytest


@pytest.mark.slow
def test_mul():
    """Multiplies."""
    assert 2 * 3 == 6


class TestAdd:
    def test_add(self):
        assert 1 + 1 == 2
'''
WORK = """\
import pytest


class TestArithmetic:
    @pytest.mark.slow
    def test_multiplies(self):
        assert 2 * 3 == 6

    def test_sum(self):
        assert 1 + 1 == 3
"""


def shapes(text: str) -> dict[int, str | None]:
    found = {line: body_shape(text, line) for line in range(1, len(text.splitlines()) + 1)}
    return {line: shape.digest if shape else None for line, shape in found.items()}


def test_a_body_is_found_from_its_def_or_decorator_line_without_name_or_docstring() -> None:
    base, work = shapes(BASE), shapes(WORK)
    assert base[4] == base[5] == work[5] == work[6] is not None  # decorator, def
    assert base[11] is not None and base[11] != work[9]  # the assertion changed
    assert base[1] is None


def test_renamed_and_moved_bodies_are_not_missing_changed_ones_are() -> None:
    before = [
        Collected("t.py::test_mul", "t.py", 4),
        Collected("t.py::TestAdd::test_add", "t.py", 11),
    ]
    after = [
        Collected("u.py::TestArithmetic::test_multiplies", "u.py", 5),
        Collected("u.py::TestArithmetic::test_sum", "u.py", 9),
    ]
    texts = {"t.py": BASE, "u.py": WORK}
    asked: list[str] = []

    def body(item: Collected) -> Shape | None:
        asked.append(item.id)
        return body_shape(texts[item.file], item.line)

    gone = missing(before, after, base_body=body, work_body=body)
    assert [(item.id, item.folded_into) for item in gone] == [("t.py::TestAdd::test_add", None)]
    assert (
        missing(before, after, base_body=body, work_body=body, allowed=["t.py::TestAdd::test_add"])
        == []
    )
    # Unchanged ids cost no body at all.
    asked.clear()
    assert missing(before, before, base_body=body, work_body=body) == []
    assert asked == []


def test_parametrized_cases_must_all_stay() -> None:
    before = [Collected("t.py::test_x[1]", "t.py", 1), Collected("t.py::test_x[2]", "t.py", 1)]
    after = [Collected("t.py::test_x[1]", "t.py", 1)]
    none = lambda item: None  # noqa: E731
    assert [m.id for m in missing(before, after, base_body=none, work_body=none)] == [
        "t.py::test_x[2]"
    ]
    plain = [Collected("t.py::test_x", "t.py", 1)]
    assert missing(plain, after, base_body=none, work_body=none) == []


TABLE_BASE = """\
def test_small():
    assert mul(2, 3) == 6


def test_zero():
    assert mul(0, 5) == 0
"""
TABLE_WORK = """\
import pytest


def test_table():
    for a, b, c in [(2, 3, 6), (0, 5, 0)]:
        assert mul(a, b) == c
"""
WEAKER = """\
def test_table():
    for a, b in [(2, 3), (0, 5)]:
        assert mul(a, b) in (0, 5, 6, 7)
"""


def test_tests_folded_into_a_table_are_evidence_weaker_tables_are_not() -> None:
    before = [Collected("t.py::test_small", "t.py", 1), Collected("t.py::test_zero", "t.py", 5)]
    line = {TABLE_WORK: 4, WEAKER: 1}
    for text, folded in ((TABLE_WORK, "t.py::test_table"), (WEAKER, None)):
        after = [Collected("t.py::test_table", "t.py", line[text])]
        found = missing(
            before,
            after,
            base_body=lambda item: body_shape(TABLE_BASE, item.line),
            work_body=lambda item, text=text: body_shape(text, item.line),
        )
        assert [(item.id, item.folded_into) for item in found] == [
            ("t.py::test_small", folded),
            ("t.py::test_zero", folded),
        ]
