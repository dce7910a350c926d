"""type_check on requests and rich, downloaded at test time: each kind of mistake is caught,
harmless edits pass, an unmodified package judged against itself has no counted finding.

requests configures pyright, which is not installed: pyrefly (pinned) checks it. rich
configures mypy, installed beside forge in the dev environment: mypy checks it, as in
rich's own CI. Both get a virtual environment with the packages their imports need.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forge_testing import copy_of_published, forge_executable, git
from mcp import Client
from mcp_client import call, stdio_parameters
from types_testing import run_forge_in

pytestmark = pytest.mark.slow

REQUESTS = "requests==2.34.2"
RICH = "rich==15.0.0"
#: What each package's imports need to resolve.
DEPENDENCIES = ["urllib3", "charset_normalizer", "idna", "certifi", "pygments", "markdown-it-py"]

#: (name, file to edit, old text, new text, file listed, file and text of the broken line, rule)
Mistake = tuple[str, str, str, str, str, str, str, str]
REQUESTS_MISTAKES: list[Mistake] = [
    ("wrong argument count", "src/requests/sessions.py",
     "params=merge_setting(request.params, self.params)",
     "params=merge_setting(request.params, self.params, dict, 1)",
     "src/requests/sessions.py", "src/requests/sessions.py", "merge_setting(request.params", "bad-argument-count"),
    ("misspelled keyword", "src/requests/sessions.py", "dict_class=CaseInsensitiveDict",
     "dict_klass=CaseInsensitiveDict",
     "src/requests/sessions.py", "src/requests/sessions.py", "dict_klass=", "unexpected-keyword"),
    ("attribute of an imported module", "src/requests/api.py", "sessions.Session()", "sessions.Sesion()",
     "src/requests/api.py", "src/requests/api.py", "sessions.Sesion()", "missing-attribute"),
    ("name an imported module does not export", "src/requests/models.py",
     "    parse_header_links,\n", "    parse_header_linkz,\n",
     "src/requests/models.py", "src/requests/models.py", "parse_header_linkz,", "missing-module-attribute"),
    ("method of an instance of an imported class", "src/requests/sessions.py", "p.prepare(", "p.prepare_all(",
     "src/requests/sessions.py", "src/requests/sessions.py", "p.prepare_all(", "missing-attribute"),
    ("required parameter added to an exporter", "src/requests/utils.py",
     "url: _t.UriType, raise_errors: bool = False", "url: _t.UriType, proxies: dict[str, str], raise_errors: bool = False",
     "src/requests/utils.py", "src/requests/sessions.py", "new_auth = get_netrc_auth(url)", "missing-argument"),
    ("method renamed, another file calls the old name", "src/requests/sessions.py",
     "    def request(\n        self,", "    def send_request(\n        self,",
     "src/requests/sessions.py", "src/requests/api.py", "return session.request(", "missing-attribute"),
    ("argument of the wrong type across modules", "src/requests/sessions.py",
     "new_auth = get_netrc_auth(url)", "new_auth = get_netrc_auth(url, 'yes')",
     "src/requests/sessions.py", "src/requests/sessions.py", "get_netrc_auth(url, 'yes')", "bad-argument-type"),
]  # fmt: skip
RICH_MISTAKES: list[Mistake] = [
    ("argument of the wrong type across modules", "rich/containers.py", "cell_len(", "cell_len(0) + cell_len(",
     "rich/containers.py", "rich/containers.py", "cell_len(0)", "arg-type"),
    ("property removed that other files read", "rich/segment.py", "def cell_length(self) -> int:",
     "def cell_width(self) -> int:", "rich/segment.py", "rich/segment.py", ".cell_length", "attr-defined"),
    ("wrong argument count", "rich/_wrap.py", "chop_cells(word, width=width)",
     "chop_cells(word, width, 'auto', 1)", "rich/_wrap.py", "rich/_wrap.py", "chop_cells(word, width, 'auto', 1)", "call-arg"),
]  # fmt: skip

#: (name, [(file, old, new)], files listed): edits that break nothing.
Harmless = tuple[str, list[tuple[str, str, str]], list[str]]
REQUESTS_HARMLESS: list[Harmless] = [
    ("rename a local", [("src/requests/sessions.py", "merged_setting", "combined")] * 5, ["src/requests/sessions.py"]),
    ("add a correct helper and call it", [
        ("src/requests/utils.py", "def default_user_agent(", "def _agent_name(name: str) -> str:\n    return name.strip()\n\n\ndef default_user_agent("),
        ("src/requests/utils.py", 'return f"{name}/{__version__}"', 'return f"{_agent_name(name)}/{__version__}"'),
    ], ["src/requests/utils.py"]),
    ("reorder imports", [("src/requests/api.py", "from . import sessions\nfrom .models import Response\n", "from .models import Response\nfrom . import sessions\n")], ["src/requests/api.py"]),
    ("add an optional parameter that one caller passes", [
        ("src/requests/utils.py", 'def default_user_agent(name: str = "python-requests") -> str:', 'def default_user_agent(name: str = "python-requests", suffix: str = "") -> str:'),
        ("src/requests/utils.py", '"User-Agent": default_user_agent(),', '"User-Agent": default_user_agent(suffix=""),'),
    ], ["src/requests/utils.py"]),
    ("extract a function", [
        ("src/requests/utils.py", 'return f"{name}/{__version__}"', "return _versioned(name)"),
        ("src/requests/utils.py", "def default_user_agent(", 'def _versioned(name: str) -> str:\n    return f"{name}/{__version__}"\n\n\ndef default_user_agent('),
    ], ["src/requests/utils.py"]),
]  # fmt: skip


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One virtual environment with what requests' and rich's imports need."""
    venv = tmp_path_factory.mktemp("deps") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *DEPENDENCIES],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot install {DEPENDENCIES} (no network?): {done.stderr[-300:]}")
    return venv


def _repository(spec: str, into: Path, environment: Path) -> Path:
    root = copy_of_published("pypi", spec, into)
    (root / ".venv").symlink_to(environment, target_is_directory=True)
    git(root, "init", "-q")
    (root / ".git" / "info" / "exclude").write_text(".venv\n.forge/\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "published")
    return root


@pytest.fixture(scope="module")
def requests_repo(tmp_path_factory: pytest.TempPathFactory, environment: Path) -> Iterator[Path]:
    """requests, committed as published: the base."""
    yield _repository(REQUESTS, tmp_path_factory.mktemp("requests") / "requests", environment)


@pytest.fixture(scope="module")
def rich_repo(tmp_path_factory: pytest.TempPathFactory, environment: Path) -> Iterator[Path]:
    """rich, committed as published: the base."""
    yield _repository(RICH, tmp_path_factory.mktemp("rich") / "rich", environment)


def _apply(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(root: Path, name: str, text: str) -> int:
    lines = (root / name).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def _type_result(report: dict[str, Any]) -> dict[str, Any]:
    (found,) = [r for r in report["results"] if r["type"] == "type_check"]
    return found


def _assert_caught(report: dict[str, Any], root: Path, mistake: Mistake) -> None:
    name, _, _, _, _, broken_file, broken_text, rule = mistake
    result = _type_result(report)
    assert report["passed"] is False and result["passed"] is False, (name, result["message"])
    new = [loc for loc in result["locations"] if not loc.get("preExisting")]
    line = _line_of(root, broken_file, broken_text)
    assert any(
        loc["path"] == broken_file and loc["line"] == line and loc["rule"] == rule for loc in new
    ), (name, line, new)


def _check_all_through_cli_and_mcp(root: Path, mistakes: list[Mistake]) -> None:
    reports = []
    for mistake in mistakes:
        _, edited, old, new, listed, *_ = mistake
        _apply(root, edited, old, new)
        done = run_forge_in(root, "validate", "--files", listed, "--base", "main", "--json")
        assert done.returncode == 1, (mistake[0], done.stdout[-2000:], done.stderr[-2000:])
        reports.append(json.loads(done.stdout))
        _assert_caught(reports[-1], root, mistake)
        git(root, "checkout", "-q", "--", ".")

    async def over_mcp() -> None:
        async with Client(stdio_parameters(root, forge_executable(), "serve")) as client:
            for mistake in mistakes:
                _, edited, old, new, listed, *_ = mistake
                _apply(root, edited, old, new)
                arguments = {"moduleId": "m", "files": [listed], "baseRef": "main"}
                _assert_caught(await call(client, "validate", arguments), root, mistake)
                git(root, "checkout", "-q", "--", ".")

    import anyio

    anyio.run(over_mcp)


def test_requests_each_mistake_is_caught_through_the_cli_and_mcp(requests_repo: Path) -> None:
    _check_all_through_cli_and_mcp(requests_repo, REQUESTS_MISTAKES)


def test_rich_each_mistake_is_caught_by_its_own_mypy(rich_repo: Path) -> None:
    """rich's mistakes at once (each in its own file: mypy runs once per route)."""
    for _, edited, old, new, *_ in RICH_MISTAKES:
        _apply(rich_repo, edited, old, new)
    listed = list(dict.fromkeys(mistake[4] for mistake in RICH_MISTAKES))
    try:
        done = run_forge_in(rich_repo, "validate", "--files", *listed, "--base", "main", "--json")
        assert done.returncode == 1, (done.stdout[-2000:], done.stderr[-2000:])
        assert _type_result(json.loads(done.stdout))["checker"].startswith("mypy ")
        for mistake in RICH_MISTAKES:
            _assert_caught(json.loads(done.stdout), rich_repo, mistake)

        async def over_mcp() -> None:
            async with Client(stdio_parameters(rich_repo, forge_executable(), "serve")) as client:
                arguments = {"moduleId": "m", "files": listed, "baseRef": "main"}
                report = await call(client, "validate", arguments)
                for mistake in RICH_MISTAKES:
                    _assert_caught(report, rich_repo, mistake)

        import anyio

        anyio.run(over_mcp)
    finally:
        git(rich_repo, "checkout", "-q", "--", ".")


@pytest.mark.parametrize("harmless", REQUESTS_HARMLESS, ids=[h[0] for h in REQUESTS_HARMLESS])
def test_requests_harmless_edits_pass(requests_repo: Path, harmless: Harmless) -> None:
    _, edits, listed = harmless
    for name, old, new in edits:
        _apply(requests_repo, name, old, new)
    try:
        done = run_forge_in(
            requests_repo, "validate", "--files", *listed, "--base", "main", "--json"
        )
        result = _type_result(json.loads(done.stdout))
        assert result["newCount"] == 0, result["locations"]
        assert done.returncode == 0, done.stdout[-2000:]
    finally:
        git(requests_repo, "checkout", "-q", "--", ".")


@pytest.mark.parametrize("package", ["requests", "rich"])
def test_unmodified_against_itself_nothing_counts(
    package: str, request: pytest.FixtureRequest
) -> None:
    root: Path = request.getfixturevalue(f"{package}_repo")
    source = root / ("src/requests" if package == "requests" else "rich")
    files = sorted(str(p.relative_to(root)) for p in source.rglob("*.py"))
    done = run_forge_in(root, "validate", "--files", *files, "--base", "main", "--json")
    result = _type_result(json.loads(done.stdout))
    assert result["newCount"] == 0, result["locations"][:5]
    assert not result.get("skipped"), result["message"]
    assert re.match(r"(mypy|pyrefly) \d", result["checker"])
