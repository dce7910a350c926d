"""A test runner's configuration at the base against now: does the change make less run?

- pytest's settings (``pytest.ini``, ``[tool.pytest.ini_options]``,
  ``[tool:pytest]``, tox's ``[pytest]``): ``addopts`` gaining ``-k``, ``-m``,
  ``--deselect``, ``--ignore``, ``--co``, or a plugin to load (``-p name``);
  ``testpaths`` losing a path;
  ``python_files``/``_classes``/``_functions`` changed; ``norecursedirs`` gaining one.
- A script or recipe a verify command runs (``package.json``'s ``test``, a
  Makefile target): a filter or ``|| true`` added, or a spec file it no longer runs.
- mocha's ``.mocharc`` (``grep``, ``fgrep``, ``invert``, ``ignore``, ``spec``,
  setup files), jest and vitest configs (lines naming what runs or sets up).
"""

from __future__ import annotations

import configparser
import json
import posixpath
import re
import shlex
import sys
from collections.abc import Callable

from forge.test_runs.spec_findings import SpecFinding

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

_SECTIONS = {"pytest.ini": "pytest", "tox.ini": "pytest", "setup.cfg": "tool:pytest"}
#: addopts options that run fewer tests.
_NARROWING = re.compile(
    r"^(-k|-m|--deselect|--ignore|--ignore-glob|--co|--collect-only|--lf|--last-failed|"
    r"--grep|-g|--fgrep|--invert|-i|--testNamePattern|-t|--testPathIgnorePatterns|"
    r"--test-name-pattern|--test-skip-pattern|--exclude|--passWithNoTests|--bail|"
    r"--forbid-only=false)(=.*)?$|^-k\S|^-m\S"
)
#: addopts options that load a plugin (``-p name``; ``-p no:name`` only switches one off).
_PLUGIN = re.compile(r"^-p=?(?!no:)[^\s=-]\S*$")
#: addopts options whose value is the next word.
_WITH_VALUE = frozenset({"-k", "-m", "--deselect", "--ignore", "--ignore-glob", "-p"})
#: What turns a failing command into a passing one.
_FORGIVING = re.compile(r"\|\|\s*(true|:|exit\s+0)\b|;\s*(true|exit\s+0)\s*$")
_MOCHA_KEYS = ("grep", "fgrep", "invert", "ignore", "exclude", "spec", "require", "file")
_JS_CONFIG_KEYS = re.compile(
    r"\b(testMatch|testRegex|testPathIgnorePatterns|modulePathIgnorePatterns|roots|"
    r"include|exclude|setupFiles|setupFilesAfterEach|setupFilesAfterEnv|globalSetup|"
    r"testNamePattern|passWithNoTests|bail|dir)\b"
)


def pytest_settings(name: str, text: str) -> dict[str, str] | None:
    """pytest's settings in a config file named ``name``; None when it has no pytest section."""
    if name == "pyproject.toml":
        try:
            table = tomllib.loads(text).get("tool", {}).get("pytest", {}).get("ini_options")
        except (tomllib.TOMLDecodeError, AttributeError):
            return None
        if not isinstance(table, dict):
            return None
        return {
            key: " ".join(map(str, value)) if isinstance(value, list) else str(value)
            for key, value in table.items()
        }
    section = _SECTIONS.get(name)
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if section is None or not parser.has_section(section):
        return None
    return {key: " ".join(value.split()) for key, value in parser.items(section)}


def pytest_config_changes(path: str, old: str | None, new: str | None) -> list[SpecFinding]:
    """What a pytest config file's change does to the run."""
    name = posixpath.basename(path)
    before = pytest_settings(name, old) if old is not None else None
    after = pytest_settings(name, new) if new is not None else None
    if after is None:
        return []
    before = before or {}
    found: list[str] = []
    added = _words(after.get("addopts", "")) - _words(before.get("addopts", ""))
    found += [f"addopts gained {word}" for word in sorted(added) if _NARROWING.match(word)]
    plugins = sorted(word for word in added if _PLUGIN.match(word))
    lost = set(before.get("testpaths", "").split()) - set(after.get("testpaths", "").split())
    if lost and "testpaths" in after:
        found.append(f"testpaths lost {', '.join(sorted(lost))}")
    for key in ("python_files", "python_classes", "python_functions"):
        if before.get(key, "") != after.get(key, ""):
            found.append(f"{key} changed to {after.get(key, '(default)')!r}")
    extra = set(after.get("norecursedirs", "").split()) - set(
        before.get("norecursedirs", "").split()
    )
    if extra:
        found.append(f"norecursedirs gained {', '.join(sorted(extra))}")
    loads = [
        f"{path}: addopts gained {word}: it loads a plugin that decides how tests run"
        for word in plugins
    ]
    return [
        SpecFinding("runner_config", path, "", message, 1, 1)
        for message in [*(f"{path}: {what}: fewer tests run" for what in found), *loads]
    ]


def _words(text: str) -> set[str]:
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    # "-k expr" and "--deselect id" are one option each: keep the value with its flag.
    joined: set[str] = set()
    for index, word in enumerate(words):
        if word in _WITH_VALUE and index + 1 < len(words):
            joined.add(f"{word}={words[index + 1]}")
        elif index and words[index - 1] in _WITH_VALUE:
            continue
        else:
            joined.add(word)
    return joined


def script_changes(
    key: str, old: str, new: str | None, tests_of: Callable[[str], set[str]]
) -> list[SpecFinding]:
    """What a changed script (``package.json#test``, ``Makefile#test``) does to the run.

    ``tests_of`` gives the spec files a script's text would run, against the base's files.
    """
    path, _, name = key.partition("#")
    if new == old:
        return []
    if new is None:
        return [SpecFinding("runner_config", path, "", f"{path}: {name} removed", 1, 1)]
    found: list[str] = []
    added = _words(new) - _words(old)
    found += [f"{name} gained {word}" for word in sorted(added) if _NARROWING.match(word)]
    forgiving = _FORGIVING.search(new)
    if forgiving and not _FORGIVING.search(old):
        found.append(f"{name} now passes whatever the tests do ({forgiving[0]!r})")
    missing = tests_of(old) - tests_of(new)
    if missing:
        shown = ", ".join(sorted(missing)[:3]) + (" ..." if len(missing) > 3 else "")
        found.append(f"{name} no longer runs {len(missing)} spec file(s): {shown}")
    return [SpecFinding("runner_config", path, "", f"{path}: {what}", 1, 1) for what in found]


def package_script(text: str | None, name: str) -> str | None:
    """The script ``name`` of a ``package.json`` text."""
    if text is None:
        return None
    try:
        scripts = json.loads(text).get("scripts") or {}
    except (ValueError, AttributeError):
        return None
    script = scripts.get(name) if isinstance(scripts, dict) else None
    return script if isinstance(script, str) else None


def js_config_changes(path: str, old: str | None, new: str | None) -> list[SpecFinding]:
    """What a mocha, jest or vitest config's change does to the run (keys that decide it)."""
    if new is None:
        return []
    name = posixpath.basename(path)
    if name.startswith(".mocharc") and name.endswith(("json", "jsonc", ".mocharc")):
        try:
            before = json.loads(old) if old else {}
            after = json.loads(new)
        except ValueError:
            before, after = None, None
        if isinstance(before, dict) and isinstance(after, dict):
            return [
                SpecFinding(
                    "runner_config", path, "", f"{path}: {key} set to {after.get(key)!r}", 1, 1
                )
                for key in _MOCHA_KEYS
                if after.get(key) != before.get(key) and key in after
            ]
    old_lines = set((old or "").splitlines())
    found = []
    for number, line in enumerate(new.splitlines(), start=1):
        if line in old_lines:
            continue
        match = _JS_CONFIG_KEYS.search(line) or re.search(
            r"\b(grep|fgrep|invert|ignore|spec|require|file)\b", line
        )
        if match:
            message = f"{path}: {match[1]} changed: `{line.strip()[:80]}`"
            found.append(SpecFinding("runner_config", path, "", message, number, 1))
    return found


#: pytest's default ``python_files``.
PY_TESTS = ("test_*.py", "*_test.py")


def pytest_ini(cwd: str, read: Callable[[str], str | None]) -> dict[str, str]:
    """The pytest settings of the first config file in ``cwd`` that has them."""
    for name in ("pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"):
        text = read(posixpath.join(cwd, name))
        settings = pytest_settings(name, text) if text is not None else None
        if settings is not None:
            return settings
    return {}


def testpaths(cwd: str, read: Callable[[str], str | None]) -> list[str]:
    """``testpaths`` of the pytest configuration in ``cwd``."""
    return pytest_ini(cwd, read).get("testpaths", "").split()


def python_files(cwd: str, read: Callable[[str], str | None]) -> tuple[str, ...]:
    """``python_files`` of the pytest configuration in ``cwd`` (default test_*.py, *_test.py)."""
    return tuple(pytest_ini(cwd, read).get("python_files", "").split()) or PY_TESTS


def mocha_spec(cwd: str, read: Callable[[str], str | None]) -> list[str]:
    """The ``spec`` of a JSON ``.mocharc`` in ``cwd`` (YAML and JS configs: not read)."""
    for name in (".mocharc.json", ".mocharc.jsonc", ".mocharc"):
        text = read(posixpath.join(cwd, name))
        if text is None:
            continue
        try:
            spec = json.loads(text).get("spec")
        except (ValueError, AttributeError):
            return []
        spec = [spec] if isinstance(spec, str) else spec
        return [posixpath.join(cwd, s) for s in spec if isinstance(s, str)] if spec else []
    return []
