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
    from forge.test_runs.collection import Collected, Shape

CHECK_ID = "spec_collection"
#: Missing tests named in a result's one-line message; locations list them all.
SHOWN_IN_MESSAGE = 5
#: What a cache file holds: part of its key, so another format is never read.
CACHE_FORMAT = "2"


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult]:
    """One result per pytest invocation of the verify commands, when there is a base."""
    base = workspace.base
    if base is None or not request.commands or not workspace.cwd.is_dir():
        return []
    from forge.test_runs.runners import pytest_invocations

    wanted = [
        (command, words) for command in request.commands for words in pytest_invocations(command)
    ]
    if not wanted:
        return []
    ref = workspace.plan_module
    allowed = _spec_changes(ref.module) if ref is not None else []
    cache_root = ref.root if ref is not None else workspace.cwd
    results = []
    for command, words in wanted:
        results.append(_judge(command, words, workspace, cache_root, allowed))
        workspace.report_progress(f"spec collection: {command}")
    return results


def _judge(
    command: str, words: list[str], workspace: Workspace, cache_root: Path, allowed: list[str]
) -> CheckResult:
    from forge.test_runs.collection import CollectionFailed, collect, missing

    base = workspace.base
    assert base is not None
    timeout = workspace.config.command_timeout
    try:
        before = _base_collection(words, workspace, cache_root, timeout)
    except CollectionFailed as exc:
        return _result(
            command, None, f"cannot collect the spec tests at {base.ref}: {exc}", skip=True
        )
    try:
        now = collect(words, workspace.cwd, workspace.cwd, timeout, _run)
    except CollectionFailed as exc:
        return _result(command, False, f"cannot collect the tests: {exc}")
    found = missing(
        before, now, base_body=_bodies(workspace, at_base=True),
        work_body=_bodies(workspace, at_base=False), allowed=allowed,
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
                path=item.file, line=item.line, column=1, message=f"{item.id}: no longer collected"
            )
            for item in gone
        ],
    )


def _base_collection(
    words: list[str], workspace: Workspace, cache_root: Path, timeout: float
) -> list[Collected]:
    from forge.git import GitError
    from forge.git.export import export_tree
    from forge.store import peek_json, write_json
    from forge.test_runs.collection import Collected, CollectionFailed, collect

    base = workspace.base
    assert base is not None
    prefix = base.relative(workspace.cwd / "x")
    folder = prefix.parent if prefix is not None else None
    key = hashlib.sha256(
        "\0".join([CACHE_FORMAT, base.commit, str(folder), *words]).encode()
    ).hexdigest()[:32]
    cache = cache_root / ".forge" / "cache" / "spec-collection" / f"{key}.json"
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
        found = collect(words, stand_in, workspace.cwd, timeout, _run)
    with contextlib.suppress(OSError):  # a read-only project still gets its verdict
        write_json(cache, [item.to_json() for item in found])
    return found


def _bodies(workspace: Workspace, *, at_base: bool) -> Callable[[Collected], Shape | None]:
    """A test's body shape in its file at the base (from git) or in the working dir."""
    from forge.test_runs.collection import body_shape

    texts: dict[str, str | None] = {}

    def body(item: Collected) -> Shape | None:
        if item.file not in texts:
            path = workspace.resolve(item.file)
            data: bytes | None = None
            if at_base and workspace.base is not None:
                data = workspace.base.contents([path]).get(path)
            elif not at_base and path.is_file() and not path.is_symlink():
                with contextlib.suppress(OSError):
                    data = path.read_bytes()[: 4 * 1024 * 1024]
            texts[item.file] = data.decode("utf-8", errors="replace") if data is not None else None
        text = texts[item.file]
        return body_shape(text, item.line) if text is not None else None

    return body


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
            summary="With a base, each pytest verify command still collects every spec test "
            "the base collected (renamed, moved or parametrized ones count).",
            order=51,
        )
    ]
