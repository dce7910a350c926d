"""Without a base, what counts: the rules that mean the code cannot run, and no more of them."""

from __future__ import annotations

import json
from pathlib import Path

from types_testing import run_forge_in, type_result

MAYBE = """\
def first(items: list[str]) -> str | None:
    return items[0] if items else None


def shout(items: list[str]) -> str:
    return first(items).upper()


def read(source: bytes | list[bytes] | None) -> str:
    return source.decode()


def spelled(value: int) -> int:
    return value.bit_lenth()
"""


def test_without_a_base_a_member_missing_from_one_side_of_a_union_is_shown_not_counted(
    shop: Path,
) -> None:
    """Optional or union member access may be narrowed at run time: it is not "cannot run".

    pyrefly calls it ``missing-attribute`` like a real typo; mypy (``union-attr``)
    and pyright (``reportOptionalMemberAccess``) tell it apart, and forge does the
    same for pyrefly: on ``NoneType`` or a type spelled with ``|``, it is shown only.
    """
    (shop / "shop" / "maybe.py").write_text(MAYBE, encoding="utf-8")
    done = run_forge_in(shop, "validate", "--files", "shop/maybe.py", "--json")
    result = type_result(json.loads(done.stdout))
    counted = [loc for loc in result["locations"] if not loc.get("informational")]
    assert [(loc["line"], loc["rule"]) for loc in counted] == [(14, "missing-attribute")]
    shown = {loc["line"] for loc in result["locations"] if loc.get("informational")}
    assert {6, 10} <= shown, result["locations"]
    assert done.returncode == 1  # the typo still fails


def test_without_a_base_mypy_s_operator_counts_only_a_call_of_something_not_callable(
    shop: Path,
) -> None:
    (shop / "pyproject.toml").write_text("[tool.mypy]\n", encoding="utf-8")
    (shop / "shop" / "ops.py").write_text(
        'def has_x(text: str | None) -> bool:\n    return "x" in text\n\n\nLIMIT = 3\nLIMIT()\n',
        encoding="utf-8",
    )
    done = run_forge_in(shop, "validate", "--files", "shop/ops.py", "--json")
    result = type_result(json.loads(done.stdout))
    assert result["checker"].startswith("mypy ")
    counted = [loc for loc in result["locations"] if not loc.get("informational")]
    assert [(loc["line"], loc["rule"], loc["message"]) for loc in counted] == [
        (6, "operator", '"int" not callable')
    ]
    shown = [loc for loc in result["locations"] if loc.get("informational")]
    assert [(loc["line"], loc["rule"]) for loc in shown] == [(2, "operator")]
