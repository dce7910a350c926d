"""Which files hold tests, and which configure a test runner: by name alone, cheaply.

Asked of every file an agent edits (``forge hook``), so it imports nothing of
the test-run machinery: what a test file's change means is
:mod:`forge.test_runs.switched_off`'s and :mod:`forge.test_runs.spec_config`'s.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePath

#: Languages by file suffix.
LANGUAGES = {
    ".py": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".jsx": "javascript", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".tsx": "tsx", ".go": "go", ".rs": "rust",
}  # fmt: skip

_TEST_DIRS = frozenset({"test", "tests", "__tests__", "spec", "testing"})
_TEST_NAMES = re.compile(
    r"^(?:test_.*\.py|.*_test\.py|conftest\.py|.*\.(?:test|spec)\.[cm]?[jt]sx?|.*_test\.go)$"
)
#: The configuration files of the JavaScript runners that choose which tests run.
JS_CONFIG = re.compile(
    r"^(\.mocharc(\.(json|jsonc|ya?ml|c?js))?|(jest|vitest|vite)\.config\.[cm]?[jt]s|"
    r"(jest|vitest|vite)\.config\.json)$"
)
#: The configuration files pytest reads.
PY_CONFIG = frozenset({"pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"})


def is_test_file(path: str, text: str) -> bool:
    """Whether ``path`` holds tests: by the runners' naming rules, or a Rust test module."""
    pure = PurePath(path)
    if _TEST_NAMES.match(pure.name) or _TEST_DIRS & set(pure.parts[:-1]):
        return pure.suffix.lower() in LANGUAGES
    return pure.suffix == ".rs" and ("#[test]" in text or "#[cfg(test)]" in text)


def names_tests(path: str) -> bool:
    """Whether ``path`` (a literal in code) names a test file or a folder of tests."""
    return is_test_file(path, "") or PurePath(path).name in _TEST_DIRS


def may_change_spec(path: str) -> bool:
    """Whether the file ``path`` can hold tests or a runner's configuration."""
    name = posixpath.basename(path)
    return (
        is_test_file(path, "")
        or name in PY_CONFIG
        or name in {"package.json", "Makefile"}
        or JS_CONFIG.match(name) is not None
    )
