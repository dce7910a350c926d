"""A Python spec file at the base against its text now: what the change took away.

- :func:`compare_tests`: each test of the base found again (same name, or the
  same body anywhere: moved, renamed, parametrized) or reported removed; a
  test found again has its assertions compared (:func:`judge_pair`: an
  equality turned into a truthiness check, an expected literal changed, an
  exception broadened, a tolerance loosened) and its new body searched for
  assertions swallowed (:func:`forge.test_runs.spec_python_reach.swallowing`).
- :func:`patched_names`: what a test file patches of the module's own code.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections import Counter
from collections.abc import Callable, Iterator

from forge.test_runs.py_assertions import Check, broader_exception, dotted
from forge.test_runs.spec_findings import Kind, SpecFinding
from forge.test_runs.spec_python import PyFile, PyTest, checks_of
from forge.test_runs.spec_python_reach import swallowing

#: The function a subject calls: the name before its first parenthesis.
_CALLED = re.compile(r"^[^(]*?([A-Za-z_$][\w$]*)\s*\(")
#: What an equality may not turn into.
_WEAKER = frozenset({"truthy", "notnone", "isinstance", "ne", "in", "order", "falsy", "none"})
#: pytest.approx's relative tolerance when none is given.
_APPROX_DEFAULT = 1e-6


def compare_tests(
    path: str, old: PyFile, new: PyFile | None, pool: dict[str, PyFile]
) -> list[SpecFinding]:
    """What the change did to each test of ``old`` (``path`` at the base).

    ``pool``: the test files the change touched, as they are now, where a test
    may have moved to.
    """
    findings: list[SpecFinding] = []
    moved: set[str] | None = None  # the bodies of the pool's tests, read when one is missing
    for name, test in old.tests.items():
        found = new.tests.get(name) if new is not None else None
        now_file = new
        if found is not None and found.source == test.source:
            continue  # not touched (decorators are switched_off's to read)
        if found is None:
            if moved is None:
                moved = {
                    b for file in pool.values() for t in file.tests.values() for b in _bodies(t)
                }
            if test.body in moved:
                continue  # moved, renamed or parametrized with its body
            elsewhere = [(f, t) for f in pool.values() if (t := f.tests.get(name)) is not None]
            if len(elsewhere) != 1:
                findings.append(
                    SpecFinding(
                        "removed",
                        path,
                        name,
                        f"{name} removed (line {test.line} at the base); no test with its body "
                        "is left",
                        1,
                        1,
                    )
                )
                continue
            now_file, found = elsewhere[0]
        if test.cases and now_file is not None:
            if moved is None:
                moved = {
                    b for file in pool.values() for t in file.tests.values() for b in _bodies(t)
                }
            gone = [i for i, case in enumerate(test.cases, 1) if case not in {*found.cases, *moved}]
            if gone:
                message = f"{name}: parametrize case {', '.join(map(str, gone))} of {len(test.cases)} removed"
                findings.append(SpecFinding("removed", path, name, message, found.line, 1))
                continue
        if found.body == test.body or test.body in found.cases or now_file is None:
            continue
        where = path if now_file is new else _path_of(pool, now_file, path)
        findings.extend(_compare_one(where, name, test, old, found, now_file))
    return findings


def _bodies(test: PyTest) -> list[str]:
    return [test.body, *test.cases]


def _path_of(pool: dict[str, PyFile], file: PyFile, default: str) -> str:
    return next((path for path, found in pool.items() if found is file), default)


def _compare_one(
    path: str, name: str, old: PyTest, old_file: PyFile, new: PyTest, new_file: PyFile
) -> Iterator[SpecFinding]:
    before = checks_of(old, old_file.helpers)
    after = checks_of(new, new_file.helpers)
    yield from assertion_changes(path, name, before, after, new.line)
    yield from newly_swallowed(
        path, name, swallowing(old.node, old_file.helpers), swallowing(new.node, new_file.helpers)
    )


def assertion_changes(
    path: str, name: str, before: list[Check], after: list[Check], line: int
) -> Iterator[SpecFinding]:
    """What became of a test's assertions (Python's or JavaScript's): each one gone is paired
    with a new one checking the same subject and judged (:func:`judge_pair`); ``line`` is
    where the test stands now, for an assertion removed without a counterpart."""
    keys = Counter(check.key for check in after)
    left = []
    for check in before:
        if keys[check.key]:
            keys[check.key] -= 1
        else:
            left.append(check)
    spare = []
    for check in after:
        if keys[check.key] > 0:
            keys[check.key] -= 1
            spare.append(check)
    unmatched = []
    for check in left:
        partner = next((n for n in spare if n.subject == check.subject), None)
        if partner is None:
            unmatched.append(check)
            continue
        spare.remove(partner)
        judged = judge_pair(check, partner)
        if judged is not None:
            kind, message = judged
            yield SpecFinding(kind, path, name, f"{name}: {message}", partner.line, 1)
    # An assertion gone without a counterpart counts only when the test has fewer
    # assertions than before: a rewritten one is not judged (precision first).
    deficit = len(before) - len(after)
    for check in unmatched[: max(deficit, 0)]:
        message = f"{name}: assertion removed: `{check.text}`"
        yield SpecFinding("assertion_removed", path, name, message, line, 1)


def newly_swallowed(
    path: str, name: str, before: list[tuple[int, str]], after: list[tuple[int, str]]
) -> Iterator[SpecFinding]:
    """Each ``(line, what)`` swallowing a failure now that the test did not have before."""
    fresh = Counter(message for _, message in after)
    fresh.subtract(message for _, message in before)
    for line, message in after:
        if fresh[message] > 0:
            fresh[message] -= 1
            yield SpecFinding("swallowed", path, name, f"{name}: {message}", line, 1)


def _calls_the_subject(check: Check) -> bool:
    """Whether ``check``'s expected value calls the function its subject calls
    (``mul(2, 3) == mul(3, 2)``): an equality that holds whatever that function does.
    Read from the texts, so JavaScript's token strings (``calc . mul ( 2 3 )``) too."""
    called = _CALLED.match(check.subject)
    if called is None or not check.expected or hasattr(builtins, called.group(1)):
        return False  # len(x) == len(y) compares two things, not the code with itself
    return re.search(rf"(?<![\w$]){re.escape(called.group(1))}\s*\(", check.expected) is not None


def judge_pair(old: Check, new: Check) -> tuple[Kind, str] | None:
    """``(kind, what changed)`` when the assertion ``new`` checks less than ``old``."""
    if old.kind == "raises":
        if new.kind != "raises":
            return None
        if old.expected and new.expected and broader_exception(old.expected, new.expected):
            return "weakened", f"`{old.text}` broadened to `{new.text}`"
        if old.literal and not new.literal:
            return "weakened", f"`{old.text}` lost its match: `{new.text}`"
        return None
    if old.kind in {"eq", "is"}:
        if new.kind in {"eq", "is"} and old.literal and new.literal:
            if old.expected != new.expected:
                return "expected_changed", f"expected {old.expected} changed to {new.expected}"
            return None
        if new.kind in {"eq", "is"} and old.literal and _calls_the_subject(new):
            return "weakened", (
                f"expected {old.expected} replaced by `{new.expected}`: the code under test "
                "checked against itself"
            )
        if new.kind == "approx" and new.expected == old.expected:
            return "weakened", f"exact `{old.text}` loosened to `{new.text}`"
        if new.kind in _WEAKER:
            return "weakened", f"`{old.text}` weakened to `{new.text}`"
        return None
    if old.kind == "approx":
        if new.kind == "approx":
            if old.literal and new.literal and old.expected != new.expected:
                return "expected_changed", f"expected {old.expected} changed to {new.expected}"
            was = old.tolerance if old.tolerance is not None else _APPROX_DEFAULT
            now = new.tolerance if new.tolerance is not None else _APPROX_DEFAULT
            if now > was:
                return "weakened", f"tolerance loosened from {was:g} to {now:g}: `{new.text}`"
            return None
        if new.kind in _WEAKER:
            return "weakened", f"`{old.text}` weakened to `{new.text}`"
        return None
    if old.kind in _WEAKER - {"truthy"} and new.kind == "truthy":
        return "weakened", f"`{old.text}` weakened to `{new.text}`"
    return None


def patched_names(
    tree: ast.Module, own: dict[str, set[str]], keep: Callable[[ast.AST], bool] = lambda _: True
) -> list[tuple[int, int, str, str]]:
    """``(line, column, test, target)`` for each patch of a name the module's own files define.

    ``keep`` says which top-level statements and class members to read (those
    a change touched). ``own`` maps a module's dotted names (``src.calc``, ``calc``) to the names
    its file defines. Read: ``mock.patch("src.calc.mul")``, ``patch.object(calc,
    "mul")``, ``monkeypatch.setattr(calc, "mul", ...)`` and ``setattr("src.calc.mul",
    ...)``, ``calc.mul = ...``, ``vars(calc)["mul"] = ...`` and ``calc.__dict__.update(mul=...)``,
    with ``calc`` bound by an import or looked up by name (``importlib.import_module``,
    ``__import__``, ``sys.modules``).
    """
    bound = imported_names(tree)
    found: list[tuple[int, int, str, str]] = []
    for test, node in _with_owner(tree, keep):
        _bind(node, bound)  # an import inside a test comes before what it binds is used
        if not isinstance(node, ast.expr | ast.stmt):
            continue
        targets: list[str] = []
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name.endswith(("patch", "setattr", "patch.object", "spy", "patch.multiple")):
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    targets.append(first.value)
                elif first is not None and len(node.args) > 1:
                    attr = node.args[1]
                    if isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                        targets.append(f"{_resolve(first, bound)}.{attr.value}")
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "update":
                # vars(calc).update(mul=...), calc.__dict__.update(mul=...)
                namespace = _namespace_of(node.func.value)
                if namespace is not None:
                    module = _resolve(namespace, bound)
                    targets += [f"{module}.{kw.arg}" for kw in node.keywords if kw.arg]
        elif isinstance(node, ast.Assign):
            for lhs in node.targets:
                if isinstance(lhs, ast.Attribute):
                    targets.append(f"{_resolve(lhs.value, bound)}.{lhs.attr}")
                elif isinstance(lhs, ast.Subscript) and isinstance(lhs.slice, ast.Constant):
                    # vars(calc)["mul"] = ..., calc.__dict__["mul"] = ...
                    namespace = _namespace_of(lhs.value)
                    if namespace is not None and isinstance(lhs.slice.value, str):
                        targets.append(f"{_resolve(namespace, bound)}.{lhs.slice.value}")
        found += [
            (node.lineno, node.col_offset + 1, test, target)
            for target in targets
            if owned(target, own)
        ]
    return found


def _namespace_of(node: ast.expr) -> ast.expr | None:
    """The object whose namespace ``node`` is: ``x`` of ``vars(x)`` or ``x.__dict__``."""
    if isinstance(node, ast.Call) and dotted(node.func) == "vars" and len(node.args) == 1:
        return node.args[0]
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        return node.value
    return None


def _module_named(node: ast.expr) -> str | None:
    """The module a lookup by name gives: ``importlib.import_module("x")``, ``__import__("x",
    fromlist=[...])`` (without a fromlist, its top package), ``sys.modules["x"]`` or
    ``sys.modules.get("x")``."""
    if isinstance(node, ast.Subscript) and dotted(node.value).endswith("modules"):
        key = node.slice
        return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
    if not isinstance(node, ast.Call) or not node.args:
        return None
    first = node.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None
    name = dotted(node.func)
    if name.endswith(("import_module", "modules.get")):
        return first.value
    if name == "__import__":
        fromlist = node.args[3] if len(node.args) > 3 else None
        fromlist = next((k.value for k in node.keywords if k.arg == "fromlist"), fromlist)
        empty = fromlist is None or (
            isinstance(fromlist, ast.List | ast.Tuple) and not fromlist.elts
        )
        return first.value.split(".")[0] if empty else first.value
    return None


def _with_owner(tree: ast.Module, keep: Callable[[ast.AST], bool]) -> Iterator[tuple[str, ast.AST]]:
    for top in tree.body:
        owner = top.name if isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef) else ""
        if isinstance(top, ast.ClassDef):
            for item in top.body:
                if not keep(item):
                    continue
                name = getattr(item, "name", "")
                for node in ast.walk(item):
                    yield f"{top.name}::{name}" if name else top.name, node
            continue
        if keep(top):
            for node in ast.walk(top):
                yield owner, node


def imported_names(tree: ast.Module) -> dict[str, str]:
    """The names the module-level imports bind, each to what it names."""
    bound: dict[str, str] = {}
    for node in tree.body:
        _bind(node, bound)
    return bound


def _bind(node: ast.AST, bound: dict[str, str]) -> None:
    """Record what an ``import`` or ``from ... import`` statement binds."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                bound[alias.asname] = alias.name
            else:
                first = alias.name.split(".")[0]
                bound[first] = first
    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
        for alias in node.names:
            bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    elif isinstance(node, ast.Assign) and len(node.targets) == 1:
        # m = importlib.import_module("src.calc") binds m to the module, as an import would.
        [target] = node.targets
        module = _module_named(node.value)
        if isinstance(target, ast.Name) and module is not None:
            bound[target.id] = module


def _resolve(node: ast.expr, bound: dict[str, str]) -> str:
    module = _module_named(node)
    if module is not None:
        return module
    name = dotted(node)
    head, _, rest = name.partition(".")
    full = bound.get(head, head)
    return f"{full}.{rest}" if rest else full


def owned(target: str, own: dict[str, set[str]]) -> bool:
    """Whether dotted ``target`` names a name ``own`` gives to one of its modules."""
    for module, names in own.items():
        if target.startswith(module + "."):
            first = target[len(module) + 1 :].split(".")[0]
            if first in names:
                return True
    return False
