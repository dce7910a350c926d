"""The real packages the contract tests download and judge, and the findings on them that are right."""

from __future__ import annotations

#: Pinned (the releases of the day they were last read), so that a new release cannot
#: fail a run nobody changed; most are the releases forge-stubs' real-code test reads,
#: downloaded once for both.
NPM_PACKAGES = [
    *("express@5.3.0", "got@16.1.0", "zod@4.6.7", "ky@2.1.0", "axios@1.21.1", "yargs@18.2.0"),
    *("lodash-es@4.18.1", "@trpc/server@11.25.2"),
    # immer: a tree-sitter gap in a file of an export * chain (contracts.md)
    "immer@11.2.10",
]
PYPI_PACKAGES = [
    *("click==8.5.1", "httpx==0.28.1", "requests==2.34.2", "attrs==26.1.0", "jinja2==3.1.6"),
    *("starlette==1.10.0", "pluggy==1.7.0", "packaging==26.4"),
    "flask==3.1.3",
    # Names a function declares global (pyyaml's legacy tests), a Cython module built from
    # another source root (yaml/_yaml.pyx into lib/yaml); toolz's tlz filled through
    # sys.modules and served by an import hook, toolz.__test__ set by the test that reads it.
    "pyyaml==6.0.4",
    "toolz==1.2.0",
]

#: Contract failures that are right, by package: the code really is broken there.
DEFENDED = {
    # A test fixture of flask's that still imports flask.Module, removed in Flask 1.0;
    # the tests only use its folder as a path, never import it.
    "flask==3.1.3": [
        "src/flask/__init__.py -> tests/test_apps/subdomaintestmodule/__init__.py: "
        "1 name imported from src/flask/__init__.py is not exported: Module"
    ],
}
SOURCES = {".py", ".pyi", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx"}
