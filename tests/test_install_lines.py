"""Every install line in the repository works today: none of forge's distributions
(forge-validate, forge-types, forge-stubs) is on PyPI, so a line naming one bare
(``pip install forge-types``) fails for whoever copies it. Lines install from the
git repository or a path, or say they are not yet published."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: A command that installs (or runs) a distribution by name.
INSTALLS = re.compile(r"\b(?:pip3? install|pipx (?:install|run)|uv (?:pip|tool) install|uvx)\b")
#: One of forge's distributions named bare: not a path (``./forge/plugins/forge-stubs``), not a
#: URL (``github.com/forge-validate/forge``), not a direct reference (``forge-types @ git+...``).
BARE = re.compile(
    r"(?<![\w/.=-])forge-(?:validate|types|stubs)(?!(?:\[[\w,-]+\])?[\"']?\s*@)(?![\w/-])"
)
NOT_YET = "not yet published"
#: Text files a user reads or copies from; tests quote the bad lines on purpose.
SUFFIXES = {".md", ".yml", ".yaml", ".toml", ".py", ".json", ".sh", ".txt", ".cfg"}


def tracked_files() -> list[Path]:
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    return [
        REPO / name
        for name in listed
        if name
        and Path(name).suffix in SUFFIXES
        and not name.startswith("tests/")
        and "/tests/" not in name
        and (REPO / name).is_file()
    ]


def unpublished_installs(text: str) -> list[tuple[int, str]]:
    """The lines of ``text`` installing one of forge's distributions from PyPI, unmarked."""
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        if INSTALLS.search(line) and BARE.search(line) and NOT_YET not in line
    ]


def test_no_install_line_names_an_unpublished_distribution() -> None:
    found = [
        f"{path.relative_to(REPO)}:{number}: {line}"
        for path in tracked_files()
        for number, line in unpublished_installs(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "install from git or a path, as the README's Install section does"


def test_the_search_finds_what_it_must_and_nothing_else() -> None:
    """Honest twins: each bad form is found; each form that works today is not."""
    bad = [
        "pip install forge-validate",
        "      - run: pip install forge-types",
        "pip install 'forge-validate[languages]'",
        "uvx --from forge-validate forge-mcp",
        "pip install forge-validate forge-stubs",
        "pipx install forge-types",
    ]
    good = [
        'pip install "forge-validate @ git+https://github.com/forge-validate/forge"',
        'pip install "forge-types @ git+https://github.com/forge-validate/forge#subdirectory=plugins/forge-types"',
        "pip install ./forge ./forge/plugins/forge-stubs",
        'uvx --from "git+https://github.com/forge-validate/forge" forge-mcp',
        'pip install "forge-validate[languages] @ git+https://github.com/forge-validate/forge"',
        "pip install forge-validate              # not yet published",
        "the forge-types plugin runs a type checker",
    ]
    assert [line for line in bad if not unpublished_installs(line)] == []
    assert [line for line in good if unpublished_installs(line)] == []
