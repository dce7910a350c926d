"""The ``missing_command`` rule: programs of verify commands must exist; nothing is run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from forge.plan.check import PlanReport

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The only PATH entry: programs that leave a mark if anything ever runs them.

    ``which`` is among them, so shelling out to ``which`` would be caught too.
    """
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ("pytest", "npm", "ruff", "tee", "touch", "which", "sh"):
        program = folder / name
        program.write_text(f"#!/bin/sh\necho ran > '{tmp_path}/ran-{name}'\n", encoding="utf-8")
        program.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def _missing(report: PlanReport) -> list[str]:
    return [f.message for f in report.errors if f.type in {"missing_command", "invalid_command"}]


def _verify(check: Check, make: Make, root: Path, *commands: str) -> PlanReport:
    return check([make("m", verify=list(commands))], root=root)


@pytest.mark.parametrize(
    "command",
    [
        "pytest -q",
        "FOO=1 BAR='a b' pytest -q",
        "cd web && npm test",
        "cd web && FOO=1 npm test -- --run 2>&1 | tee out.log",
        "npm ci; npm test || npm run fallback",
        "export CI=1; test -f package.json && echo yes; [ -d src ] && true",
        "$RUNNER pytest; ${TOOL:-x} y; $(npm bin)/jest; `npm bin`/jest",
        "if [ -f x ]; then pytest; else ruff check; fi",
        "for f in a b; do ruff check $f; done",
        "pytest -q  # a comment that names no-such-tool",
        "exec pytest",
    ],
)
def test_commands_whose_programs_exist_pass(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path, command: str
) -> None:
    report = _verify(check_inline, make_module, root, command)
    assert _missing(report) == []
    assert report.valid


def test_a_program_not_on_path_is_an_error(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path
) -> None:
    report = _verify(check_inline, make_module, root, "pytest -q", "jestt --ci")
    [error] = report.errors
    assert (error.type, error.modules, error.field, error.files) == (
        "missing_command",
        ["m"],
        "verify",
        [],
    )
    assert error.message == (
        'module "m": verify[1] runs "jestt", which is not on PATH; command: jestt --ci'
    )


@pytest.mark.parametrize(
    ("command", "missing"),
    [
        ("npm test && jestt --ci", "jestt"),
        ("npm test || jestt", "jestt"),
        ("npm test; jestt", "jestt"),
        ("npm test | tap-nyan", "tap-nyan"),
        ("npm test|&tap-nyan", "tap-nyan"),
        ("FOO=1 nosuch-tool", "nosuch-tool"),
        ("cd web && nosuch-tool", "nosuch-tool"),
        ("(cd web && npm test) && nosuch-tool", "nosuch-tool"),
        ("npm test\nnosuch-tool", "nosuch-tool"),
        ("2>/dev/null nosuch-tool", "nosuch-tool"),
        ("npm test & nosuch-tool", "nosuch-tool"),
    ],
)
def test_every_simple_command_of_a_list_is_checked(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path, command: str, missing: str
) -> None:
    messages = _missing(_verify(check_inline, make_module, root, command))
    assert len(messages) == 1
    assert f'runs "{missing}", which is not on PATH' in messages[0]


def test_project_scripts_are_resolved_against_the_root(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path
) -> None:
    (root / "scripts").mkdir()
    ok = root / "scripts" / "test.sh"
    ok.write_text("#!/bin/sh\n", encoding="utf-8")
    ok.chmod(0o755)
    (root / "scripts" / "plain.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (root / "web" / "bin").mkdir(parents=True)
    report = _verify(
        check_inline,
        make_module,
        root,
        "./scripts/test.sh --fast",
        "scripts/test.sh",
        "./scripts/missing.sh",
        "./scripts/plain.sh",
        "cd web && ./scripts/test.sh",
        "./web/bin",
    )
    assert [(f.message.split(";")[0], f.files) for f in report.errors] == [
        (
            'module "m": verify[2] runs "./scripts/missing.sh", which does not exist and no '
            "module lists scripts/missing.sh in files",
            ["scripts/missing.sh"],
        ),
        (
            'module "m": verify[3] runs "./scripts/plain.sh", which is not executable (chmod +x it, or run it with sh)',
            ["scripts/plain.sh"],
        ),
        (
            'module "m": verify[4] runs "./scripts/test.sh", which does not exist and no '
            "module lists web/scripts/test.sh in files",
            ["web/scripts/test.sh"],
        ),
        ('module "m": verify[5] runs "./web/bin", which is not a file', ["web/bin"]),
    ]


def test_a_script_some_module_creates_is_accepted(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path
) -> None:
    report = check_inline(
        [
            make_module("tools", files=["./tools/check.sh"]),
            make_module("app", verify=["cd tools && ./check.sh", "tools/check.sh"]),
        ],
        root=root,
    )
    assert report.valid, report.errors


def test_absolute_programs_must_exist(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path
) -> None:
    report = _verify(check_inline, make_module, root, f"{bin_dir}/pytest", "/no/such/dir/tool --x")
    assert [f.message.split(";")[0] for f in report.errors] == [
        'module "m": verify[1] runs "/no/such/dir/tool", which does not exist'
    ]


def test_a_command_that_cannot_be_split_is_invalid(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path
) -> None:
    report = _verify(check_inline, make_module, root, 'pytest -k "unclosed')
    [error] = report.errors
    assert error.type == "invalid_command"
    assert "cannot be parsed (No closing quotation)" in error.message


def test_tech_stack_commands_are_checked(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path
) -> None:
    report = check_inline(
        {
            "techStack": {"testCommand": "pnpm vitest", "lintCommand": "ruff check"},
            "modules": [make_module("m")],
        },
        root=root,
    )
    [error] = report.errors
    assert (error.field, error.modules) == ("techStack.testCommand", [])
    assert error.message.startswith('techStack.testCommand runs "pnpm", which is not on PATH')


def test_nothing_is_ever_executed(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path, tmp_path: Path
) -> None:
    report = _verify(
        check_inline,
        make_module,
        root,
        "touch created.txt && pytest > out.txt",
        "sh -c 'touch created-by-sh.txt'",
        "echo $(touch created-by-substitution.txt) `touch created-by-backticks.txt`",
        "npm test | tee log.txt; ruff check",
        "nosuch-tool; touch after-missing.txt",
    )
    assert [f.type for f in report.errors] == ["missing_command"]
    assert not list(root.iterdir())
    assert not list(tmp_path.glob("ran-*")), "a program (or which) was run"


def test_acceptance_criteria_commands_are_looked_up_and_check_ids_left_to_validate(
    check_inline: Check, make_module: Make, root: Path, bin_dir: Path
) -> None:
    criteria = [
        {"check": "pytest -q tests/test_api.py"},
        {"check": "syntax_check"},
        {"check": "command"},
        {"check": "curll -sf localhost:8000/health", "blocking": False},
    ]
    report = check_inline([make_module("m", acceptance_criteria=criteria)], root=root)
    [error] = report.errors
    assert (error.type, error.field) == ("missing_command", "acceptance_criteria")
    assert error.message.startswith('module "m": acceptance_criteria[3].check runs "curll"')
    assert not list(bin_dir.parent.glob("ran-*"))
