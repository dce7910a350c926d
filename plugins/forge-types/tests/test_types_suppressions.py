"""New suppressions are judged, not obeyed; ones the base had stay respected (issue 40, 12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_testing import commit, git, npm_installed
from types_testing import TYPESCRIPT, run_forge_in, type_result, typescript_repository

#: A call with one argument too many: pyrefly's bad-argument-count.
TOO_MANY = "\n\ndef bill() -> str:\n    return price(1, 'EUR', 2){comment}\n"


def _validate(root: Path, *listed: str) -> tuple[int, dict[str, object]]:
    done = run_forge_in(root, "validate", "--files", *listed, "--base", "main", "--json")
    return done.returncode, type_result(json.loads(done.stdout))


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.mark.parametrize(
    "comment",
    ["  # type: ignore", "  # pyrefly: ignore[bad-argument-count]", "  # type: ignore[call-arg]"],
)
def test_a_suppression_added_since_the_base_is_judged_not_obeyed(shop: Path, comment: str) -> None:
    """The work silences a wrong call: it passed. With the comment blanked out in a scratch
    copy, the call fails, "suppressed since the base"; the user's file is untouched."""
    git(shop, "checkout", "-q", "-b", "work")
    checkout = shop / "shop" / "checkout.py"
    _append(checkout, TOO_MANY.format(comment=comment))
    before = checkout.read_text(encoding="utf-8")
    code, result = _validate(shop, "shop/checkout.py")
    assert code == 1, result["message"]
    (new,) = [loc for loc in result["locations"] if not loc.get("preExisting")]  # type: ignore[attr-defined]
    assert new["rule"] == "bad-argument-count" and new["line"] == 10, new
    assert new["message"].endswith("(suppressed since the base)"), new
    assert checkout.read_text(encoding="utf-8") == before
    assert git(shop, "status", "--porcelain", "--", "shop") == "M shop/checkout.py"


def test_a_suppression_present_at_the_base_stays_respected(shop: Path) -> None:
    """The honest twin: the same silenced call was there at the base; the work edits
    another line of the file. Nothing new."""
    checkout = shop / "shop" / "checkout.py"
    _append(checkout, TOO_MANY.format(comment="  # type: ignore"))
    commit(shop, {}, "an old suppression")
    git(shop, "checkout", "-q", "-b", "work")
    _append(checkout, "\n\ndef free() -> str:\n    return price(0)\n")
    code, result = _validate(shop, "shop/checkout.py")
    assert result["newCount"] == 0 and code == 0, result["locations"]


PYREFLY_ON = (
    '[project]\nname = "shop"\nversion = "0"\n\n[tool.pyrefly]\nproject-includes = ["shop"]\n'
)
PYREFLY_OFF = PYREFLY_ON + "\n[tool.pyrefly.errors]\nbad-argument-count = false\n"


def test_a_checker_configuration_loosened_since_the_base_is_judged_with_the_base_s(
    shop: Path,
) -> None:
    """The work turns pyrefly's bad-argument-count off and adds a wrong call: judged with
    the base's configuration, the call fails."""
    commit(shop, {"pyproject.toml": PYREFLY_ON}, "pyrefly configured")
    git(shop, "checkout", "-q", "-b", "work")
    (shop / "pyproject.toml").write_text(PYREFLY_OFF, encoding="utf-8")
    _append(shop / "shop" / "checkout.py", TOO_MANY.format(comment=""))
    code, result = _validate(shop, "shop/checkout.py")
    new = [loc for loc in result["locations"] if not loc.get("preExisting")]  # type: ignore[attr-defined]
    assert [(loc["rule"], loc["line"]) for loc in new] == [("bad-argument-count", 10)], new
    assert code == 1


def test_a_checker_configuration_loosened_at_the_base_stays_respected(shop: Path) -> None:
    """The honest twin: the base already turned the rule off."""
    commit(shop, {"pyproject.toml": PYREFLY_OFF}, "pyrefly configured, one rule off")
    git(shop, "checkout", "-q", "-b", "work")
    _append(shop / "shop" / "checkout.py", TOO_MANY.format(comment=""))
    code, result = _validate(shop, "shop/checkout.py")
    assert result["newCount"] == 0 and code == 0, result["locations"]


LEDGER = {
    "tsconfig.json": json.dumps({"compilerOptions": {"strict": True}, "include": ["src"]}),
    "src/sum.ts": "export function sum(a: number, b: number): number {\n  return a + b;\n}\n",
    "src/main.ts": "import { sum } from './sum';\nexport const total = sum(1, 2);\n",
}
#: (name, the work's src/main.ts, the line the hidden diagnostic is on, its rule)
SILENCED = [
    ("@ts-ignore", "import { sum } from './sum';\n// @ts-ignore\nexport const total = sum(1);\n", 3, "TS2554"),
    ("as any", "import { sum } from './sum';\nexport const total = sum(1, 2);\nexport const n: number = ('x' as any);\n", 3, "TS2322"),
    ("@ts-nocheck", "// @ts-nocheck\nimport { sum } from './sum';\nexport const total = sum(1);\n", 3, "TS2554"),
    ("@ts-expect-error", "import { sum } from './sum';\n// @ts-expect-error\nexport const total = sum(1);\n", 3, "TS2554"),
]  # fmt: skip


@pytest.mark.slow
def test_typescript_suppressions_and_a_loosened_tsconfig_are_judged_not_obeyed(
    tmp_path: Path,
) -> None:
    """Each silences a real error and passed; each now fails with that error."""
    root = typescript_repository(tmp_path / "ledger", npm_installed(TYPESCRIPT), LEDGER)
    git(root, "checkout", "-q", "-b", "work")
    main = root / "src" / "main.ts"
    for name, text, line, rule in SILENCED:
        main.write_text(text, encoding="utf-8")
        code, result = _validate(root, "src/main.ts")
        new = [loc for loc in result["locations"] if not loc.get("preExisting")]  # type: ignore[attr-defined]
        assert [(loc["rule"], loc["line"]) for loc in new] == [(rule, line)], (name, new)
        assert new[0]["message"].endswith("(suppressed since the base)") and code == 1, name
    # "strict": false since the base hides the implicit any of a new parameter.
    main.write_text(
        LEDGER["src/main.ts"] + "export function twice(x) {\n  return x * 2;\n}\n", "utf-8"
    )
    (root / "tsconfig.json").write_text(json.dumps({"include": ["src"]}), encoding="utf-8")
    code, result = _validate(root, "src/main.ts")
    new = [loc for loc in result["locations"] if not loc.get("preExisting")]  # type: ignore[attr-defined]
    assert [loc["rule"] for loc in new] == ["TS7006"] and code == 1, new
    # The honest twin: a suppression the base had stays respected.
    git(root, "checkout", "-q", "-f", "main")
    commit(root, {"src/main.ts": SILENCED[0][1]}, "an old @ts-ignore")
    git(root, "checkout", "-q", "-b", "work2")
    main.write_text(SILENCED[0][1] + "export const more = sum(2, 3);\n", encoding="utf-8")
    code, result = _validate(root, "src/main.ts")
    assert result["newCount"] == 0 and code == 0, result["locations"]
