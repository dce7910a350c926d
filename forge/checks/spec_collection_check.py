"""``spec_collection``: with a base, a verify command still collects every spec test of the base.

The tests a verify command's pytest collects at the base revision are the
module's specification. For each pytest invocation of each verify command
(:func:`forge.test_runs.pytest_invocations`), pytest's own collection runs at
the base (the base tree exported from git into a private folder, never the
user's tree; cached per base commit and command under
``.forge/cache/spec-collection/``) and in the working dir
(:mod:`forge.test_runs.collection`). A base test id the work no longer
collects fails the command, naming each with its file:line at the base,
unless it was renamed or moved with its body, parametrized, or named in the
module's ``specChanges``; one folded into a new table-driven test of its file
(every constant, call and equality kept) is shown as evidence in the passing
result. Where the base cannot be collected (its tree lacks
something the work has), the result is skipped, saying why: never a pass.

A command that runs mocha, vitest or ``node --test`` (directly or through its
``package.json`` script, read at each side) is listed the same way, by the
runner's own listing (:mod:`forge.test_runs.js_collection`: mocha's dry run,
node's reporter over tests it skips by name, ``vitest list``): a narrowed script or
``.mocharc``, a deleted or ``.only``-focused test shows as a base test gone.
The base tree borrows the working dir's ``node_modules`` (never committed).
"""

from __future__ import annotations

import contextlib
import hashlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from forge import hookimpl
from forge.errors import clip
from forge.models import CheckDescriptor, CheckResult, Location, ValidateRequest
from forge.workspace import Workspace

if TYPE_CHECKING:
    from forge.test_runs.collection import Collected, Missing, Shape

CHECK_ID = "spec_collection"
#: Missing tests named in a result's one-line message; locations list them all.
SHOWN_IN_MESSAGE = 5
#: What a cache file holds: part of its key, so another format is never read.
CACHE_FORMAT = "2"


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """One result per pytest invocation, and per command running mocha, vitest or node's runner."""
    base = workspace.base
    if base is None or not request.commands or not workspace.cwd.is_dir():
        return []
    from forge.test_runs.js_collection import js_runs, tree_reader
    from forge.test_runs.runners import pytest_invocations

    timeout = workspace.config.command_timeout
    wanted: list[tuple[str, list[str], Collector]] = []
    for command in request.commands:
        for words in pytest_invocations(command):
            wanted.append((command, words, _pytest_collector(words, workspace.cwd, timeout)))
        if js_runs(command, tree_reader(workspace.cwd)) or js_runs(
            command, _base_reader(workspace)
        ):
            wanted.append(
                (command, ["js", command], _js_collector(command, workspace.cwd, timeout))
            )
    if not wanted:
        return []
    ref = workspace.plan_module
    allowed = _spec_changes(ref.module) if ref is not None else []
    cache_root = ref.root if ref is not None else workspace.cwd
    results = []
    for command, key, collector in wanted:
        results.append(_judge(command, key, collector, workspace, cache_root, allowed))
        workspace.report_progress(f"spec collection: {command}")
    return results


#: Collects the tests of one command in a tree (the base's stand-in or the working dir).
Collector = Callable[[Path], "list[Collected]"]


def _pytest_collector(words: list[str], real_cwd: Path, timeout: float) -> Collector:
    from forge.test_runs.collection import collect

    return lambda tree: collect(words, tree, real_cwd, timeout, _run)


def _js_collector(command: str, real_cwd: Path, timeout: float) -> Collector:
    from forge.test_runs.js_collection import collect_js

    return lambda tree: collect_js(command, tree, real_cwd, timeout, _run)


def _base_reader(workspace: Workspace) -> Callable[[str], str | None]:
    """Reads a file of the base at a path relative to the working dir (package.json scripts)."""
    base = workspace.base
    assert base is not None

    def read(relative: str) -> str | None:
        path = workspace.resolve(relative)
        data = base.contents([path]).get(path)
        return data.decode("utf-8", errors="replace") if data is not None else None

    return read


def _judge(
    command: str,
    key: list[str],
    collector: Collector,
    workspace: Workspace,
    cache_root: Path,
    allowed: list[str],
) -> CheckResult:
    from forge.test_runs.collection import CollectionFailed, missing

    base = workspace.base
    assert base is not None
    try:
        before = _base_collection(key, collector, workspace, cache_root)
    except CollectionFailed as exc:
        return _result(
            command, None, f"cannot collect the spec tests at {base.ref}: {exc}", skip=True
        )
    try:
        now = collector(workspace.cwd)
    except CollectionFailed as exc:
        return _result(command, False, f"cannot collect the tests: {exc}")
    base_text = _texts(workspace, at_base=True)
    found = missing(
        before, now, base_body=_bodies(base_text), work_body=_bodies(_texts(workspace, at_base=False)),
        allowed=allowed,
    )  # fmt: skip
    gone = [item for item in found if item.folded_into is None]
    folded = [item for item in found if item.folded_into is not None]
    where = f"{base.ref} ({base.commit[:12]})"
    evidence = (
        "; folded into a new test with every constant, call and equality: "
        + ", ".join(f"{item.id} -> {item.folded_into}" for item in folded[:SHOWN_IN_MESSAGE])
        if folded
        else ""
    )
    if not gone:
        kept = len(before) - len(folded)
        return _result(
            command,
            True,
            f"{f'{kept} of the' if folded else 'all'} {len(before)} spec tests of {where} "
            f"still collected ({len(now)} now){evidence}",
        )
    shown = ", ".join(item.id for item in gone[:SHOWN_IN_MESSAGE])
    more = f" (+{len(gone) - SHOWN_IN_MESSAGE} more)" if len(gone) > SHOWN_IN_MESSAGE else ""
    return CheckResult(
        type=CHECK_ID,
        target=command,
        passed=False,
        message=clip(
            f"{len(gone)} of the {len(before)} spec tests of {where} no longer collected: "
            f"{shown}{more}; restore them (renamed or moved tests keep their body){evidence}",
            500,
        ),
        locations=[
            Location(
                path=item.file,
                line=_line(base_text, item),
                column=1,
                message=f"{item.id}: no longer collected",
            )
            for item in gone
        ],
    )


def _base_collection(
    key: list[str], collector: Collector, workspace: Workspace, cache_root: Path
) -> list[Collected]:
    from forge.git import GitError
    from forge.git.export import export_tree
    from forge.store.json_files import peek_json, write_json
    from forge.test_runs.collection import Collected, CollectionFailed

    base = workspace.base
    assert base is not None
    prefix = base.relative(workspace.cwd / "x")
    folder = prefix.parent if prefix is not None else None
    digest = hashlib.sha256(
        "\0".join([CACHE_FORMAT, base.commit, str(folder), *key]).encode()
    ).hexdigest()[:32]
    cache = cache_root / ".forge" / "cache" / "spec-collection" / f"{digest}.json"
    data, _problem = peek_json(cache)
    if isinstance(data, list):
        try:
            return [Collected.from_json(item) for item in data]
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # rebuilt below
    with tempfile.TemporaryDirectory(prefix="forge-spec-base-") as scratch:
        try:
            stand_in = export_tree(base, Path(scratch).resolve(), folder)
        except GitError as exc:
            raise CollectionFailed(str(exc)) from None
        installed = workspace.cwd / "node_modules"
        if installed.is_dir() and not (stand_in / "node_modules").exists():
            # Never committed, so never exported: the base's tests import the project's packages.
            (stand_in / "node_modules").symlink_to(installed.resolve(), target_is_directory=True)
        found = collector(stand_in)
    with contextlib.suppress(OSError):  # a read-only project still gets its verdict
        write_json(cache, [item.to_json() for item in found])
    return found


def _texts(workspace: Workspace, *, at_base: bool) -> Callable[[str], str | None]:
    """A test file's text at the base (from git) or in the working dir, read once."""
    texts: dict[str, str | None] = {}

    def text(file: str) -> str | None:
        if file not in texts:
            path = workspace.resolve(file)
            data: bytes | None = None
            if at_base and workspace.base is not None:
                data = workspace.base.contents([path]).get(path)
            elif not at_base and path.is_file() and not path.is_symlink():
                with contextlib.suppress(OSError):
                    data = path.read_bytes()[: 4 * 1024 * 1024]
            texts[file] = data.decode("utf-8", errors="replace") if data is not None else None
        return texts[file]

    return text


def _bodies(text_of: Callable[[str], str | None]) -> Callable[[Collected], Shape | None]:
    """A test's body shape in its file (Python or JavaScript) as ``text_of`` reads it."""
    from forge.test_runs.collection import body_shape
    from forge.test_runs.js_collection import is_js_test, js_body_shape

    def body(item: Collected) -> Shape | None:
        text = text_of(item.file)
        if text is None:
            return None
        return js_body_shape(text, item) if is_js_test(item.file) else body_shape(text, item.line)

    return body


def _line(text_of: Callable[[str], str | None], item: Missing) -> int:
    """Where a missing test was at the base: mocha lists no lines, its file is read for one."""
    from forge.test_runs.js_collection import is_js_test, js_line

    text = text_of(item.file) if is_js_test(item.file) else None
    return js_line(text, item.id, item.line) if text is not None else item.line


def _run(command: str, where: Path, timeout: float) -> tuple[int | None, str]:
    from forge.runtime.processes import supervise

    done = supervise(command, where, timeout)
    if done.exit_code is None:
        return None, f"could not start: {done.start_error}"
    tail = (done.stderr.text() or done.stdout.text()).strip().splitlines()[-3:]
    how = "timed out" if done.timed_out else f"exit {done.exit_code}"
    return done.exit_code, clip(f"{how}: {' | '.join(tail)}", 300)


def _spec_changes(module: object) -> list[str]:
    """The spec tests the plan lets the module change (``specChanges``), as test ids."""
    value = getattr(module, "spec_changes", None)
    if value is None:
        value = (getattr(module, "model_extra", None) or {}).get("specChanges")
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _result(command: str, passed: bool | None, message: str, *, skip: bool = False) -> CheckResult:
    return CheckResult(
        type=CHECK_ID, target=command, passed=bool(passed), message=clip(message, 500), skipped=skip
    )


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``spec_collection``: beside the commands; it runs pytest's collection."""
    return [
        CheckDescriptor(
            id=CHECK_ID,
            summary="With a base, each pytest, mocha, vitest or node:test verify command still collects "
            "every spec test the base collected (renamed, moved or parametrized ones count).",
            order=51,
        )
    ]
