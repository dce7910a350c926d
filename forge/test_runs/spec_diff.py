"""The change to a module's spec tests, judged against the base: :func:`judge_spec`.

The spec is what :func:`~forge.test_runs.spec_scope.spec_scope` finds the
module's commands run at the base. Only files the change touched are read
now; the base is read through :class:`Sources` (git objects). What is
reported, each a :class:`~forge.test_runs.spec_findings.SpecFinding`:

- a spec test removed (not moved, renamed or parametrized with its body),
  switched off (:func:`forge.test_runs.spec_switched_off.spec_switched_off`), its assertions
  removed, weakened or swallowed (:mod:`.spec_python_diff`, :mod:`.spec_js`);
- a test file that now patches a name the module's own files define;
- the runner told to run less (:mod:`.spec_config`, ``conftest.py`` hooks);
- a data file the spec tests name (``open("tests/data/out.txt")``), or one in
  a fixtures folder beside them, changed.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from forge.test_runs.file_kinds import JS_CONFIG, PY_CONFIG, is_test_file
from forge.test_runs.spec_config import (
    js_config_changes,
    package_script,
    pytest_config_changes,
    script_changes,
)
from forge.test_runs.spec_conftest import conftest_changes
from forge.test_runs.spec_findings import SpecFinding
from forge.test_runs.spec_js_diff import compare_js
from forge.test_runs.spec_js_mocks import js_mocks
from forge.test_runs.spec_python import PyFile, parse_python
from forge.test_runs.spec_python_diff import compare_tests, imported_names, owned, patched_names
from forge.test_runs.spec_scope import Scope, make_recipe, runs_of, spec_scope, tests_of
from forge.test_runs.spec_switched_off import spec_switched_off
from forge.test_runs.switched_off import python_tree

#: Folders whose files are what tests compare against.
DATA_FOLDERS = frozenset(
    {"fixtures", "__snapshots__", "snapshots", "expected", "golden", "testdata", "data"}
)
_JS = re.compile(r"\.[cm]?[jt]sx?$")
#: A quoted path: with a folder or an extension (``"tests/data/out.txt"``, ``"out.json"``).
_LITERAL = re.compile(r"""["'`]((?:[\w.-]+/)*[\w-][\w.-]*(?:/|\.\w+))["'`]""")


@dataclass
class Sources:
    """The files of the base and of the change, repository-relative."""

    #: Every file at the base.
    base_files: list[str]
    #: Files the change touched (added, modified, deleted).
    changed: set[str]
    #: The texts of files at the base (None: absent), read in one go.
    read_base_many: Callable[[list[str]], dict[str, str | None]]
    #: A file's text now (None: absent).
    read_now: Callable[[str], str | None]
    _base: dict[str, str | None] = field(default_factory=dict)

    def base(self, path: str) -> str | None:
        """``path``'s text at the base."""
        if path not in self._base:
            self._base.update(self.read_base_many([path]))
        return self._base.get(path)

    def preload(self, paths: Iterable[str]) -> None:
        """Read these base texts in one go."""
        wanted = [path for path in dict.fromkeys(paths) if path not in self._base]
        if wanted:
            self._base.update(self.read_base_many(wanted))


@dataclass
class SpecReport:
    """The spec and what the change did to it."""

    scope: Scope
    findings: list[SpecFinding]


def judge_spec(
    commands: Iterable[str],
    cwd: str,
    own_files: Iterable[str],
    sources: Sources,
    *,
    leave_switched_off: set[str] = frozenset(),  # type: ignore[assignment]
    only: set[str] | None = None,
) -> SpecReport:
    """What the change did to the spec of ``commands`` run in ``cwd``.

    :param own_files: the module's own files (the code under test), repository-relative.
    :param leave_switched_off: spec files whose switched-off tests another check reports.
    :param only: judge these changed files alone (an edit), not every changed file.
    """
    scope = spec_scope(commands, cwd, sources.base_files, sources.base)
    changed = sources.changed if only is None else sources.changed & only
    # Every changed test file is where a test may have moved to; the judged ones are ``only``'s.
    touched_tests = sorted(
        path for path in sources.changed if path in scope.tests or is_test_file(path, "")
    )
    sources.preload(touched_tests)
    now = {path: sources.read_now(path) for path in touched_tests}
    pool = {
        path: parsed
        for path, text in now.items()
        if path.endswith(".py") and (parsed := parse_python(text)) is not None
    }
    findings: list[SpecFinding] = []
    spec_touched = [path for path in touched_tests if path in scope.tests]
    for path in touched_tests:
        if path in scope.tests and path in changed:
            findings += _spec_file(path, sources.base(path), now[path], pool, sources, scope)
        if path in changed and path not in leave_switched_off and now[path] is not None:
            # A spec test moved to a file outside the spec is judged where it went.
            findings += _switched_off(path, now[path] or "", sources, spec_touched)
    findings += _mocks([p for p in touched_tests if p in changed], now, own_files, sources, scope)
    findings += _config(changed, scope, sources)
    if only is None:
        findings += _data(sources, scope)
    return SpecReport(scope, findings)


def _spec_file(
    path: str,
    old: str | None,
    new: str | None,
    pool: dict[str, PyFile],
    sources: Sources,
    scope: Scope,
) -> list[SpecFinding]:
    if path.endswith(".py"):
        before = parse_python(old)
        if before is None:
            return []
        return compare_tests(path, before, pool.get(path), pool)
    if _JS.search(path):
        others = {p: sources.read_now(p) for p in sources.changed if _JS.search(p) and p != path}
        return compare_js(path, old, new, others)
    return []


def _switched_off(
    path: str, new: str, sources: Sources, spec_files: list[str]
) -> list[SpecFinding]:
    spec_here = path in spec_files
    if not spec_here and not spec_files:
        return []

    def elsewhere() -> dict[str, str | None]:
        return {p: sources.base(p) for p in spec_files if p != path}

    switched = spec_switched_off(path, sources.base(path), new, elsewhere, spec_here=spec_here)
    return [
        SpecFinding(
            "turned_off",
            path,
            found.test.replace(".", "::"),
            found.message,
            found.line,
            found.column,
        )
        for found in switched
        if found.kind != "no_assertion"  # judged assertion by assertion instead
    ]


def module_names(own_files: Iterable[str]) -> dict[str, set[str]]:
    """Dotted names of the module's Python files, each with the files it stands for.

    ``src/calc.py`` is ``src.calc`` and ``calc``; ``pkg/more.py`` is also its
    package ``pkg``, which usually re-exports it (``pkg.first`` is ``pkg.more.first``).
    """
    names: dict[str, set[str]] = {}
    for path in own_files:
        if not path.endswith(".py"):
            continue
        parts = path[: -len(".py")].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        for end in range(len(parts), 0, -1):
            for start in range(end):
                names.setdefault(".".join(parts[start:end]), set()).add(path)
    return names


def _mocks(
    tests: list[str],
    now: dict[str, str | None],
    own_files: Iterable[str],
    sources: Sources,
    scope: Scope,
) -> list[SpecFinding]:
    own_list = list(own_files)
    modules = module_names(own_list)
    py_tests = [path for path in tests if path.endswith(".py") and now.get(path)]
    js_tests = [path for path in tests if _JS.search(path) and now.get(path)]
    findings: list[SpecFinding] = []
    if modules and py_tests:
        files = {path for paths in modules.values() for path in paths}
        defined = {path: _defined(sources.read_now(path)) for path in files}
        own = {name: set().union(*(defined[p] for p in paths)) for name, paths in modules.items()}
        own.update(_rebound(scope, now, sources, own))
        for path in py_tests:
            findings += _fresh_patches(path, sources.base(path), now[path] or "", own)
    if js_tests and any(_JS.search(path) for path in own_list):
        for path in js_tests:
            findings += js_mocks(path, sources.base(path), now[path] or "", own_list, sources)
    return findings


def _rebound(
    scope: Scope, now: dict[str, str | None], sources: Sources, own: dict[str, set[str]]
) -> dict[str, set[str]]:
    """The names each spec test module binds to the module's own code, by the test module's
    dotted names: ``from src.calc import mul`` in ``tests/test_calc.py`` makes
    ``tests.test_calc.mul`` the module's ``mul``, and patching it patches the code under test."""
    spec = sorted(path for path in scope.tests if path.endswith(".py"))
    sources.preload(path for path in spec if path not in now)
    found: dict[str, set[str]] = {}
    for path in spec:
        tree = python_tree((now[path] if path in now else sources.base(path)) or "")
        if tree is None:
            continue
        names = {name for name, target in imported_names(tree).items() if owned(target, own)}
        if names:
            for dotted_name in module_names([path]):
                found.setdefault(dotted_name, set()).update(names)
    return found


def _defined(text: str | None) -> set[str]:
    try:
        tree = ast.parse(text or "")
    except (SyntaxError, ValueError, RecursionError):
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _fresh_patches(
    path: str, old: str | None, new: str, own: dict[str, set[str]]
) -> list[SpecFinding]:
    old_tree, new_tree = python_tree(old or ""), python_tree(new)
    if new_tree is None:
        return []
    # Only what the change touched can newly patch: statements compared by their lines.
    old_parts, new_parts = _parts(old or "", old_tree), _parts(new, new_tree)

    def patches(
        tree: ast.Module | None, other: set[str], text: str
    ) -> list[tuple[int, int, str, str]]:
        if tree is None:
            return []
        lines = text.splitlines()
        return patched_names(tree, own, lambda node: _lines(lines, node) not in other)

    before = Counter(target for *_, target in patches(old_tree, new_parts, old or ""))
    found = []
    for line, column, test, target in patches(new_tree, old_parts, new):
        if before[target]:
            before[target] -= 1
            continue
        where = f"{test}: " if test else ""
        message = f"{where}patches {target}, the module's own code: the test no longer tests it"
        found.append(SpecFinding("mocked", path, test, message, line, column))
    return found


def _lines(lines: list[str], node: ast.AST) -> str:
    start = getattr(node, "lineno", 1)
    decorators = getattr(node, "decorator_list", [])
    if decorators:
        start = min(start, *(d.lineno for d in decorators))
    return "\n".join(line.strip() for line in lines[start - 1 : getattr(node, "end_lineno", start)])


def _parts(text: str, tree: ast.Module | None) -> set[str]:
    """The text of each top-level statement and class member of ``tree``."""
    if tree is None:
        return set()
    lines = text.splitlines()
    found: set[str] = set()
    for top in tree.body:
        members = top.body if isinstance(top, ast.ClassDef) else []
        found.update(_lines(lines, node) for node in [top, *members])
    return found


def _config(changed: set[str], scope: Scope, sources: Sources) -> list[SpecFinding]:
    roots = scope.roots
    test_dirs = {posixpath.dirname(path) for path in scope.tests}
    findings: list[SpecFinding] = []
    runners = {run.runner for run in scope.runs}
    for path in sorted(changed):
        folder, name = posixpath.split(path)
        if name == "conftest.py" and runners & {"pytest", "tests"} and _above(folder, test_dirs):
            new = sources.read_now(path)
            if new is not None:
                findings += conftest_changes(path, sources.base(path), new)
        elif name in PY_CONFIG and "pytest" in runners and _above(folder, roots):
            findings += pytest_config_changes(path, sources.base(path), sources.read_now(path))
        elif JS_CONFIG.match(name) and folder in roots:
            findings += js_config_changes(path, sources.base(path), sources.read_now(path))
    for key, old in scope.scripts.items():
        path, _, name = key.partition("#")
        if path not in changed:
            continue
        new = _script_now(path, name, sources)

        def tests(text: str, where: str = posixpath.dirname(path)) -> set[str]:
            found: set[str] = set()
            for run in runs_of(text, where, sources.base, {}):
                found |= tests_of(run, sources.base_files, sources.base)
            return found

        findings += script_changes(key, old, new, tests)
    return findings


def _script_now(path: str, name: str, sources: Sources) -> str | None:

    text = sources.read_now(path)
    if text is None:
        return None
    return package_script(text, name) if path.endswith(".json") else make_recipe(text, name)


def _above(folder: str, folders: Iterable[str]) -> bool:
    """Whether ``folder`` is one of ``folders`` or holds one."""
    return any(not folder or f == folder or f.startswith(folder + "/") for f in folders)


def _data(sources: Sources, scope: Scope) -> list[SpecFinding]:
    """Data files the spec tests read, or fixtures beside them, that the change modified."""
    base = set(sources.base_files)
    tops = {path.split("/")[0] for path in scope.tests}
    data = sorted(
        path
        for path in sources.changed
        if path in base
        and path not in scope.tests
        and not is_test_file(path, "")
        and not path.endswith((".py", "package.json", "Makefile"))
        and path.split("/")[0] in tops
    )
    if not data:
        return []
    sources.preload(scope.tests)
    findings: list[SpecFinding] = []
    named: set[str] = set()
    for spec in sorted(scope.tests):
        text = sources.base(spec) or ""
        folder = posixpath.dirname(spec)
        for number, line in enumerate(text.splitlines(), start=1):
            for literal in _LITERAL.findall(line):
                for root in {folder, *scope.roots}:
                    target = posixpath.normpath(posixpath.join(root, literal))
                    for path in data:
                        if path == target or path.startswith(target + "/"):
                            named.add(path)
                            message = f"{spec} reads {path}, which the change modified"
                            findings.append(
                                SpecFinding("data_changed", spec, "", message, number, 1)
                            )
    for path in data:
        if path not in named and DATA_FOLDERS & set(path.split("/")[:-1]):
            message = f"{path}: expected data beside the spec tests modified"
            findings.append(SpecFinding("data_changed", path, "", message, 1, 1))
    return findings
