"""Without a base, what counts: the rules that mean the code cannot run, and no more of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_testing import commit, copy_of_published, git
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


def test_without_a_base_an_importer_s_errors_are_shown_not_counted(shop: Path) -> None:
    """Counted without a base: the listed files' errors. An importer's are shown, and count
    only with a base (then they are new or not); listed, the same file counts."""
    prices = shop / "shop" / "prices.py"
    prices.write_text(
        prices.read_text(encoding="utf-8").replace("amount: int,", "amount: int, rounding: int,"),
        encoding="utf-8",
    )
    done = run_forge_in(shop, "validate", "--files", "shop/prices.py", "--json")
    result = type_result(json.loads(done.stdout))
    (shown,) = [loc for loc in result["locations"] if loc["rule"] == "missing-argument"]
    assert shown["path"] == "shop/checkout.py" and shown.get("informational") is True, result
    assert done.returncode == 0, result["message"]
    done = run_forge_in(shop, "validate", "--files", "shop/prices.py", "shop/checkout.py", "--json")
    result = type_result(json.loads(done.stdout))
    assert result["newCount"] == 1 and done.returncode == 1, result


GATED = """\
import sys
import enum

from shop import prices

if sys.platform == "win32":
    import msvcrt

    def key() -> str:
        return msvcrt.getwch()
else:
    def key() -> str:
        return prices.msvcrt.getwch()

if sys.version_info < (3, 11):
    enum.StrEnum = enum.Enum

try:
    from shop.prices import fast_total
except ImportError:
    fast_total = None

total = prices.Cart().totl()
"""


def test_without_a_base_platform_and_version_gated_names_never_count(shop: Path) -> None:
    """Under a platform or version check, in a try that catches ImportError, or a module of
    another platform: not "cannot run". The typo below them still counts."""
    (shop / "shop" / "gated.py").write_text(GATED, encoding="utf-8")
    done = run_forge_in(shop, "validate", "--files", "shop/gated.py", "--json")
    result = type_result(json.loads(done.stdout))
    counted = [
        (loc["line"], loc["rule"]) for loc in result["locations"] if not loc.get("informational")
    ]
    assert counted == [(23, "missing-attribute")], result["locations"]
    assert done.returncode == 1


#: A CLI library that gates by platform (``msvcrt`` under ``if WIN:``), re-exports
#: implicitly (``click._termui_impl.os``), and whose tests use ``enum.StrEnum`` under a
#: version check; it configures mypy, strict, for Python 3.10.
CLICK = "click==8.5.1"


@pytest.mark.slow
def test_a_pristine_click_validated_without_a_base_counts_no_type_error(tmp_path: Path) -> None:
    """It counted 22 errors "that stop the code running", none of which does: implicit
    re-exports, a Windows module, a name newer than Python 3.10, all in importers."""
    root = copy_of_published("pypi", CLICK, tmp_path / "click")
    git(root, "init", "-q")
    commit(root, {}, "published")
    listed = sorted(str(p.relative_to(root)) for p in (root / "src" / "click").glob("*.py"))
    listed += ["tests/test_termui.py", "tests/test_options.py"]  # as if a change touched them
    done = run_forge_in(root, "validate", "--files", *listed, "--json")
    result = type_result(json.loads(done.stdout))
    assert result["checker"].startswith("mypy "), result["message"]
    counted = [loc for loc in result["locations"] if not loc.get("informational")]
    assert result["newCount"] == 0 and result["passed"] is True, counted
    assert result["informationalCount"] > 0, result["message"]
    # The honest twin: a keyword termui.echo does not take, in a listed file, counts.
    termui = root / "src" / "click" / "termui.py"
    termui.write_text(
        termui.read_text(encoding="utf-8")
        + '\n\ndef _shout() -> None:\n    echo("x", colr=True)\n',
        encoding="utf-8",
    )
    done = run_forge_in(root, "validate", "--files", *listed, "--json")
    result = type_result(json.loads(done.stdout))
    counted = [
        (loc["path"], loc["rule"]) for loc in result["locations"] if not loc.get("informational")
    ]
    assert counted == [("src/click/termui.py", "call-arg")], counted
    assert done.returncode == 1
