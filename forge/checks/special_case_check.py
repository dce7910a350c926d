"""``special_case``: with a base, the module's code does not special-case the test run.

Each listed file that is code (Python, JavaScript, TypeScript) and not a test
file is compared with itself at the base revision
(:mod:`forge.test_runs.special_case`): new code that detects the test run
(``"pytest" in sys.modules``, ``PYTEST_CURRENT_TEST``, ``NODE_ENV === "test"``,
``JEST_WORKER_ID``, ``VITEST``) fails, and so does a new branch that answers a
spec test's literal call with that test's literal expectation (``if (a, b) ==
(2, 3): return 6`` where a test at the base asserts ``mul(2, 3) == 6``; in
JavaScript ``if (a === 2 && b === 3) return 6;`` against
``assert.strictEqual(mul(2, 3), 6)``). The spec tests are the repository's test
files at the base, of the file's language, that call a function the file
defines. Without a base, no result; a file unchanged since the base gives none
either.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from forge import hookimpl
from forge.errors import clip
from forge.models import CheckDescriptor, CheckResult, FileResult, Location, ValidateRequest
from forge.workspace import Workspace

if TYPE_CHECKING:
    from forge.test_runs.literal_answers import Expectation

CHECK_ID = "special_case"
#: Test files at the base read for spec calls, at most; bytes of each.
MAX_TEST_FILES = 2_000
MAX_TEST_BYTES = 1024 * 1024
_DEFINED = re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)", re.M)
#: A JavaScript function's name: declared, assigned (``mul = (a, b) =>``, ``mul: function``),
#: or a method (``mul(a, b) {``). Only narrows the test files read: a miss reads fewer.
_JS_DEFINED = re.compile(
    r"\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)"
    r"|([A-Za-z_$][\w$]*)\s*[=:]\s*(?:async\s*)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>)"
    r"|^\s*(?:async\s+|static\s+)*([A-Za-z_$][\w$]*)\s*\(",
    re.M,
)
#: Words a line may start with before a ``(`` that name no function.
_JS_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "return", "await", "typeof"})


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """One result per listed code file, not a test file, changed since the base."""
    base = workspace.base
    if base is None or not request.files:
        return []
    from forge.test_runs.file_kinds import is_test_file
    from forge.test_runs.special_case import is_module_code

    texts: dict[str, str] = {}
    for file in dict.fromkeys(request.files):
        path = workspace.resolve(file)
        if not is_module_code(file) or not path.is_file() or path.is_symlink():
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if not is_test_file(file, text):
            texts[file] = text
    if not texts:
        return []
    old = base.contents([workspace.resolve(file) for file in texts])
    changed: dict[str, tuple[str | None, str]] = {}
    for file, text in texts.items():
        raw = old.get(workspace.resolve(file))
        before = raw.decode("utf-8", errors="replace") if raw is not None else None
        if before != text:  # an unchanged file has no new code: nothing to say
            changed[file] = (before, text)
    defined = {name for file, (_, text) in changed.items() for name in _defined(file, text)}
    specs = _spec_expectations(workspace, defined) if defined else []
    results: list[CheckResult] = []
    for file, (before, text) in changed.items():
        results.append(_judge(file, before, text, specs))
    return results


def _defined(file: str, text: str) -> set[str]:
    from forge.test_runs.special_case import JS_SUFFIXES

    if file.endswith(JS_SUFFIXES):
        names = {name for match in _JS_DEFINED.findall(text) for name in match if name}
        return names - _JS_KEYWORDS
    return set(_DEFINED.findall(text))


def _judge(file: str, before: str | None, text: str, specs: list[Expectation]) -> FileResult:
    from forge.test_runs.literal_answers import literal_answers
    from forge.test_runs.special_case import JS_SUFFIXES, detects_test_run

    found = detects_test_run(file, before, text)
    # A spec test answers for code of its own language.
    python = [spec for spec in specs if spec.where.rpartition(":")[0].endswith(".py")]
    if file.endswith(".py"):
        from forge.test_runs.hollow_answers import hollow_answers

        tested = {spec.function for spec in python}
        found += literal_answers(before, text, python) + hollow_answers(before, text, tested)
    elif file.endswith(JS_SUFFIXES):
        from forge.test_runs.special_case_js import js_literal_answers

        js = [spec for spec in specs if spec.where.rpartition(":")[0].endswith(JS_SUFFIXES)]
        found += js_literal_answers(file, before, text, js)
    found.sort(key=lambda finding: finding.line)
    message = (
        "no new code special-cases the test run"
        if not found
        else clip(
            f"{len(found)} special case{'s' if len(found) != 1 else ''} of the tests: "
            + "; ".join(f"line {f.line}: {f.message}" for f in found[:3]),
            500,
        )
    )
    return FileResult(
        type=CHECK_ID,
        target=file,
        passed=not found,
        message=message,
        locations=[Location(line=f.line, column=1, message=f.message) for f in found],
    )


def _spec_expectations(workspace: Workspace, defined: set[str]) -> list[Expectation]:
    """The literal calls and expectations of the base's test files that call ``defined``."""
    from forge.git.runner import run_git
    from forge.test_runs.file_kinds import is_test_file
    from forge.test_runs.literal_answers import expectations
    from forge.test_runs.special_case import JS_SUFFIXES
    from forge.test_runs.special_case_js import js_expectations

    base = workspace.base
    assert base is not None
    try:
        listing = run_git(base.root, ["ls-tree", "-r", "-z", "--name-only", base.commit])
    except Exception:
        return []
    names = [
        name
        for name in listing.decode("utf-8", "surrogateescape").split("\0")
        if name.endswith((".py", *JS_SUFFIXES)) and is_test_file(name, "")
    ][:MAX_TEST_FILES]
    contents = base.contents([base.root / name for name in names])
    calls = re.compile(
        rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in sorted(defined)) + rb")\("
    )
    found: list[Expectation] = []
    for path, data in contents.items():
        if data is None or len(data) > MAX_TEST_BYTES or not calls.search(data):
            continue
        shown = Path(path).relative_to(base.root).as_posix()
        read = expectations if shown.endswith(".py") else js_expectations
        found.extend(read(shown, data.decode("utf-8", errors="replace")))
    return found


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``special_case``: after the switched-off tests, before the commands; about a file."""
    return [
        CheckDescriptor(
            id=CHECK_ID,
            summary="No new code in a module file detects the test run or answers a spec "
            "test's literal call with its literal expectation.",
            order=46,
            targets_file=True,
            read_only=True,
        )
    ]
