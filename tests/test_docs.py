"""The tool reference in docs/ is generated from the live schemas and must not drift."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from forge.tools.mcp_server import TOOL_NAMES
from forge.tools.reference import reference_markdown

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"


def test_tool_reference_matches_the_server() -> None:
    committed = (DOCS / "mcp-tools.md").read_text(encoding="utf-8")
    assert committed == reference_markdown(), (
        "docs/mcp-tools.md is out of date: run python -m forge.tools.reference > docs/mcp-tools.md"
    )


def test_readme_client_guide_names_every_tool_and_setting() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    guide = readme.split("## Use with Claude Code and other MCP clients", 1)[1]
    for needle in (*TOOL_NAMES, "claude mcp add forge -- forge-mcp", ".mcp.json", "uvx", "pipx"):
        assert needle in guide, needle
    for variable in ("FORGE_CWD", "FORGE_HOME", "FORGE_DISABLE_PLUGINS", "FORGE_LOG_LEVEL"):
        assert variable in guide, variable


# --- install lines that work today (issue 27) ---------------------------------------

#: Every document a user reads to install or set up forge.
USER_DOCS = sorted(
    {
        REPO / "README.md",
        REPO / "SECURITY.md",
        REPO / "CONTRIBUTING.md",
        REPO / "plugins" / "forge-stubs" / "README.md",
        *DOCS.glob("*.md"),
        *(REPO / "integrations").rglob("*.md"),
    }
)

#: The published forms (``pip install forge-validate``, ``uvx --from forge-validate``,
#: ``pipx run --spec forge-stubs``...): forge is not on PyPI yet, so none works today.
PUBLISHED = re.compile(
    r"(?:pip install|pipx install|--spec|--from)[\"',\s]+forge-(?:validate|stubs)"
    r"(?!(?:\[[a-z,]+\])?\s*@)"
)
NOT_YET = "not yet published"


def _lines(path: Path) -> list[tuple[int, str]]:
    return list(enumerate(path.read_text(encoding="utf-8").splitlines(), start=1))


def test_no_doc_gives_an_unpublished_install_as_if_it_worked() -> None:
    unmarked = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in USER_DOCS
        for number, line in _lines(path)
        if PUBLISHED.search(line) and NOT_YET not in line
    ]
    assert unmarked == [], "mark these 'not yet published' or give a line that works today"


def test_the_readme_gives_install_lines_that_work_today() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    git = "git+https://github.com/forge-validate/forge"
    assert f'pip install "forge-validate @ {git}"' in readme
    assert f'"forge-stubs @ {git}#subdirectory=plugins/forge-stubs"' in readme
    assert f'uvx --from "{git}" forge-mcp' in readme
    assert "pip install ./forge ./forge/plugins/forge-stubs" in readme  # from a clone
    mcp_json = readme.split("### `.mcp.json`", 1)[1].split("```", 2)[1]
    assert git in mcp_json and 'forge-validate"' not in mcp_json


def test_pre_commit_snippets_pin_a_commit_not_a_missing_tag() -> None:
    revs = [
        (path.relative_to(REPO), number, line.split("rev:", 1)[1].split("#")[0].strip())
        for path in USER_DOCS
        for number, line in _lines(path)
        if line.strip().startswith("rev:")
    ]
    assert revs, "a pre-commit snippet is documented"
    for where, number, rev in revs:
        assert re.fullmatch(r"[0-9a-f]{40}", rev), f"{where}:{number}: rev {rev!r}"


GITIGNORE_RULE = ".forge/*\n!.forge/plans/\n"


def test_every_doc_that_mentions_gitignore_keeps_the_plans(tmp_path: Path) -> None:
    mentions = [
        path
        for path in USER_DOCS
        # A paragraph about ignoring forge's state (not .gitignore's glob syntax, say).
        if any(
            ".gitignore" in paragraph and ".forge" in paragraph
            for paragraph in path.read_text(encoding="utf-8").split("\n\n")
        )
    ]
    assert REPO / "SECURITY.md" in mentions and REPO / "README.md" in mentions
    for path in mentions:
        text = path.read_text(encoding="utf-8")
        unindented = "\n".join(line.strip() for line in text.splitlines()) + "\n"
        assert GITIGNORE_RULE in unindented, f"{path.relative_to(REPO)}: another .gitignore rule"
        assert "`.forge/` to `.gitignore`" not in text
    # The rule does what the docs say: state ignored, plans kept (and so pre-commit sees them).
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text(GITIGNORE_RULE, encoding="utf-8")
    for name in (".forge/plans/a.json", ".forge/iterations/m.json", ".forge/status.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    ignored = subprocess.run(
        [
            "git",
            "check-ignore",
            ".forge/plans/a.json",
            ".forge/iterations/m.json",
            ".forge/status.json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    assert ignored == [".forge/iterations/m.json", ".forge/status.json"]
