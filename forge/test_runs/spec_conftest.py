"""A ``conftest.py`` at the base against its text now: does it take a say in the run?

A conftest's hooks decide which tests are collected, whether a test's function
runs at all (``pytest_pyfunc_call``), whether it is skipped on the way
(``pytest_runtest_setup``) and how its outcome is reported. So every hook
implementation a change adds or changes is judged, whatever its name (a
``@pytest.hookimpl(specname=...)`` function too), except the few that only add
options, headers, ids or assertion messages (:data:`HARMLESS_HOOKS`), and a
``pytest_configure`` that only registers markers. Plugins it loads
(``pytest_plugins``), ``collect_ignore`` lists and an ``os._exit`` are judged too.
Fixtures are not hooks: a conftest may gain as many as the tests need.
"""

from __future__ import annotations

import ast

from forge.test_runs.py_assertions import dotted
from forge.test_runs.spec_findings import SpecFinding

#: Hooks that decide what is collected and reported: "it decides which tests run".
COLLECTION_HOOKS = frozenset(
    {
        "pytest_collection_modifyitems",
        "pytest_ignore_collect",
        "pytest_collect_file",
        "pytest_pycollect_makeitem",
        "pytest_collection",
        "pytest_deselected",
        "pytest_runtestloop",
        "pytest_report_teststatus",
        "pytest_sessionfinish",
    }
)
#: Hooks with no say in which tests run or how they end.
HARMLESS_HOOKS = frozenset(
    {
        "pytest_addoption",
        "pytest_report_header",
        "pytest_make_parametrize_id",
        "pytest_assertrepr_compare",
    }
)


def conftest_changes(path: str, old: str | None, new: str) -> list[SpecFinding]:
    """What a changed ``conftest.py`` now does to the run: each hook, plugin or ignore it gained."""
    try:
        tree = ast.parse(new)
        before = ast.parse(old) if old is not None else ast.Module(body=[], type_ignores=[])
    except (SyntaxError, ValueError, RecursionError):
        return []
    was = _run_parts(before)
    findings = []
    for key, (line, text) in _run_parts(tree).items():
        if was.get(key, (0, None))[1] == text:
            continue
        what = "added" if key not in was else "changed"
        if key.startswith("os._exit"):
            message = f"{path}: {key} added: the run can end before its summary"
        elif key in COLLECTION_HOOKS or key.startswith("collect_ignore"):
            message = f"{path}: {key} {what}: it decides which tests run"
        elif key == "pytest_plugins":
            message = f"{path}: {key} {what}: it loads plugins that decide how tests run"
        else:
            message = f"{path}: {key} {what}: it decides how tests run or end"
        findings.append(SpecFinding("runner_config", path, "", message, line, 1))
    return findings


def _run_parts(tree: ast.Module) -> dict[str, tuple[int, str]]:
    """The parts of a conftest with a say in the run, by name: (line, text)."""
    parts: dict[str, tuple[int, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            hook = _hook_name(node)
            if hook is not None and not _harmless(hook, node):
                parts[hook] = (node.lineno, ast.unparse(node))
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                # A hook bound by assignment (pytest_pyfunc_call = skip_all) is a hook too.
                if isinstance(target, ast.Name) and target.id.startswith(
                    ("collect_ignore", "pytest_")
                ):
                    parts[target.id] = (node.lineno, ast.unparse(node))
    exits = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and dotted(n) == "os._exit"]
    for index, call in enumerate(exits):
        parts[f"os._exit #{index + 1}" if index else "os._exit()"] = (call.lineno, "exit")
    return parts


def _hook_name(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The pytest hook ``node`` implements (its ``specname``, else its name), if it is one."""
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        if dotted(call.func if call else decorator).endswith("hookimpl"):
            for keyword in call.keywords if call else []:
                if keyword.arg == "specname" and isinstance(keyword.value, ast.Constant):
                    return str(keyword.value.value)
            return node.name
    return node.name if node.name.startswith("pytest_") else None


def _harmless(hook: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``hook`` cannot change which tests run: a harmless hook, or a
    ``pytest_configure`` that only registers markers (``config.addinivalue_line``)."""
    if hook in HARMLESS_HOOKS:
        return True
    if hook != "pytest_configure":
        return False
    for statement in node.body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a docstring
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not (isinstance(call, ast.Call) and dotted(call.func).endswith(".addinivalue_line")):
            return False
    return True
