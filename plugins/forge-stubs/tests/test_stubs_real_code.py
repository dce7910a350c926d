"""stub_check over real, unmodified code: forge's own tree, and (slow, needs the network) the
released sources of click, httpx, requests, attrs, flask, jinja2, starlette, pluggy, packaging,
httpcore, urllib3, fastapi, typer, express, got, zod, ky, axios, yargs, lodash-es, @trpc/server and hono.

Every finding that remains on those packages is listed here with the reason it is defended:
the comment, test or body really is a placeholder. A new finding on them is a precision
regression.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path, PurePath

import pytest
from forge_stubs.models import StubResult
from forge_stubs.plugin import forge_run_checks
from forge_testing import published_sources_of

from forge.config import ForgeConfig
from forge.languages import LanguageRegistry, ParseCache
from forge.models import ValidateRequest
from forge.plugin_host.host import build_plugin_host
from forge.workspace import Workspace

REPO = Path(__file__).resolve().parents[3]

#: Every extension forge's built-in languages read.
EXTENSIONS = frozenset({".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"})

#: Pinned, so that the defended findings below stay exact.
PYPI = (
    "click==8.5.1",
    "httpx==0.28.1",
    "requests==2.34.2",
    "attrs==26.1.0",
    "flask==3.1.3",
    "jinja2==3.1.6",
    "starlette==1.10.0",
    "pluggy==1.7.0",
    "packaging==26.3",
    "httpcore==1.0.9",
    "urllib3==2.8.0",
    # Both hold modules without code on purpose: fastapi's tests whose comments say why
    # ("Optional Path parameters are not supported"), typer's tests/assets/cli/empty_script.py.
    "fastapi==0.165.0",
    "typer==0.29.2",
)
NPM = (
    "express@5.3.0",
    "got@14.6.6",
    "zod@4.6.7",
    "ky@1.14.3",
    "axios@1.21.1",
    "yargs@18.2.0",
    "lodash-es@4.18.1",
    "@trpc/server@11.25.2",
    "hono@4.13.19",
)

#: (file as packaged, function, kind) of each finding that stays, and why it is right.
DEFENDED = {
    # "# TODO: implement auth-int": the qop=auth-int branch really is missing.
    ("httpx/_auth.py", "DigestAuth._build_auth_header", "todo_comment"),
    # "# XXX not implemented yet": same, in requests' digest auth.
    ("src/requests/auth.py", "HTTPDigestAuth.build_digest_header", "todo_comment"),
    # test("", () => {}) and test("masking test", () => {}): empty tests that keep a
    # file of commented-out tests runnable; they pass while testing nothing.
    ("src/v3/tests/language-server.test.ts", "<anonymous>", "empty_body"),
    ("src/v3/tests/masking.test.ts", "<anonymous>", "empty_body"),
    # A bare "// TODO" above a test whose body builds data and asserts nothing.
    ("src/v4/classic/tests/lazy.test.ts", None, "todo_comment"),
    # "// TODO: Implement type narrowing for superRefine": asks for an implementation.
    ("src/v4/classic/tests/refine.test.ts", "<anonymous>", "todo_comment"),
    # attrs: a test whose body is only its docstring ("Using the hash argument is deprecated.").
    ("tests/test_functional.py", "TestFunctional.test_hash_deprecated", "docstring_only"),
    # packaging: seven tests whose body is `pass` under a comment that says there is nothing
    # to test ("no testable properties"): they pass while testing nothing.
    *(
        ("tests/property/test_version_format.py", f"{name}.test_no_properties", "pass")
        for name in (
            "TestPublicVersionUniqueness",
            "TestVersionRegexReference",
            "TestVersioningPracticesNote",
            "TestLocalVersionPurpose",
            "TestUpstreamDownstreamDefinition",
            "TestLocalVersionPublishingGuidance",
            "TestSourceDistributionMetadata",
        )
    ),
    # httpcore: TLSinTLSStream.start_tls is a bare `raise NotImplementedError()`, as its base
    # NetworkStream.start_tls (another file) declares: TLS over a TLS-in-TLS stream really is not
    # implemented, and Python reserves the error for members not written yet (its docs: to say
    # "unsupported", leave the method out or set it to None). A worker's scaffold reads the same.
    ("httpcore/_backends/sync.py", "TLSinTLSStream.start_tls", "not_implemented"),
}


@cache
def _languages() -> LanguageRegistry:
    return LanguageRegistry.from_plugins(build_plugin_host())


def scan(root: Path) -> set[tuple[str, str | None, str]]:
    """(path relative to ``root``, function, kind) of every placeholder under ``root``.

    As ``forge validate --files`` of every source file does, through the plugin's
    hook: the classes any file extends or assigns over another are known to all,
    bases in other files are followed through imports, build output is not checked.
    """
    files = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in EXTENSIONS or not path.is_file():
            continue
        relative = PurePath(path.relative_to(root).as_posix())
        if not {"node_modules", ".venv"} & set(relative.parts):
            files.append(relative.as_posix())
    workspace = Workspace(
        root, config=ForgeConfig(), languages=_languages(), parse_cache=ParseCache()
    )
    request = ValidateRequest(module_id="real-code", files=files)
    found = set()
    for result in forge_run_checks(request=request, workspace=workspace):
        assert isinstance(result, StubResult), result
        assert result.finding_count == len(result.findings), result.target
        found |= {(result.target, f.function, f.kind) for f in result.findings}
    return found


def test_forge_own_tree_has_no_placeholder() -> None:
    # forge/hookspecs.py's docstring-only hookspecs were the reported false positive.
    for folder in ("forge", "plugins/forge-stubs/forge_stubs", "benchmarks", "examples"):
        assert scan(REPO / folder) == set(), folder


def _download() -> list[Path]:
    """Each package's unpacked sources; skips the test when a download fails."""
    return published_sources_of([("pypi", spec) for spec in PYPI] + [("npm", spec) for spec in NPM])


@pytest.mark.slow
def test_popular_packages_give_only_defended_findings() -> None:
    found = set()
    roots = _download()
    assert len(roots) == len(PYPI) + len(NPM)
    for root in roots:
        found |= scan(root)
    assert found == DEFENDED
